import { mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { configSchema, envNames } from '../config/load-config.js';
import {
  catalogueSchema,
  pageSchema,
  postSchema,
  redirectsSchema,
  reviewsSchema,
  servicePageSchema,
  siteSchema,
  textPageSchema,
  traderSchema,
} from './schemas.js';
import { COPY_RULES, TOKEN } from './tokens.js';
import { refuseForeignOwnFolders } from '../util/inside-project.js';
import { readOwnFile } from '../util/read-bounded.js';

/**
 * JSON Schemas of the content files, made from the zod schemas (schemas.ts) so that an editor
 * checks a file and offers its fields while it is typed (docs/content-model.md, "Schemas in your
 * editor"). Written by `npm run compile` into the storefront's own folder, and by a build into
 * the project's, each file only when missing or changed.
 *
 * A JSON Schema says what it can of zod's rules: fields, types, enums, lengths, patterns; and the
 * one-value rules of the build's later checks that schemas.ts states as JSON Schema keywords. It
 * never refuses what the build accepts: a `{{token}}` may stand wherever a pattern would not
 * match it (tokens are replaced before the zod schemas run), and refinements and cross-file rules
 * are left to the build.
 */

/** Where the schemas are written, relative to the project folder (git-ignored). */
export const SCHEMA_DIR = '.storefront/schemas';

export interface ContentSchema {
  /** The file's name in SCHEMA_DIR, without `.schema.json`. */
  name: string;
  /** The content files it describes, relative to the project folder. */
  globs: string[];
  /** Markdown files: the schema is of their front matter (not a YAML file for editors to map). */
  frontMatter?: boolean;
  title: string;
  schema: z.ZodType;
  /** Whether `{{tokens}}` are replaced in the file before it is validated (all but config and trader). */
  tokens: boolean;
}

export const CONTENT_SCHEMAS: readonly ContentSchema[] = [
  {
    name: 'config',
    globs: ['content/config.yaml'],
    title: 'Settings: content/config.yaml',
    schema: configSchema.partial(),
    tokens: false,
  },
  {
    name: 'site',
    globs: ['content/site.yaml'],
    title: 'Site-wide copy: content/site.yaml',
    schema: siteSchema,
    tokens: true,
  },
  {
    name: 'trader',
    globs: ['content/trader.yaml'],
    title: 'Who the customer buys from: content/trader.yaml',
    schema: traderSchema,
    tokens: false,
  },
  {
    name: 'catalogue',
    globs: ['content/catalogue.yaml'],
    title: 'The catalogue: content/catalogue.yaml',
    schema: catalogueSchema,
    tokens: true,
  },
  {
    name: 'reviews',
    globs: ['content/reviews.yaml'],
    title: 'Ratings and reviews: content/reviews.yaml',
    schema: reviewsSchema,
    tokens: true,
  },
  {
    name: 'redirects',
    globs: ['content/redirects.yaml'],
    title: 'Redirects: content/redirects.yaml',
    schema: redirectsSchema,
    tokens: true,
  },
  {
    name: 'page',
    globs: ['content/pages/*.yaml'],
    title: 'A page: content/pages/{name}.yaml',
    schema: pageSchema,
    tokens: true,
  },
  {
    name: 'service',
    globs: ['content/services/*.yaml'],
    title: 'A service page: content/services/{name}.yaml',
    schema: servicePageSchema,
    tokens: true,
  },
  {
    name: 'text-page',
    globs: ['content/pages/*.md'],
    frontMatter: true,
    title: "A text page's front matter: content/pages/{name}.md",
    schema: textPageSchema,
    tokens: true,
  },
  {
    name: 'post',
    globs: ['content/blog/*.md'],
    frontMatter: true,
    title: "A blog post's front matter: content/blog/{slug}.md",
    schema: postSchema,
    tokens: true,
  },
];

type Json = Record<string, unknown>;

/** `[aA]` for every letter outside a character class or an escape: JSON Schema patterns have no `i` flag. */
function caseless(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      out += char + (source[i + 1] ?? '');
      i++;
    } else if (inClass) {
      out += char;
      if (char === ']') inClass = false;
    } else if (char === '[') {
      out += char;
      inClass = true;
    } else if (/[a-z]/i.test(char)) {
      out += `[${char.toLowerCase()}${char.toUpperCase()}]`;
    } else out += char;
  }
  return out;
}

/** A pattern that also matches any text holding a `{{token}}`. */
const orToken = (pattern: string) => `(?:${pattern})|${TOKEN.source}`;
/**
 * What copy may not say (tokens.ts, SF105 and SF106), as patterns every string of the file must
 * match: kept once in the schema's `$defs` and referred to from each string.
 */
const COPY_DEF = {
  description: 'What no text of the file may say: a typed price (SF105), a paid upgrade without its price (SF106).',
  type: 'string',
  allOf: COPY_RULES.map((rule) => {
    const source = rule.pattern.flags.includes('i') ? caseless(rule.pattern.source) : rule.pattern.source;
    return { pattern: `^(?![\\s\\S]*(?:${source}))`, patternErrorMessage: rule.hint };
  }),
};
const COPY_REF = { $ref: '#/$defs/copy' };

/**
 * Adjusts a generated schema, in place, node by node: formats are dropped for patterns, and in
 * a file whose tokens are replaced before validation, every string pattern also admits a token
 * and every string must not say what copy may not say.
 */
function adjust(node: unknown, tokens: boolean, isKey = false): void {
  if (Array.isArray(node)) {
    for (const item of node) adjust(item, tokens);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  // zod's formats: some are no JSON Schema format (starts_with), and editors check the others
  // their own way (a URI, an e-mail address), which is not zod's and refuses a `{{token}}`. The
  // pattern zod writes beside a format says it as zod does; a URL needs a scheme.
  if (typeof schema.format === 'string') {
    if (schema.format === 'uri' && schema.pattern === undefined) schema.pattern = '^\\s*[A-Za-z][A-Za-z0-9+.-]*:';
    delete schema.format;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') continue;
    adjust(value, tokens, key === 'propertyNames');
  }
  if (!tokens || isKey) return;
  if (typeof schema.pattern === 'string') schema.pattern = orToken(schema.pattern);
  if (schema.type === 'string' && schema.const === undefined && schema.enum === undefined) {
    schema.allOf = [...((schema.allOf as Json[] | undefined) ?? []), COPY_REF];
  }
}

/** Each schema of CONTENT_SCHEMAS as JSON Schema (draft 2020-12): the input of its zod schema. */
export function contentJsonSchema(entry: ContentSchema): Json {
  const generated = z.toJSONSchema(entry.schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Json;
  adjust(generated, entry.tokens);
  if (entry.name === 'config') {
    const properties = generated.properties as Record<string, Json>;
    for (const [key, variable] of Object.entries(envNames)) {
      const property = properties[key];
      if (!property) continue;
      const before = property.description ? `${String(property.description)} ` : '';
      property.description = `${before}Overridden by the environment variable ${variable}.`;
    }
  }
  const { $schema, ...rest } = generated;
  const frontMatterNote = entry.frontMatter ? ' The front matter between the --- lines.' : '';
  return {
    $schema,
    title: entry.title,
    description: `Made from src/content/schemas.ts by the storefront; see docs/content-model.md.${frontMatterNote}`,
    ...rest,
    ...(entry.tokens ? { $defs: { copy: COPY_DEF } } : {}),
  };
}

let texts: Map<string, string> | undefined;
/** The schema files' names and texts, made once per process. */
export function jsonSchemaTexts(): ReadonlyMap<string, string> {
  texts ??= new Map(
    CONTENT_SCHEMAS.map((entry) => [
      `${entry.name}.schema.json`,
      `${JSON.stringify(contentJsonSchema(entry), null, 2)}\n`,
    ]),
  );
  return texts;
}

/** When this code last changed: the bundle the CLI runs (lib/bundle/main.js), or this file. */
function codeTime(): number {
  try {
    return statSync(fileURLToPath(import.meta.url)).mtimeMs;
  } catch {
    return Infinity;
  }
}

const current = new Set<string>();
/**
 * Writes the schemas into SCHEMA_DIR of the project folder `root`, each only when missing or
 * changed; returns the files written. Cheap when nothing changed: unless `compare` is set, a
 * folder whose every schema file is newer than this code is taken as current without making
 * the schemas, and a folder is looked at once per process (dev rebuilds do nothing).
 */
export function writeJsonSchemas(root: string, compare = false): string[] {
  const dir = path.join(root, SCHEMA_DIR);
  if (!compare && current.has(dir)) return [];
  // Not through a link to someone's folder (see ownFolderProblems); a build has asked already.
  refuseForeignOwnFolders(root, [SCHEMA_DIR]);
  const since = codeTime();
  const fresh = (name: string) =>
    (statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? -Infinity) >= since;
  const changed: string[] = [];
  if (compare || !CONTENT_SCHEMAS.every((entry) => fresh(`${entry.name}.schema.json`))) {
    const now = new Date();
    for (const [name, text] of jsonSchemaTexts()) {
      const file = path.join(dir, name);
      // Opened without waiting, a regular file only: a named pipe there is written over, not waited on.
      const old = readOwnFile(file, 4 * 1024 * 1024)?.toString('utf8');
      if (old === text) {
        // The same text from newer code: marked current, so that the next build need not compare.
        if (!fresh(name)) utimesSync(file, now, now);
        continue;
      }
      mkdirSync(dir, { recursive: true });
      // Whole or not at all: an editor may be reading it while a build writes it.
      writeFileSync(`${file}.${process.pid}.tmp`, text);
      renameSync(`${file}.${process.pid}.tmp`, file);
      changed.push(file);
    }
  }
  current.add(dir);
  return changed;
}
