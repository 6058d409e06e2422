/**
 * The JSON Schemas of the content files (src/content/json-schemas.ts), for editors: every real
 * content file validates against its schema with a real JSON Schema validator (Ajv, draft
 * 2020-12); the cases of the bad-content suite that a schema can state are refused by it too;
 * the schemas are written only when missing or changed; and the YAML language server that
 * VS Code's YAML extension runs reports a misspelt field, with .vscode/settings.json's mapping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTENT_SCHEMAS, jsonSchemaTexts, SCHEMA_DIR, writeJsonSchemas } from '../../src/content/json-schemas.js';
import { repoRoot } from '../helpers.js';

const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module.Ajv2020 }).default;
// Strict: an unknown keyword or format, or a keyword without its type, is an error, so the schemas
// are plain JSON Schema. Not strictRequired: `oneOf: [{ required: [reviews] }, { required: [platform] }]`
// names properties defined beside it. multipleOf: 0.01 is checked to six decimals, as isValidPrice does.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, multipleOfPrecision: 6 });
// The messages VS Code's JSON and YAML services show for a failed pattern: annotations to Ajv.
ajv.addKeyword('patternErrorMessage');
const schemaText = (name: string) => jsonSchemaTexts().get(`${name}.schema.json`)!;
const validators = new Map(
  CONTENT_SCHEMAS.map((entry) => [entry.name, ajv.compile(JSON.parse(schemaText(entry.name)))]),
);

/** A glob of CONTENT_SCHEMAS (`content/pages/*.yaml`) as a test of a path relative to the project. */
const globMatches = (glob: string, file: string) =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(file);
const schemaOf = (file: string) => CONTENT_SCHEMAS.find((entry) => entry.globs.some((glob) => globMatches(glob, file)));

/** A YAML file's data, or a Markdown file's front matter. */
function dataOf(file: string, text: string): unknown {
  if (!file.endsWith('.md')) return parse(text);
  const matter = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!matter) throw new Error(`${file} has no front matter`);
  return parse(matter[1]!);
}

function validate(file: string, text: string) {
  const entry = schemaOf(file);
  if (!entry) throw new Error(`no schema maps ${file}`);
  const check = validators.get(entry.name)!;
  const valid = check(dataOf(file, text));
  return { valid, errors: check.errors ?? [] };
}

function contentFiles(dir = path.join(repoRoot, 'content')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return contentFiles(full);
    return /\.(ya?ml|md)$/.test(entry.name) ? [path.relative(repoRoot, full).split(path.sep).join('/')] : [];
  });
}

describe('every content file validates against its JSON Schema', () => {
  const files = contentFiles();

  it('finds the content files, and a schema for each', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(schemaOf(file), file).toBeDefined();
  });

  for (const file of files) {
    it(file, () => {
      const { valid, errors } = validate(file, readFileSync(path.join(repoRoot, file), 'utf8'));
      expect(errors).toEqual([]);
      expect(valid).toBe(true);
    });
  }

  it('accepts a {{token}} where a pattern stands (tokens are replaced before the build validates)', () => {
    const text = readFileSync(path.join(repoRoot, 'content/services/buy-youtube-subscribers.yaml'), 'utf8');
    expect(text).toContain('href: "{{checkoutUrl}}"');
    expect(validate('content/services/x.yaml', text).valid).toBe(true);
  });
});

/**
 * A case of test/content/bad-content.test.ts, named as there, whose broken file a schema
 * refuses. The snippets are copied from that suite: `from` must be in today's content file, and
 * `to` is what the case writes instead (or `write` is the whole file it writes).
 */
interface SchemaCase {
  name: string;
  file: string;
  from?: string | RegExp;
  to?: string;
  write?: string;
  /** Where in the data the schema must find a problem (Ajv's instancePath). */
  at: string[];
}

const refusedBySchema: SchemaCase[] = [
  {
    name: "a price typed into the catalogue with its currency sign: the schema's problem only",
    file: 'content/catalogue.yaml',
    from: 'price: 1.89,',
    to: 'price: £1.89,',
    at: ['/platforms/0/sub/0/packages/0/price'],
  },
  {
    name: 'a misspelt field: the nearest known one, and not also a missing field',
    file: 'content/catalogue.yaml',
    from: 'price: 1.89,',
    to: 'pirce: 1.89,',
    at: ['/platforms/0/sub/0/packages/0'],
  },
  {
    name: 'a misspelt field of one kind of section (a discriminated union)',
    file: 'content/pages/home.yaml',
    from: '    defaultSubCategory: 10',
    to: '    defaultSubcategory: 10',
    at: ['/sections/0'],
  },
  {
    name: 'an unknown field with nothing near it: the fields known there',
    file: 'content/services/buy-instagram-likes.yaml',
    from: 'hero:\n',
    to: 'hero:\n  ratingLine: { stars: 5 }\n',
    at: ['/hero'],
  },
  {
    name: 'an unknown section kind',
    file: 'content/pages/home.yaml',
    from: '  - kind: cards',
    to: '  - kind: cardz',
    at: ['/sections/1/kind'],
  },
  {
    name: 'an unknown value of a list of values',
    file: 'content/site.yaml',
    from: 'icon: email',
    to: 'icon: emial',
    at: ['/contactChannels/1/icon'],
  },
  {
    name: 'missing required field',
    file: 'content/services/buy-instagram-likes.yaml',
    from: /^title: .*\n/m,
    to: '',
    at: [''],
  },
  {
    name: 'price with three decimals',
    file: 'content/catalogue.yaml',
    from: 'price: 1.89,',
    to: 'price: 1.899,',
    at: ['/platforms/0/sub/0/packages/0/price'],
  },
  {
    name: 'price that is not positive',
    file: 'content/catalogue.yaml',
    from: 'price: 5.49,',
    to: 'price: -5.49,',
    at: ['/platforms/0/sub/0/packages/2/price'],
  },
  {
    name: 'absurd price',
    file: 'content/catalogue.yaml',
    from: 'price: 1.89,',
    to: 'price: 1e21,',
    at: ['/platforms/0/sub/0/packages/0/price'],
  },
  {
    name: 'two most popular packages in one grid',
    file: 'content/catalogue.yaml',
    from: 'slug: 500-ig-followers }\n          - { id: 1004, quantity: 1000, price: 10, slug: 1000-ig-followers }',
    to:
      'slug: 500-ig-followers, popular: { from: 2026-08-01, to: 2026-10-31, orders: 300, ofOrders: 1030 } }\n' +
      '          - { id: 1004, quantity: 1000, price: 10, slug: 1000-ig-followers, popular: { from: 2026-08-01, ' +
      'to: 2026-10-31, orders: 412, ofOrders: 1030 } }',
    at: ['/platforms/0/sub/0/packages'],
  },
  {
    name: 'a package marked popular without its source (popular: true)',
    file: 'content/catalogue.yaml',
    from: 'slug: 1000-ig-followers }',
    to: 'slug: 1000-ig-followers, popular: true }',
    at: ['/platforms/0/sub/0/packages/3/popular'],
  },
  {
    name: 'blog slug that is not one path segment',
    file: 'content/blog/tiktok-growth-routine.md',
    from: 'slug: tiktok-growth-routine',
    to: 'slug: ../tiktok',
    at: ['/slug'],
  },
  {
    name: 'post slug that takes the place of the feed',
    file: 'content/blog/tiktok-growth-routine.md',
    from: 'slug: tiktok-growth-routine',
    to: 'slug: feed.xml',
    at: ['/slug'],
  },
  {
    name: 'post slug that hosts would not serve (_)',
    file: 'content/blog/tiktok-growth-routine.md',
    from: 'slug: tiktok-growth-routine',
    to: 'slug: _notes',
    at: ['/slug'],
  },
  {
    name: 'price typed into copy',
    file: 'content/services/buy-instagram-likes.yaml',
    from: '**Buy Now** takes you to our secure checkout.',
    to: 'Packages from £1.49.',
    at: ['/packagesNote'],
  },
  {
    name: 'paid upgrade offered without its price',
    file: 'content/services/buy-youtube-likes.yaml',
    from: 'Your video must\n  be public while we deliver.',
    to: 'A Premium tier is available at checkout for an upgrade fee.',
    at: ['/packagesNote'],
  },
  {
    name: 'section id taken by the page layout',
    file: 'content/services/buy-instagram-likes.yaml',
    from: 'id: how-it-works',
    to: 'id: faq',
    at: ['/sections/1/id'],
  },
  {
    name: "section id whose heading's id is taken by the page layout (newsletter-heading, the footer's)",
    file: 'content/services/buy-instagram-likes.yaml',
    from: 'id: how-it-works',
    to: 'id: newsletter',
    at: ['/sections/1/id'],
  },
  {
    name: 'link with a javascript: scheme',
    file: 'content/services/buy-youtube-subscribers.yaml',
    from: 'href: "{{checkoutUrl}}"',
    to: 'href: "JavaScript:alert(1)"',
    at: ['/sections/1/cta/href'],
  },
  {
    name: 'rating typed into a hero, without a source',
    file: 'content/services/buy-instagram-followers.yaml',
    from: 'hero:\n',
    to: 'hero:\n  ratingLine: { stars: 5, customers: 2K+ }\n',
    at: ['/hero'],
  },
  {
    name: 'redirect whose old address climbs out of the output folder',
    file: 'content/redirects.yaml',
    from: '- { from: /index, to: / }',
    to: '- { from: /index, to: / }\n- { from: /../../outside, to: /about }',
    at: ['/1/from'],
  },
  {
    name: 'redirect whose old address climbs out percent-encoded (%2e%2e)',
    file: 'content/redirects.yaml',
    from: '- { from: /index, to: / }',
    to:
      '- { from: /index, to: / }\n- { from: /%2e%2e/%2e%2e/outside/victim, to: /about }\n' +
      '- { from: /old%2Fpage, to: /about }\n- { from: /old%5cpage, to: /about }',
    at: ['/1/from', '/2/from', '/3/from'],
  },
  {
    name: 'date that is not in the calendar (30 February)',
    file: 'content/pages/privacy-policy.md',
    from: 'updated: 2026-11-27',
    to: 'updated: 2026-02-30',
    at: ['/updated'],
  },
  {
    name: 'date with month 13',
    file: 'content/blog/tiktok-growth-routine.md',
    from: /^date: .*$/m,
    to: 'date: 2025-13-01',
    at: ['/date'],
  },
  {
    name: 'reviews and a platform rating both given',
    file: 'content/reviews.yaml',
    write:
      'checked: Every review is from a customer whose order we delivered, matched to that order.\n' +
      'reviews:\n  - { subCategory: 10, author: Sam K., date: 2026-10-01, rating: 5, text: Quick. }\n' +
      'platform: { name: Trustpilot, url: "https://uk.trustpilot.com/review/x", rating: 4.5, count: 10, ' +
      'readOn: 2026-11-01 }\n',
    at: [''],
  },
];

/**
 * The cases of the bad-content suite that no JSON Schema of one file can state, and why: rules
 * across files, across fields or items of one file, and problems that are not of the data.
 */
const notSaidBySchema: Record<string, string> = {
  // Across files: the schema of one file cannot see another.
  'cross-sell to an unknown service': 'cross-file: the ids are those of catalogue.yaml',
  'page pointing to an unknown sub-category': 'cross-file: the ids are those of catalogue.yaml',
  'cross-sell to a sub-category without a page': 'cross-file: which sub-categories have a service page',
  'two routes with the same path': 'cross-file: paths of all pages, services, posts and redirects',
  'internal link to a path that is not a route': 'cross-file: the routes of the whole site (a link inside Markdown)',
  'a link to a part of another page that it does not have, on every service page':
    'cross-file: the ids of the rendered pages',
  "a link to a part of its own page that it does not have, in a text page's body": 'the ids of the rendered page',
  "broken path deep in a page's sections": 'cross-file: the routes of the whole site',
  'absolute link to a misspelt page of the site itself': 'cross-file: the routes, and the siteUrl setting',
  'redirect to a page that does not exist': 'cross-file: the routes of the whole site',
  'redirect whose old address differs from a page only by case': 'cross-file: the paths of the pages',
  'post slugs that differ only by case': 'cross-file: the slugs of the other posts',
  'unknown token': 'cross-file: token names are the claims of site.yaml and the settings',
  'support tile that names another size than the largest package':
    'cross-file: the largest package is in catalogue.yaml',
  'review of a service the site does not show': 'cross-file: which sub-categories have a service page',
  // Across fields or items of one file: JSON Schema compares no two values.
  'duplicate product id': 'across items: ids unique over the whole catalogue (uniqueItems compares whole items only)',
  'old path redirected twice':
    'across items: `from` unique among the redirects (uniqueItems compares whole items only)',
  'checkout slug naming another quantity': 'across fields: the slug against the quantity',
  'a most popular package with more orders than its whole sub-category': 'across fields: orders against ofOrders',
  // Not of the file alone: the day of the build.
  'a most popular package counted over a period not yet ended': "the build's day: `to` must not be after it",
  'a text page first published after its last update': 'across fields: published against updated',
  'claim that holds a token itself, and braces that are no token':
    'across fields: a claim may hold a token until a text uses it; and which braces are left depends on how ' +
    'tokens are replaced',
  // Not of the data a schema sees.
  'malformed YAML': 'not YAML: nothing to validate',
  'malformed front matter': 'not YAML: nothing to validate',
  'a YAML syntax error: its line and column, and the lines around it with a caret': 'not YAML: nothing to validate',
  "a syntax error in a front matter: the file's own line, not one below": 'not YAML: nothing to validate',
  'YAML alias bomb': "the YAML parser's limit on aliases",
  'YAML alias bomb in a post front matter': "the YAML parser's limit on aliases",
  'content file over 1 MB': "the file's size",
  'post over 1 MB': "the file's size",
  'relative internal link': "inside Markdown: the build reads the Markdown's links",
  'a text-page block on a condition that does not exist': "a text page's Markdown body",
  'a text-page block never closed': "a text page's Markdown body",
  'an image from another site on a page (the CSP would block it)': "a text page's Markdown body, and the settings",
  'SVG in content/images/ that is more than a picture (a script, an event handler, a file from elsewhere)':
    'an image, not a content data file',
};

/** The names of the cases of the bad-content suite, read from its source. */
function badContentCaseNames(): string[] {
  const source = readFileSync(path.join(repoRoot, 'test/content/bad-content.test.ts'), 'utf8');
  return [...source.matchAll(/^ {4}name: (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"),?$/gm)].map((match) =>
    (match[1] ?? match[2]!).replace(/\\(.)/g, '$1'),
  );
}

function broken(testCase: SchemaCase): string {
  if (testCase.write !== undefined) return testCase.write;
  const text = readFileSync(path.join(repoRoot, testCase.file), 'utf8');
  const found = typeof testCase.from === 'string' ? text.includes(testCase.from) : testCase.from!.test(text);
  if (!found)
    throw new Error(
      `${testCase.file} no longer holds ${String(testCase.from)}: update the snippet from bad-content.test.ts`,
    );
  return text.replace(testCase.from!, testCase.to!);
}

describe('the bad-content cases a schema can state are refused by the schema', () => {
  it('every case of the bad-content suite is either refused here or listed as one a schema cannot state', () => {
    const names = badContentCaseNames();
    expect(names.length).toBeGreaterThan(40);
    const classified = [...refusedBySchema.map((testCase) => testCase.name), ...Object.keys(notSaidBySchema)];
    expect(new Set(classified).size).toBe(classified.length);
    expect(
      names.filter((name) => !classified.includes(name)),
      'cases of bad-content.test.ts not classified here',
    ).toEqual([]);
    expect(
      classified.filter((name) => !names.includes(name)),
      'cases named here but not in bad-content.test.ts',
    ).toEqual([]);
  });

  for (const testCase of refusedBySchema) {
    it(testCase.name, () => {
      const { valid, errors } = validate(testCase.file, broken(testCase));
      expect(valid).toBe(false);
      const places = new Set(errors.map((error) => error.instancePath));
      for (const at of testCase.at) expect([...places], `a problem at ${at || 'the top'}`).toContain(at);
    });
  }
});

describe('the schema files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'storefront-schemas-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('are written when missing or changed, and left alone otherwise', async () => {
    const first = writeJsonSchemas(dir, true);
    expect(first.map((file) => path.basename(file)).sort()).toEqual(
      CONTENT_SCHEMAS.map((entry) => `${entry.name}.schema.json`).sort(),
    );
    const service = path.join(dir, SCHEMA_DIR, 'service.schema.json');
    expect(JSON.parse(readFileSync(service, 'utf8')).additionalProperties).toBe(false);
    expect(writeJsonSchemas(dir, true)).toEqual([]);
    await writeFile(service, '{}');
    await utimes(service, new Date(0), new Date(0));
    expect(writeJsonSchemas(dir, true)).toEqual([service]);
    expect(readFileSync(service, 'utf8')).toBe(schemaText('service'));
  });

  it('are what .vscode/settings.json maps, with the same globs', () => {
    const settings = JSON.parse(readFileSync(path.join(repoRoot, '.vscode/settings.json'), 'utf8')) as {
      'yaml.schemas': Record<string, string | string[]>;
    };
    const mapped = Object.entries(settings['yaml.schemas']).map(([schema, globs]) => [schema, [globs].flat()]);
    const expected = CONTENT_SCHEMAS.filter((entry) => !entry.frontMatter).map((entry) => [
      `./${SCHEMA_DIR}/${entry.name}.schema.json`,
      entry.globs,
    ]);
    expect(mapped).toEqual(expected);
    const extensions = JSON.parse(readFileSync(path.join(repoRoot, '.vscode/extensions.json'), 'utf8')) as {
      recommendations: string[];
    };
    expect(extensions.recommendations).toContain('redhat.vscode-yaml');
  });

  it('.gitignore leaves them out of the repository', () => {
    expect(readFileSync(path.join(repoRoot, '.gitignore'), 'utf8')).toMatch(/^\/\.storefront\/$/m);
  });

  it('carry descriptions and examples for the fields an editor types most', () => {
    const catalogue = JSON.parse(schemaText('catalogue'));
    const pkg = catalogue.properties.platforms.items.properties.sub.items.properties.packages.items.properties;
    expect(pkg.price).toMatchObject({
      description: expect.stringContaining('pounds'),
      examples: [1.89, 10],
      exclusiveMinimum: 0,
    });
    expect(pkg.slug.description).toContain('checkout');
    // "Most popular" only with its source: an object whose four fields are all required.
    expect(pkg.popular).toMatchObject({
      type: 'object',
      required: ['from', 'to', 'orders', 'ofOrders'],
      additionalProperties: false,
    });
    expect(pkg.popular.description).toContain('ofOrders');
    expect(pkg.popular.properties.to.examples).toContain('2026-03-14');
    const service = JSON.parse(schemaText('service'));
    expect(service.properties.path.examples).toContain('/about');
    expect(service.properties.subCategory.description).toContain('sub-category');
    expect(JSON.parse(schemaText('trader')).properties.phone.examples).toEqual(['+44 20 7946 0000']);
    expect(JSON.parse(schemaText('text-page')).properties.updated.examples).toContain('2026-03-14');
  });
});

/** JSON-RPC from the language server: untyped JSON, which the tests read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: the server's JSON has no type to give it
type Json = any;

/** A minimal LSP client over a child process's stdio: Content-Length framed JSON-RPC. */
class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  readonly notifications: { method: string; params: Json }[] = [];
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly child: ChildProcess,
    private readonly answer: (method: string, params: Json) => unknown,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const headerEnd = this.buffer.indexOf('\r\n\r\n');
        if (headerEnd === -1) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
        if (this.buffer.length < headerEnd + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
        this.buffer = this.buffer.subarray(headerEnd + 4 + length);
        this.receive(message);
      }
    });
  }

  private receive(message: Json): void {
    if (message.method && message.id !== undefined) {
      // A request of the server's (workspace/configuration, client/registerCapability...).
      this.send({ jsonrpc: '2.0', id: message.id, result: this.answer(message.method, message.params) ?? null });
    } else if (message.method) {
      this.notifications.push(message);
      for (const listener of this.listeners) listener();
    } else if (message.id !== undefined) {
      this.pending.get(message.id)?.(message.result ?? message.error);
      this.pending.delete(message.id);
    }
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin!.write(body);
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The first notification that `accept` takes, waited for up to `ms`. */
  waitFor(
    accept: (notification: { method: string; params: Json }) => boolean,
    ms: number,
  ): Promise<{ method: string; params: Json }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no such notification in ${ms} ms; got: ${JSON.stringify(this.notifications).slice(0, 2000)}`),
          ),
        ms,
      );
      const look = () => {
        const found = this.notifications.find(accept);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      };
      this.listeners.push(look);
      look();
    });
  }
}

describe("the YAML language server (VS Code's YAML extension) reports a schema error while typing", () => {
  let server: ChildProcess | undefined;
  let client: LspClient;
  let schemaDir: string;
  let stderr = '';

  beforeAll(async () => {
    // The schemas as a build writes them, in a folder of their own (the repository's may be
    // rewritten by a compile meanwhile), mapped with the globs of .vscode/settings.json.
    schemaDir = await mkdtemp(path.join(tmpdir(), 'storefront-lsp-'));
    writeJsonSchemas(schemaDir, true);
    const settings = JSON.parse(readFileSync(path.join(repoRoot, '.vscode/settings.json'), 'utf8')) as {
      'yaml.schemas': Record<string, string>;
    };
    const schemas = Object.fromEntries(
      Object.entries(settings['yaml.schemas']).map(([schema, globs]) => [
        pathToFileURL(path.join(schemaDir, schema)).href,
        globs,
      ]),
    );
    const yamlSettings = {
      schemas,
      validate: true,
      hover: true,
      completion: true,
      schemaStore: { enable: false },
      format: { enable: false },
    };

    server = spawn(
      process.execPath,
      [path.join(repoRoot, 'node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio'],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    server.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new LspClient(server, (method, params) => {
      if (method === 'workspace/configuration') {
        return (params.items as { section?: string }[]).map((item) =>
          item.section === 'yaml' ? yamlSettings : item.section?.startsWith('yaml.') ? null : { yaml: yamlSettings },
        );
      }
      return null;
    });
    const rootUri = pathToFileURL(repoRoot).href;
    await client.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'storefront' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: {} },
      },
    });
    client.notify('initialized', {});
    client.notify('workspace/didChangeConfiguration', { settings: { yaml: yamlSettings } });
  }, 30_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await rm(schemaDir, { recursive: true, force: true });
  });

  async function diagnostics(
    file: string,
    text: string,
  ): Promise<{ message: string; range: { start: { line: number } } }[]> {
    const uri = pathToFileURL(path.join(repoRoot, file)).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const published = await client
      .waitFor(
        (notification) =>
          notification.method === 'textDocument/publishDiagnostics' &&
          notification.params.uri === uri &&
          notification.params.diagnostics.length > 0,
        20_000,
      )
      .catch((error: Error) => {
        throw new Error(`${error.message}\nserver stderr: ${stderr.slice(0, 2000)}`);
      });
    return published.params.diagnostics;
  }

  it('names the misspelt field of a service page (pirce:, headng:)', async () => {
    const text = readFileSync(path.join(repoRoot, 'content/services/buy-tiktok-likes.yaml'), 'utf8')
      .replace(/^breadcrumb: /m, 'pirce: 3\nbreadcrumb: ')
      .replace(/^hero:\n {2}heading: /m, 'hero:\n  headng: ');
    // A file that is not on disk: the server validates what the editor holds.
    const found = await diagnostics('content/services/zz-json-schema-test.yaml', text);
    const messages = found.map((diagnostic) => diagnostic.message);
    expect(
      messages.some((message) => message.includes('pirce')),
      messages.join('\n'),
    ).toBe(true);
    expect(
      messages.some((message) => message.includes('headng')),
      messages.join('\n'),
    ).toBe(true);
    const line = text.split('\n').findIndex((row) => row.startsWith('pirce:'));
    expect(
      found.some((diagnostic) => diagnostic.message.includes('pirce') && diagnostic.range.start.line === line),
    ).toBe(true);
  }, 30_000);

  it('says what is wrong with a price, in the words of the schema', async () => {
    const text = readFileSync(path.join(repoRoot, 'content/catalogue.yaml'), 'utf8')
      .replace('price: 1.89,', 'price: 1.899,')
      .replace('price: 5.49,', 'price: -5.49,');
    const messages = (await diagnostics('content/catalogue.yaml', text)).map((diagnostic) => diagnostic.message);
    expect(messages.join('\n')).toMatch(/divisible by 0\.01/);
    expect(messages.join('\n')).toMatch(/exclusive minimum of 0/);
    // 1.89, 5.49 and the other prices of two decimals are no problem (multipleOf with decimals).
    expect(messages).toHaveLength(2);
  }, 30_000);

  it("gives the build's own words for a rule it states as a pattern (a typed price, a taken section id)", async () => {
    const text = readFileSync(path.join(repoRoot, 'content/services/buy-instagram-likes.yaml'), 'utf8')
      .replace('**Buy Now** takes you to our secure checkout.', 'Packages from £1.49.')
      .replace('id: how-it-works', 'id: faq');
    const messages = (await diagnostics('content/services/zz-json-schema-words.yaml', text))
      .map((diagnostic) => diagnostic.message)
      .join('\n');
    expect(messages).toContain('Prices live only in content/catalogue.yaml');
    expect(messages).toContain('This id is used by the page layout');
  }, 30_000);

  it('takes the schema from a first-line comment, for editors without the mapping', async () => {
    // A file no glob maps, beside the schema folder as content/ is in a project.
    const uri = pathToFileURL(path.join(schemaDir, 'drafts', 'new-service.yaml')).href;
    const text = `# yaml-language-server: $schema=../${SCHEMA_DIR}/service.schema.json\npath: /buy-x\npirce: 3\n`;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const published = await client.waitFor(
      (notification) =>
        notification.method === 'textDocument/publishDiagnostics' &&
        notification.params.uri === uri &&
        notification.params.diagnostics.length > 0,
      20_000,
    );
    const messages = (published.params.diagnostics as { message: string }[])
      .map((diagnostic) => diagnostic.message)
      .join('\n');
    expect(messages).toContain('Property pirce is not allowed');
  }, 30_000);

  it('is silent on a good file', async () => {
    // A copy of a real service page, named so that the services glob maps it.
    const uri = pathToFileURL(path.join(repoRoot, 'content/services/zz-good-copy.yaml')).href;
    const text = readFileSync(path.join(repoRoot, 'content/services/buy-youtube-subscribers.yaml'), 'utf8');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const published = await client.waitFor(
      (notification) => notification.method === 'textDocument/publishDiagnostics' && notification.params.uri === uri,
      20_000,
    );
    expect(published.params.diagnostics).toEqual([]);
  }, 30_000);
});
