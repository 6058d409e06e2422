import type * as z from 'zod';
import { problem, type Place } from '../errors/catalogue.js';
import type { Problem, ProblemList } from '../errors/storefront-error.js';
import { formatField } from '../util/field-path.js';
import { nearest } from '../util/nearest.js';
import type { SourceFile } from '../util/source-file.js';

/**
 * Validates a parsed file against its schema, reporting every issue with its key path and line,
 * once each: a misspelt field (`pirce`) is one problem, "Unknown field pirce. Did you mean
 * price?", not also "a required field is missing" at `price`. An unknown field, kind or value
 * names the nearest known one, found in the schema at the issue's place (util/nearest.ts).
 * `reference` says where the file's fields are described; each hint says what to do first.
 */
export function parseWithSchema<S extends z.ZodType>(
  schema: S,
  source: SourceFile,
  problems: ProblemList,
  reference: string,
): z.output<S> | undefined {
  const result = schema.safeParse(source.data);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const place = (at: readonly PropertyKey[]) => ({
    file: source.file,
    field: formatField(at),
    line: source.lineOf(at),
  });

  // Unknown fields first: the required field each is a misspelling of is not reported missing.
  const misspelt = new Set<string>();
  const unknown = issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [];
    const at = issue.path as PropertyKey[];
    const value = valueAt(source.data, at);
    const known = knownFields(schema, source.data, at);
    const free = known.filter((key) => !(value && typeof value === 'object' && Object.hasOwn(value, key)));
    return issue.keys.map((key) => {
      const guess = nearest(key, free);
      if (guess) misspelt.add(formatField([...at, guess]));
      return { at, key, guess, known };
    });
  });

  for (const issue of issues) {
    const at = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') continue;
    if (issue.code === 'invalid_type' && isMissing(issue) && misspelt.has(formatField(at))) continue;
    problems.add(describeIssue(issue, valueAt(source.data, at), reference, place(at)));
  }
  for (const { at, key, guess, known } of unknown) {
    const parent = at.length ? formatField(at) : undefined;
    problems.add(problem('fieldUnknown', { key, guess, known, parent, reference }, place([...at, key])));
  }
  return undefined;
}

function isMissing(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && issue.message.includes('received undefined');
}

/** How a kind of value is named in a hint. */
const KIND: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list (lines starting with "- ", or [a, b])',
  object: 'fields (key: value lines, indented under it)',
  date: 'a date',
};

/** The problem of one zod issue at its place; `value` is what the file holds at its path. */
function describeIssue(issue: z.core.$ZodIssue, value: unknown, reference: string, place: Place): Problem {
  const at = issue.path as PropertyKey[];
  const key = at.findLast((part) => typeof part === 'string') as string | undefined;
  const parent = at.slice(0, -1);
  if (issue.code === 'invalid_type' && isMissing(issue)) {
    return problem(
      'fieldMissing',
      {
        expected: issue.expected,
        field: key ?? formatField(at),
        kind: KIND[issue.expected] ?? issue.expected,
        parent: parent.length ? formatField(parent) : undefined,
        reference,
      },
      place,
    );
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
    const options = (issue as { options?: unknown[] }).options?.map(String) ?? [];
    const { discriminator } = issue;
    if (value === undefined) return problem('discriminatorMissing', { discriminator, options }, place);
    const guess = typeof value === 'string' ? nearest(value, options) : undefined;
    return problem('discriminatorUnknown', { discriminator, value: String(value), guess, options }, place);
  }
  if (issue.code === 'invalid_value' && typeof value === 'string' && issue.values.every((v) => typeof v === 'string')) {
    const values = issue.values.map(String);
    return problem('valueUnknown', { value, key, guess: nearest(value, values), values }, place);
  }
  if (issue.code === 'invalid_type' && issue.expected === 'number' && typeof value === 'string') {
    // `price: £3`, `price: "4.99"`, `3 GBP`: a number written as text.
    const number = /^\s*[£$€]?\s*(\d+(?:\.\d+)?)\s*(?:GBP|EUR|USD|pounds?)?\s*$/i.exec(value)?.[1];
    if (number !== undefined) return problem('numberAsText', { key, value, number }, place);
  }
  if (issue.code === 'invalid_type') {
    return problem(
      'typeWrong',
      { said: issue.message, kind: KIND[issue.expected] ?? issue.expected, reference },
      place,
    );
  }
  // A refinement may carry its own hint (plain-text.ts: what to do about an invisible character).
  const own = issue.code === 'custom' && typeof issue.params?.hint === 'string' ? issue.params.hint : undefined;
  return problem('fieldInvalid', { said: issue.message, key, field: formatField(at), own, reference }, place);
}

/** What the data holds at a key path. */
function valueAt(data: unknown, at: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of at)
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** The parts of a zod 4 schema this module reads (`schema._zod.def`): its kind and what it is made of. */
interface Def {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: unknown;
  element?: unknown;
  items?: unknown[];
  rest?: unknown;
  valueType?: unknown;
  innerType?: unknown;
  in?: unknown;
  getter?: () => unknown;
  left?: unknown;
  right?: unknown;
  options?: unknown[];
  discriminator?: string;
  values?: unknown[];
  entries?: Record<string, unknown>;
}

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/**
 * The schemas a value must match at one place: wrappers taken off (optional, default, a
 * transform's input, lazy), a union as its options, and a discriminated union's options narrowed
 * to the one the value's discriminator names (`kind: cards`), when it names one.
 */
function alternatives(schema: unknown, value: unknown, depth = 0): unknown[] {
  const def = defOf(schema);
  if (!def || depth > 32) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return alternatives(def.innerType, value, depth + 1);
    case 'pipe':
      return alternatives(def.in, value, depth + 1);
    case 'lazy':
      return alternatives(def.getter?.(), value, depth + 1);
    case 'intersection':
      return [...alternatives(def.left, value, depth + 1), ...alternatives(def.right, value, depth + 1)];
    case 'union': {
      const options = (def.options ?? []).flatMap((option) => alternatives(option, value, depth + 1));
      const tag =
        def.discriminator && value && typeof value === 'object'
          ? (value as Record<string, unknown>)[def.discriminator]
          : undefined;
      const chosen =
        tag === undefined
          ? []
          : options.filter((option) => literalValues(defOf(option)?.shape?.[def.discriminator!]).includes(tag));
      return chosen.length ? chosen : options;
    }
    default:
      return [schema];
  }
}

function literalValues(schema: unknown): unknown[] {
  return alternatives(schema, undefined).flatMap((s) => {
    const def = defOf(s);
    return def?.type === 'literal' ? (def.values ?? []) : def?.type === 'enum' ? Object.values(def.entries ?? {}) : [];
  });
}

/** The schema of one key or index inside a schema (after `alternatives`). */
function child(schema: unknown, key: PropertyKey): unknown[] {
  const def = defOf(schema);
  switch (def?.type) {
    case 'object':
      return [Object.hasOwn(def.shape ?? {}, key) ? def.shape![key as string] : def.catchall].filter(Boolean);
    case 'array':
      return [def.element];
    case 'tuple':
      return [def.items?.[Number(key)] ?? def.rest].filter(Boolean);
    case 'record':
      return [def.valueType];
    default:
      return [];
  }
}

/** The fields the schema knows for the object at a key path of the data, in the schema's order. */
function knownFields(schema: unknown, data: unknown, at: readonly PropertyKey[]): string[] {
  let current = [schema];
  let value = data;
  for (const key of at) {
    current = current.flatMap((s) => alternatives(s, value)).flatMap((s) => child(s, key));
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const fields = current
    .flatMap((s) => alternatives(s, value))
    .flatMap((s) => {
      const def = defOf(s);
      return def?.type === 'object' ? Object.keys(def.shape ?? {}) : [];
    });
  return [...new Set(fields)];
}
