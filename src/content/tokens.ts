import { catalogue, problem } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import type { SourceFile } from '../util/source-file.js';
import { formatField } from '../util/field-path.js';
import { nearest } from '../util/nearest.js';

export const TOKEN = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;
/** Braces that would be published as they are: a token of another form (`{{ start-time }}`, `{{}}`), or half of one. */
const BRACES = /\{\{|\}\}/;
/** Facts already reported for holding braces themselves, so that each is one problem, not one per use. */
const reportedFacts = new WeakMap<object, Set<string>>();

/** Where a fact is written, for a hint; and whether its own braces are reported there already. */
export interface FactSource {
  /** `content/site.yaml (claims)`, `content/trader.yaml`, `the settings (content/config.yaml or the environment)`. */
  where: string;
  /**
   * True for site.yaml's claims: their text passes through expandTokens, which reports braces that are
   * no token where they are written.
   */
  checked: boolean;
}
const sourcesOf = new WeakMap<object, Readonly<Record<string, FactSource>>>();

/**
 * Says where each fact is written. A claim with braces that are no token is then reported at
 * the claim only (`claims.name`), not again at each `{{name}}` that uses it, and a fact that
 * holds a token is to be written out where it is written.
 */
export function describeFacts(
  facts: Readonly<Record<string, string>>,
  sources: Readonly<Record<string, FactSource>>,
): void {
  sourcesOf.set(facts, sources);
}

/** A problem of copy: what the rule found is its one value. */
type CopyProblem = 'priceTypedInCopy' | 'upgradeWithoutPrice';

/** The hint of a problem of copy, which the JSON Schema shows too (json-schemas.ts): the same wherever it is found. */
function copyHint(name: CopyProblem): string {
  const { hint } = catalogue[name];
  if (typeof hint !== 'string') throw new Error(`The catalogue's ${name} has no fixed hint.`);
  return hint;
}

/** What copy may not say, because the catalogue is the only place a price, or an offer, lives. */
export const COPY_RULES = [
  {
    /** A price typed into copy: £4.99, $2, 4.99 GBP. */
    pattern: /[£$€]\s?\d|\d(?:[.,]\d+)?\s?(?:GBP|USD|pounds?\b)/i,
    problem: 'priceTypedInCopy' as CopyProblem,
    hint: copyHint('priceTypedInCopy'),
  },
  {
    /**
     * A paid tier or upgrade offered in copy, "Premium ... for an upgrade fee": the catalogue
     * holds no tier prices, so such an offer would be priced nowhere (drip pricing, DMCC Act 2024).
     */
    pattern: /\b(?:premium|upgrade)\b[^.!?\n]*\b(?:fee|surcharge|extra charge|extra cost|at checkout)\b/i,
    problem: 'upgradeWithoutPrice' as CopyProblem,
    hint: copyHint('upgradeWithoutPrice'),
  },
];

/**
 * Replaces `{{name}}` tokens in every string of a parsed file with the claim or setting of that
 * name, so that a fact stated once in site.yaml or the settings reads the same everywhere.
 * Unknown tokens are reported with their key path.
 */
export function expandTokens(
  source: SourceFile,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
  /**
   * Whether the text at a key path is copy, which the copy rules read (no typed price, no unpriced
   * upgrade): not the catalogue's prices, which its schema checks (SF103 owns `price: £3`).
   */
  isCopy: (at: readonly PropertyKey[]) => boolean = () => true,
): void {
  const visit = (value: unknown, at: PropertyKey[]): unknown => {
    if (typeof value === 'string') return expandString(value, at);
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...at, i]));
    if (value && typeof value === 'object' && !(value instanceof Date)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = visit(item, [...at, key]);
      return out;
    }
    return value;
  };
  const place = (at: PropertyKey[]) => ({ file: source.file, field: formatField(at), line: source.lineOf(at) });
  const expandString = (text: string, at: PropertyKey[]): string => {
    for (const rule of isCopy(at) ? COPY_RULES : []) {
      const found = rule.pattern.exec(text);
      if (found) problems.add(problem(rule.problem, { found: found[0] }, place(at)));
    }
    const rest = text.replace(TOKEN, '');
    if (BRACES.test(rest)) problems.add(problem('bracesNotToken', { excerpt: excerpt(text, rest) }, place(at)));
    return text.replace(TOKEN, (whole, name: string) => {
      const fact = facts[name];
      if (fact !== undefined && BRACES.test(fact)) {
        const reported = reportedFacts.get(facts) ?? new Set<string>();
        reportedFacts.set(facts, reported);
        // Braces that are no token, in a claim, are reported at the claim (the rule above).
        const holdsToken = new RegExp(TOKEN.source).test(fact);
        const written = sourcesOf.get(facts)?.[name];
        if (!holdsToken && written?.checked) reported.add(name);
        if (!reported.has(name)) {
          reported.add(name);
          const where = written?.where ?? 'content/site.yaml (claims)';
          problems.add(problem('tokenFactHoldsBraces', { token: whole, fact, holdsToken, name, where }, place(at)));
        }
      }
      if (fact !== undefined) return fact;
      const known = Object.keys(facts);
      problems.add(
        problem('tokenUnknown', { token: whole, name, guess: nearest(name, known), facts: known }, place(at)),
      );
      return whole;
    });
  };
  source.data = visit(source.data, []);
  if (source.body !== undefined) source.body = expandString(source.body, ['(body)']);
}

/** A short quote of the part of `text` around the first stray braces of `rest`. */
function excerpt(text: string, rest: string): string {
  const at = rest.search(BRACES);
  const stray = rest.slice(Math.max(0, at - 20), at + 22);
  return text.length <= 60 ? text : stray;
}
