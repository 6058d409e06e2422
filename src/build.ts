import { statSync } from 'node:fs';
import path from 'node:path';
import type { CmsMode } from './cms/load-cms-posts.js';
import { buildService, hostLimits, resolveTarget, type Target } from './config/deploy-target.js';
import { CONFIG_FILE, imageOrigins, loadConfig, siteRoot, type Config } from './config/load-config.js';
import { loadContent, type ContentMemo, type SiteContent } from './content/load-content.js';
import { writeJsonSchemas } from './content/json-schemas.js';
import { checkPlaceholders, isReservedHost } from './content/placeholders.js';
import { publishedPosts } from './content/publishing.js';
import { defaultCmsOptions } from './cms/retry.js';
import { codes } from './errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList, StorefrontError } from './errors/storefront-error.js';
import { contentImages, scriptAsset, staticAssets, stylesheetAsset } from './output/assets.js';
import { atomFeed } from './output/feed.js';
import { hostFiles } from './output/host-files.js';
import { securityHeaders } from './output/http-headers.js';
import { robotsTxt, sitemapXml } from './output/sitemap.js';
import { checkOutputFolder, SiteWriter, type OutputFile } from './output/write-output.js';
import { packageRoot } from './package-root.js';
import { renderOptions, renderRoutes, type PageMemo } from './render/render-routes.js';
import { checkContentLinks } from './routes/check-links.js';
import {
  absoluteUrl,
  buildRouteTable,
  outputFile,
  postPath,
  type RouteKind,
  type RouteTable,
} from './routes/route-table.js';
import { OWN_FOLDERS, refuseForeignOwnFolders } from './util/inside-project.js';

/** The feed carries the newest posts only, as feed readers expect. */
export const FEED_SIZE = 20;

/** `render` counts pages rendered and written (the two are interleaved). */
export type ProgressStage = 'fetch' | 'render';

export interface BuildOptions {
  /** The project root: where content/ and templates/ are. */
  root: string;
  /** Output folder, absolute or relative to the root. */
  outDir: string;
  /** Local blog posts folder (default content/blog). */
  postsDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  now?: Date;
  /** Warnings and notes while the build runs (not the summary). */
  log?: (line: string) => void;
  /** Long work as it goes: CMS pages fetched, pages rendered and written, each of a known total. */
  progress?: (stage: ProgressStage, done: number, total: number) => void;
  /** The folder of the origin the site is served from (`/shop/`); overrides BASE_PATH and the config file. */
  basePath?: string;
  /** WordPress REST API root; overrides CMS_API_URL and the config file. */
  cmsApiUrl?: string;
  /** The host the build is for; overrides DEPLOY_TARGET and the config file. */
  target?: Target;
  /** How the CMS is used: fetch, the cache only, or fetch with the cache as fallback. */
  cmsMode?: CmsMode;
  cmsTimeoutMs?: number;
  cmsRetries?: number;
  /** Write .br and .gz beside every text file, for the nginx and static targets (the other hosts compress by themselves). */
  precompress?: boolean;
  /** Show drafts and posts dated after the build, marked and noindex (`build --drafts`, `dev`). */
  drafts?: boolean;
  /** Let example values through for a real site address (a staging build); see checkPlaceholders. */
  allowPlaceholders?: boolean;
  /** Kept between the builds of one `storefront dev` process (see BuildMemo). */
  memo?: BuildMemo;
}

export interface BuildSummary {
  pages: number;
  pagesByKind: Record<RouteKind, number>;
  /** Pages rendered: all of them, unless a dev rebuild found some unchanged in its memo. */
  pagesRendered: number;
  /** Share cards published, and how many of them were drawn (the others came from .cache/share/). */
  shareCards?: { files: number; made: number };
  /** The whole output folder. */
  files: number;
  bytes: number;
  warnings: string[];
  /** Where the blog came from and how long the fetch took. */
  blog: { source: 'local' | 'network' | 'cache'; posts: number; fetchMs?: number; notes: string[] };
  stages: { name: string; ms: number }[];
  /** The host the files were written for, and why that one. */
  target: { name: Target; why: string };
  totalMs: number;
  outDir: string;
}

/**
 * What `storefront dev` keeps in memory between the builds of its warm process, so that a
 * rebuild parses only the post files that changed and renders only the pages whose props
 * changed. A build from the command line has none: it reads, renders and writes everything.
 */
export interface BuildMemo extends ContentMemo {
  pages: PageMemo;
}

export function newBuildMemo(): BuildMemo {
  return { posts: new Map(), yaml: new Map(), pages: new Map() };
}

/**
 * The build, stage by stage: settings → content → route table → CMS posts → images and share
 * cards → render → write.
 * Every check runs before anything is written; the new site replaces the output folder at once
 * at the end (see SiteWriter), so a failed or killed build leaves the previous one as it was.
 */
export async function build(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const stages: BuildSummary['stages'] = [];
  const step = async <T>(name: string, work: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await work();
    stages.push({ name, ms: performance.now() - t0 });
    return result;
  };
  const root = path.resolve(options.root);
  const outDir = path.resolve(root, options.outDir);
  const now = options.now ?? new Date();

  // Before anything is written: the caches and the schemas' folder must be the project's own
  // folders, not links to someone's files (see ownFolderProblems).
  refuseForeignOwnFolders(root, OWN_FOLDERS, NOTHING_WRITTEN);
  checkOutputFolder(outDir, root);
  // The content files' JSON Schemas for editors (.storefront/schemas), when missing or out of
  // date; first, so that an editor has them while the content is still being fixed. A project
  // folder that cannot be written to only goes without them.
  try {
    writeJsonSchemas(root);
  } catch {
    // Not the build's concern.
  }
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const progress = options.progress ?? (() => {});
  const config: Config = await step('config', () =>
    loadConfig(root, env, {
      ...(options.cmsApiUrl !== undefined ? { cmsApiUrl: options.cmsApiUrl } : {}),
      ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
      ...(options.target !== undefined ? { target: options.target } : {}),
    }),
  );
  const target = resolveTarget(
    config.target,
    env,
    options.target !== undefined ? '--target' : env.DEPLOY_TARGET ? 'DEPLOY_TARGET' : CONFIG_FILE,
  );
  const basePathFrom =
    options.basePath !== undefined
      ? '--base'
      : env.BASE_PATH !== undefined
        ? 'environment variable BASE_PATH'
        : CONFIG_FILE;
  checkAddressForHost(config, target.target, basePathFrom, env, options.allowPlaceholders === true, log);
  const useCms = config.cmsApiUrl !== '';
  const contentDir = path.join(root, 'content');
  const postsDir = options.postsDir ? path.resolve(root, options.postsDir) : path.join(contentDir, 'blog');
  if (options.postsDir && !statSync(postsDir, { throwIfNoEntry: false })?.isDirectory()) {
    // A mistyped folder would otherwise publish the site without its blog.
    throw new StorefrontError({
      code: codes.missingFile,
      file: options.postsDir,
      field: '--posts',
      message: 'The posts folder given with --posts does not exist (or is not a folder).',
      hint: 'Check the path; it is relative to the project folder (--root).',
    });
  }
  // Every content problem is collected (schemas, cross-file rules, routes, links) and reported
  // together, before the CMS is asked for anything.
  const problems = new ProblemList();
  const content = await step('content', () =>
    loadContent(root, config, { contentDir, postsDir, localPosts: !useCms, memo: options.memo, now }, problems),
  );
  // Drafts and posts dated after the build are left out here, before routes, links and the feed.
  const publish = (posts: SiteContent['posts'], notes: string[]) => {
    const shown = publishedPosts(posts, now, options.drafts === true);
    const unpublished = options.drafts ? shown.filter((post) => post.unpublished).length : posts.length - shown.length;
    if (unpublished > 0)
      notes.push(
        `${unpublished} draft or scheduled post(s) ${options.drafts ? 'shown, marked and noindex' : 'left out (build --drafts shows them)'}.`,
      );
    return shown;
  };
  const localNotes: string[] = [];
  content.posts = publish(content.posts, localNotes);
  if (!options.allowPlaceholders && !isReservedHost(new URL(config.siteUrl).hostname))
    checkPlaceholders(config, content.trader, problems);
  const checkedRouteTable = () => {
    const routeTable = buildRouteTable(content, problems);
    checkContentLinks(content, routeTable, siteRoot(config), problems);
    problems.throwIfAny(NOTHING_WRITTEN);
    return routeTable;
  };
  let table = await step('routes', checkedRouteTable);
  let blog: BuildSummary['blog'] = { source: 'local', posts: content.posts.length, notes: localNotes };
  if (useCms) {
    // Loaded on demand: the HTTP client and the sanitiser are only needed for a CMS blog.
    const { loadCmsPosts } = await import('./cms/load-cms-posts.js');
    const cms = await step('cms', () =>
      loadCmsPosts({
        root,
        apiUrl: config.cmsApiUrl,
        mode: options.cmsMode ?? 'online',
        timeoutMs: options.cmsTimeoutMs ?? defaultCmsOptions.timeoutMs,
        retry: { ...defaultCmsOptions.retry, retries: options.cmsRetries ?? defaultCmsOptions.retry.retries },
        concurrency: defaultCmsOptions.concurrency,
        maxPosts: config.cmsMaxPosts,
        imageOrigins: imageOrigins(config),
        env,
        log,
        onProgress: (done, total) => progress('fetch', done, total),
      }),
    );
    content.posts = publish(cms.posts, cms.notes);
    blog = { source: cms.source, posts: content.posts.length, fetchMs: cms.fetchMs, notes: cms.notes };
    table = await step('routes', checkedRouteTable);
  }
  // Loaded on demand, as the CMS client is: sharp and the HTTP client are needed only for images.
  const { makeShareCards } = await import('./images/share-cards.js');
  const imagesMade = step('images', async () => {
    const { processSiteImages } = await import('./images/process-images.js');
    const made = await processSiteImages(
      content.posts,
      {
        root,
        contentDir,
        imageOrigins: imageOrigins(config),
        offline: options.cmsMode === 'offline',
        keptWithoutAsking: blog.source === 'cache',
        warn: log,
        timeoutMs: options.cmsTimeoutMs ?? defaultCmsOptions.timeoutMs,
        retry: { ...defaultCmsOptions.retry, retries: options.cmsRetries ?? defaultCmsOptions.retry.retries },
      },
      problems,
    );
    problems.throwIfAny(NOTHING_WRITTEN);
    return made;
  });
  const generatorRoot = packageRoot();
  // The share cards of the non-post pages (their og:image; a post shows its own image, or the
  // blog's card), drawn only when what they show has changed: the drawing goes on while the
  // images are made and the pages render; the write stage waits for it.
  const cardsPlanned = makeShareCards(table.routes, { root, generatorRoot, brandName: config.brandName, content });
  cardsPlanned.catch(() => {}); // a failure is reported below, once
  let images: Awaited<typeof imagesMade>;
  try {
    images = await imagesMade;
  } catch (err) {
    // The images stage failed, and the build with it: let the drawing already begun finish first.
    await cardsPlanned.then((planned) => planned.files).catch(() => {});
    throw err;
  }
  const cards = await step('cards', () => cardsPlanned);
  const [stylesheet, script] = await Promise.all([stylesheetAsset(generatorRoot), scriptAsset(generatorRoot)]);

  const output = SiteWriter.open(outDir, hostLimits(target.target, config.cfPagesMaxFiles));
  // Netlify, Cloudflare and GitHub Pages compress by themselves: .br and .gz copies would only be published.
  const precompress = options.precompress === true && (target.target === 'nginx' || target.target === 'static');
  if (options.precompress && !precompress)
    log(`note: no .br or .gz copies for ${target.target}: the host compresses by itself.`);
  const pagesByKind = {} as Record<RouteKind, number>;
  let done = 0;
  const writeStarted = performance.now();
  let render = { rendered: 0, ms: 0 };
  let cardsWait = 0;
  try {
    // Pages are written as they are rendered, so memory stays flat however many there are.
    render = await renderRoutes(
      config,
      content,
      table.routes,
      renderOptions(stylesheet.file, script.file, now, images, cards.byPath),
      async (route, html) => {
        pagesByKind[route.kind] = (pagesByKind[route.kind] ?? 0) + 1;
        progress('render', ++done, table.routes.length);
        await output.write({ file: outputFile(route.path), contents: html }, precompress);
      },
      options.memo?.pages,
    );
    const cardsStarted = performance.now();
    const cardFiles = await cards.files;
    cardsWait = performance.now() - cardsStarted;
    const assets = [stylesheet, script, ...(await staticAssets(generatorRoot)), ...images.files, ...cardFiles];
    for (const file of [...assets, ...siteFiles(config, target.target, content, table, now)])
      await output.write(file, precompress);
    // content/images/: SVGs as rebuilt, other images copied one at a time as streams.
    for (const image of await contentImages(contentDir)) {
      if ('contents' in image) await output.write(image, precompress);
      else await output.copy(image.file, image.source, image.limit, precompress);
    }
    output.commit();
  } catch (err) {
    output.abort();
    throw err;
  }
  // The share cards' drawing left after rendering counts as theirs, not the write stage's.
  stages.push(
    { name: 'render', ms: render.ms },
    { name: 'cards', ms: cardsWait },
    { name: 'write', ms: performance.now() - writeStarted - render.ms - cardsWait },
  );
  return {
    pages: done,
    pagesByKind,
    pagesRendered: render.rendered,
    shareCards: { files: new Set([...cards.byPath.values()].map((card) => card.src)).size, made: cards.made },
    files: output.files,
    bytes: output.bytes,
    warnings: content.warnings,
    blog,
    stages,
    target: { name: target.target, why: target.why },
    totalMs: performance.now() - started,
    outDir,
  };
}

/**
 * Refuses what would publish a site at the wrong address without a word: a build on a host's
 * build service for the example origin (canonical URLs, the sitemap and og:url would all name
 * it), and a base path on a host that serves a site at the root of its domain. In any other CI,
 * the example origin is a warning.
 */
function checkAddressForHost(
  config: Config,
  target: Target,
  basePathFrom: string,
  env: Readonly<Record<string, string | undefined>>,
  allowPlaceholders: boolean,
  log: (line: string) => void,
): void {
  const problems = new ProblemList();
  if ((target === 'netlify' || target === 'cloudflare') && config.basePath) {
    problems.add({
      code: codes.badSetting,
      file: basePathFrom,
      field: 'basePath',
      message: `The site is built for ${config.basePath}/, but ${target === 'netlify' ? 'Netlify' : 'Cloudflare Pages'} serves a site at the root of its domain.`,
      hint: 'Leave basePath (BASE_PATH, --base) empty for this host, or build for github-pages, nginx or static.',
    });
  }
  if (isReservedHost(new URL(config.siteUrl).hostname)) {
    const service = buildService(target, env);
    if (service && !allowPlaceholders) {
      problems.add({
        code: codes.placeholder,
        file: 'environment variable SITE_URL',
        message: `This build runs on ${service.name} (${service.variable} is set) for ${config.siteUrl}, an example address: every canonical URL, the sitemap and the share links would name it.`,
        hint: `Set SITE_URL to the site's address in ${service.settings} (or siteUrl in ${CONFIG_FILE}); for a staging build, pass --allow-placeholders.`,
      });
    } else if (service || (env.CI && !['false', '0'].includes(env.CI))) {
      log(
        `WARNING: building ${service ? `on ${service.name}` : 'in CI'} for ${config.siteUrl}, an example address: canonical URLs, the sitemap and share links name it. Set SITE_URL.`,
      );
    }
  }
  problems.throwIfAny(NOTHING_WRITTEN);
}

/**
 * The files of the site that are not pages: the sitemap, the host's files (made from the route
 * table and the settings), and the feed of the newest posts.
 */
function siteFiles(config: Config, target: Target, content: SiteContent, table: RouteTable, now: Date): OutputFile[] {
  const absolute = (p: string) => absoluteUrl(siteRoot(config), p);
  const base = config.basePath;
  const published = content.posts.filter((post) => !post.unpublished);
  const feed = atomFeed(published.slice(0, FEED_SIZE), {
    title: `${content.site.blog.title} | ${config.brandName}`,
    subtitle: content.site.blog.description,
    siteUrl: siteRoot(config),
    feedUrl: absolute('/blog/feed.xml'),
    blogUrl: absolute('/blog'),
    updated: published[0]?.modified ?? now,
    author: config.brandName,
    postUrl: (post) => absolute(postPath(post.slug)),
  });
  return [
    { file: 'sitemap.xml', contents: sitemapXml(table, absolute) },
    { file: 'robots.txt', contents: robotsTxt(absolute('/sitemap.xml')) },
    ...hostFiles(target, table, securityHeaders(config), absolute, base),
    { file: 'blog/feed.xml', contents: feed },
  ];
}
