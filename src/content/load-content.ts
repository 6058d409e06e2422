import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/load-config.js';
import { codes } from '../errors/codes.js';
import { listFileNames } from '../util/list-files.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import { checkContent } from './check-content.js';
import { loadLocalPosts, type PostsCacheOptions } from './load-posts.js';
import { renderMarkdown, type Markdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
import {
  catalogueSchema,
  pageSchema,
  redirectsSchema,
  servicePageSchema,
  siteSchema,
  textPageSchema,
  type Catalogue,
  type Page,
  type Redirect,
  type ServicePageContent,
  type Site,
  type TextPageFrontMatter,
} from './schemas.js';
import { readMarkdownFile, readYamlFile, type SourceFile } from './source-file.js';
import { expandTokens } from './tokens.js';

/** Every content file, validated. What the route table and the renderer are built from. */
export interface SiteContent {
  site: Site;
  catalogue: Catalogue;
  redirects: { file: string; list: Redirect[] };
  pages: { file: string; page: Page }[];
  textPages: { file: string; page: TextPageFrontMatter; body: Markdown }[];
  services: { file: string; page: ServicePageContent }[];
  posts: Post[];
  /** Non-fatal notes for the user (e.g. a contact channel left out). */
  warnings: string[];
  /** Line numbers of key paths, by file, for problems found after parsing. */
  lineOf: Record<string, SourceFile['lineOf']>;
}

export interface LoadContentOptions {
  /** The content folder; `content/` under the root by default. */
  contentDir?: string;
  /** Folder of local blog posts; `content/blog` by default. */
  postsDir?: string;
  /** False when the blog comes from the CMS instead. */
  localPosts?: boolean;
  /** Keep parsed posts between builds (see cache/post-cache.ts). */
  postsCache?: PostsCacheOptions;
}

async function listFiles(dir: string, extension: string): Promise<string[]> {
  return (await listFileNames(dir, extension)).map((name) => path.join(dir, name));
}

/** The claims and settings that `{{tokens}}` may name. */
function tokenFacts(config: Config, site: SourceFile | undefined): Record<string, string> {
  const claims = (site?.data as { claims?: Record<string, unknown> } | undefined)?.claims ?? {};
  const facts: Record<string, string> = {};
  for (const [key, value] of Object.entries(claims)) facts[key] = String(value);
  facts.brandName = config.brandName;
  facts.supportEmail = config.supportEmail;
  facts.messagingNumber = config.messagingNumber;
  facts.checkoutUrl = config.checkoutUrl;
  return facts;
}

/**
 * Reads and validates all content, collecting every problem before failing once. Nothing is
 * rendered or written until this returns.
 */
export async function loadContent(
  root: string,
  config: Config,
  options: LoadContentOptions = {},
  /** Where problems go; when given, the caller throws them (after its own checks). */
  collected?: ProblemList,
): Promise<SiteContent> {
  const contentDir = options.contentDir ?? path.join(root, 'content');
  const problems = collected ?? new ProblemList();
  const required = async (name: string) => {
    const absolute = path.join(contentDir, name);
    if (!existsSync(absolute)) {
      problems.add({
        code: codes.missingFile,
        file: path.relative(root, absolute),
        message: 'This required content file does not exist.',
        hint: 'Restore it from the repository (git checkout -- content/).',
      });
      return undefined;
    }
    return readYamlFile(root, absolute, problems);
  };

  const siteSource = await required('site.yaml');
  const facts = tokenFacts(config, siteSource);
  // When site.yaml itself cannot be read its claims are unknown: every token would look
  // unknown, so token problems are not reported until site.yaml is fixed.
  const tokenProblems = siteSource ? problems : new ProblemList();
  const validate = <T>(
    source: SourceFile | undefined,
    schema: Parameters<typeof parseWithSchema>[0],
    hint: string,
  ): T | undefined => {
    if (!source) return undefined;
    expandTokens(source, facts, tokenProblems);
    return parseWithSchema(schema, source, problems, hint) as T | undefined;
  };

  const site = validate<Site>(siteSource, siteSchema, 'See docs/content-model.md for the fields of site.yaml.');
  const catalogueSource = await required('catalogue.yaml');
  const catalogue = validate<Catalogue>(
    catalogueSource,
    catalogueSchema,
    'See docs/content-model.md for the fields of the catalogue.',
  );
  const redirectsSource = await required('redirects.yaml');
  const redirects = validate<Redirect[]>(
    redirectsSource,
    redirectsSchema,
    'Each redirect is { from: /old-path, to: /page }.',
  );

  const pages: SiteContent['pages'] = [];
  for (const absolute of await listFiles(path.join(contentDir, 'pages'), '.yaml')) {
    const source = await readYamlFile(root, absolute, problems);
    const page = validate<Page>(source, pageSchema, 'See docs/content-model.md, "Home, about, contact".');
    if (source && page) pages.push({ file: source.file, page });
  }

  const textPages: SiteContent['textPages'] = [];
  for (const absolute of await listFiles(path.join(contentDir, 'pages'), '.md')) {
    const source = await readMarkdownFile(root, absolute, problems);
    const page = validate<TextPageFrontMatter>(source, textPageSchema, 'See docs/content-model.md, "Text pages".');
    if (source && page) textPages.push({ file: source.file, page, body: renderMarkdown(source.body ?? '') });
  }

  const services: SiteContent['services'] = [];
  for (const absolute of await listFiles(path.join(contentDir, 'services'), '.yaml')) {
    const source = await readYamlFile(root, absolute, problems);
    const page = validate<ServicePageContent>(
      source,
      servicePageSchema,
      'See docs/content-model.md, "A service page".',
    );
    if (source && page) services.push({ file: source.file, page });
  }

  const postsDir = options.postsDir ?? path.join(contentDir, 'blog');
  const posts = options.localPosts === false ? [] : await loadLocalPosts(root, postsDir, facts, tokenProblems, options.postsCache);

  // Without these three nothing else can be checked; with them, the cross-file checks run on
  // every file that did parse, so one run reports as much as it can.
  if (!site || !catalogue || !redirects) problems.throwIfAny(NOTHING_WRITTEN);
  const content: SiteContent = {
    site: site!,
    catalogue: catalogue!,
    redirects: { file: redirectsSource!.file, list: redirects! },
    pages,
    textPages,
    services,
    posts,
    warnings: [],
    lineOf: { [catalogueSource!.file]: catalogueSource!.lineOf },
  };
  checkContent(content, problems);
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
  return content;
}
