import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/load-config.js';
import { problem } from '../errors/catalogue.js';
import { ProblemList } from '../errors/storefront-error.js';
import { resolveInside } from '../util/inside-project.js';
import { listFileNames } from '../util/list-files.js';
import { readBounded } from '../util/read-bounded.js';
import type { SiteContent } from './site-content.js';
import { checkMarkdown, keepConditionalBlocks, renderMarkdown, type Conditions } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import {
  catalogueSchema,
  pageSchema,
  redirectsSchema,
  servicePageSchema,
  siteSchema,
  textPageSchema,
  traderSchema,
  reviewsSchema,
  type Catalogue,
  type Page,
  type Redirect,
  type ServicePageContent,
  type Site,
  type TextPageFrontMatter,
  type Trader,
  type Reviews,
} from './schemas.js';
import { readMarkdownFile, readYamlFile, YAML_FILE, type SourceFile, type YamlMemo } from '../util/source-file.js';
import { describeFacts, expandTokens, type FactSource } from './tokens.js';
import { traderAddress, traderIdentity } from './trader.js';

/**
 * The site's own content files, everything but the blog, validated. A file that could not be
 * read or validated is missing here, and its problems are in the list.
 */
export interface SiteFiles {
  /** The claims and settings that `{{tokens}}` may name (posts use them too). */
  facts: Record<string, string>;
  /**
   * False when site.yaml or trader.yaml could not be read: their facts are unknown, so token problems
   * are not reported.
   */
  siteRead: boolean;
  site?: Site;
  trader?: Trader;
  catalogue?: Catalogue;
  reviews?: Reviews;
  redirects?: SiteContent['redirects'];
  pages: SiteContent['pages'];
  textPages: SiteContent['textPages'];
  services: SiteContent['services'];
  lineOf: SiteContent['lineOf'];
  unreadable: SiteContent['unreadable'];
}

/**
 * What a page file states of its path and sub-category (`path: /about`, `subCategory: 10`),
 * read from its text with patterns: for a file that could not be read or validated, whose own
 * problem is listed already.
 */
function stated(root: string, absolute: string, unreadable: SiteContent['unreadable']): void {
  // A link out of the project, refused already: its target is not read, not even for this.
  const resolved = resolveInside(absolute, root);
  if (!resolved.inside) return;
  // Not a regular file, or too large: refused already, and not read for this either.
  const text = readBounded(resolved.real, absolute, YAML_FILE, new ProblemList())?.toString('utf8');
  if (text === undefined) return;
  const path = /^path:[ \t]*["']?(\/[^"'\s#]*)/m.exec(text)?.[1];
  const subCategory = /^subCategory:[ \t]*(\d+)[ \t]*$/m.exec(text)?.[1];
  if (path) unreadable.paths.push(path);
  if (subCategory) unreadable.subCategories.push(Number(subCategory));
}

/** The claims, settings and the trader's identity that `{{tokens}}` may name. */
function tokenFacts(config: Config, site: SourceFile | undefined, trader: Trader | undefined): Record<string, string> {
  const claims = (site?.data as { claims?: Record<string, unknown> } | undefined)?.claims ?? {};
  const facts: Record<string, string> = {};
  const sources: Record<string, FactSource> = {};
  for (const [key, value] of Object.entries(claims)) {
    facts[key] = String(value);
    sources[key] = { where: 'content/site.yaml (claims)', checked: true };
  }
  const settings = { where: 'the settings (content/config.yaml or the environment)', checked: false };
  facts.brandName = config.brandName;
  facts.supportEmail = config.supportEmail;
  facts.messagingNumber = config.messagingNumber;
  facts.checkoutUrl = config.checkoutUrl;
  for (const name of ['brandName', 'supportEmail', 'messagingNumber', 'checkoutUrl']) sources[name] = settings;
  if (trader) {
    facts.legalName = trader.legalName;
    facts.traderAddress = traderAddress(trader);
    facts.traderPhone = trader.phone;
    facts.traderIdentity = traderIdentity(trader);
    for (const name of ['legalName', 'traderAddress', 'traderPhone', 'traderIdentity'])
      sources[name] = { where: 'content/trader.yaml', checked: false };
  }
  describeFacts(facts, sources);
  return facts;
}

/**
 * A text page's body: its `<!-- if name -->` blocks kept or left out by `conditions`, rendered.
 * Every block is checked, shown in this build or not: for disguised text (as a visitor reads it,
 * references decoded, markers and all, so that the line is the file's) and for its links.
 */
function textPageBody(source: SourceFile, conditions: Conditions, problems: ProblemList) {
  const body = source.body ?? '';
  const fileLine = (line: number) => (source.bodyLine === undefined ? undefined : source.bodyLine + line - 1);
  const kept = keepConditionalBlocks(body, conditions, (line) => ({ file: source.file, line: fileLine(line) }));
  for (const found of kept.problems) problems.add(found);
  const disguise = checkMarkdown(body);
  if (disguise) {
    problems.add(
      problem('bodyDisguise', disguise, { file: source.file, field: 'body', line: fileLine(disguise.line) }),
    );
  }
  const everyBlock = keepConditionalBlocks(
    body,
    Object.fromEntries(Object.keys(conditions).map((name) => [name, true])),
  );
  return { ...renderMarkdown(kept.body), links: renderMarkdown(everyBlock.body).links };
}

/** Reads and validates the site's own files in `contentDir`; the problems go to `problems`. */
export async function readSiteFiles(
  root: string,
  config: Config,
  contentDir: string,
  problems: ProblemList,
  memo?: YamlMemo,
): Promise<SiteFiles> {
  const list = async (dir: string, extension: string) =>
    (await listFileNames(path.join(contentDir, dir), extension)).map((name) => path.join(contentDir, dir, name));
  const [sitePath, traderPath, cataloguePath, redirectsPath] = [
    'site.yaml',
    'trader.yaml',
    'catalogue.yaml',
    'redirects.yaml',
  ].map((name) => path.join(contentDir, name)) as [string, string, string, string];
  const required = async (absolute: string) => {
    if (!existsSync(absolute)) {
      const file = path.relative(root, absolute);
      problems.add(problem('contentFileMissing', { file: file.split(path.sep).join('/') }, { file }));
      return undefined;
    }
    return readYamlFile(root, absolute, problems, memo);
  };

  const siteSource = await required(sitePath);
  const traderSource = await required(traderPath);
  // The trader's identity is facts only: it has no tokens of its own.
  const trader =
    traderSource &&
    (parseWithSchema(traderSchema, traderSource, problems, 'See the comments in content/trader.yaml.') as
      | Trader
      | undefined);
  const facts = tokenFacts(config, siteSource, trader);
  // When site.yaml or trader.yaml cannot be read their facts are unknown: every token would look
  // unknown, so token problems are not reported until they are fixed.
  const tokenProblems = siteSource && trader ? problems : new ProblemList();
  const validate = <T>(
    source: SourceFile | undefined,
    schema: Parameters<typeof parseWithSchema>[0],
    reference: string,
    isCopy?: Parameters<typeof expandTokens>[3],
  ): T | undefined => {
    if (!source) return undefined;
    expandTokens(source, facts, tokenProblems, isCopy);
    return parseWithSchema(schema, source, problems, reference) as T | undefined;
  };

  const site = validate<Site>(siteSource, siteSchema, 'See docs/content-model.md for the fields of site.yaml.');
  const catalogueSource = await required(cataloguePath);
  const catalogue = validate<Catalogue>(
    catalogueSource,
    catalogueSchema,
    'See docs/content-model.md for the fields of the catalogue.',
    // Its prices are no copy: `price: £3` is its schema's problem (SF103), not a typed price (SF105).
    (at) => at.at(-1) !== 'price',
  );
  // Optional: without it the site shows no rating.
  const reviewsPath = path.join(contentDir, 'reviews.yaml');
  const reviews = existsSync(reviewsPath)
    ? validate<Reviews>(
        await readYamlFile(root, reviewsPath, problems, memo),
        reviewsSchema,
        'See docs/content-model.md, "Ratings and reviews": either reviews: [...] or platform: {...}.',
      )
    : undefined;
  const redirectsSource = await required(redirectsPath);
  const redirects = validate<Redirect[]>(
    redirectsSource,
    redirectsSchema,
    'Each redirect is { from: /old-path, to: /page }.',
  );

  const unreadable: SiteContent['unreadable'] = { paths: [], subCategories: [] };
  const pages: SiteContent['pages'] = [];
  for (const absolute of await list('pages', '.yaml')) {
    const source = await readYamlFile(root, absolute, problems, memo);
    const page = validate<Page>(source, pageSchema, 'See docs/content-model.md, "Home, about, contact".');
    if (source && page) pages.push({ file: source.file, page });
    else stated(root, absolute, unreadable);
  }

  const textPages: SiteContent['textPages'] = [];
  // What a text page's `<!-- if name -->` blocks may depend on (docs/content-model.md, "Text pages").
  const conditions: Conditions = { newsletter: Boolean(config.newsletterUrl) };
  for (const absolute of await list('pages', '.md')) {
    const source = await readMarkdownFile(root, absolute, problems);
    const page = validate<TextPageFrontMatter>(source, textPageSchema, 'See docs/content-model.md, "Text pages".');
    if (source && page) textPages.push({ file: source.file, page, body: textPageBody(source, conditions, problems) });
    else stated(root, absolute, unreadable);
  }

  const services: SiteContent['services'] = [];
  for (const absolute of await list('services', '.yaml')) {
    const source = await readYamlFile(root, absolute, problems, memo);
    const page = validate<ServicePageContent>(
      source,
      servicePageSchema,
      'See docs/content-model.md, "A service page".',
    );
    if (source && page) services.push({ file: source.file, page });
    else stated(root, absolute, unreadable);
  }

  return {
    facts,
    siteRead: siteSource !== undefined && trader !== undefined,
    site,
    trader,
    catalogue,
    reviews,
    redirects: redirectsSource && redirects && { file: redirectsSource.file, list: redirects },
    pages,
    textPages,
    services,
    lineOf: catalogueSource ? { [catalogueSource.file]: catalogueSource.lineOf } : {},
    unreadable,
  };
}
