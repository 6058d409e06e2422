import path from 'node:path';
import { loadConfig, type Config } from './config/load-config.js';
import type { CmsMode } from './cms/load-cms-posts.js';
import { loadContent, type SiteContent } from './content/load-content.js';
import { codeFingerprint } from './cache/fingerprint.js';
import { OutputManifest } from './cache/output-manifest.js';
import { outputNamesKey, removeRebuildIndex, writeRebuildIndex, type RebuildIndex } from './cache/rebuild-index.js';
import { StampThread } from './cache/stamp-thread.js';
import { rebuildChangedPosts, rebuildInputs, type Handover } from './posts-rebuild.js';
import { stampFolder } from './util/file-stamp.js';
import { hashText } from './util/hash.js';
import { atomFeed } from './output/feed.js';
import { contentImages, scriptAsset, stylesheetAsset, staticAssets } from './output/assets.js';
import { headersFile } from './output/headers-file.js';
import { securityHeaders } from './output/http-headers.js';
import { nginxConf } from './output/nginx-conf.js';
import { redirectPages } from './output/redirect-pages.js';
import { redirectsFile } from './output/redirects.js';
import { robotsTxt, sitemapXml } from './output/sitemap.js';
import { checkOutputFolder, StagedOutput, type OutputFile } from './output/write-output.js';
import { packageRoot } from './package-root.js';
import { collectGarbage, LARGE_BLOG } from './util/collect-garbage.js';
import { renderPages } from './render/render-pages.js';
import { renderOptions } from './render/render-routes.js';
import { checkContentLinks } from './routes/check-links.js';
import { NOTHING_WRITTEN, ProblemList, StorefrontError } from './errors/storefront-error.js';
import { codes } from './errors/codes.js';
import { absoluteUrl, buildRouteTable, outputFile, postPath, type Route, type RouteKind, type RouteTable } from './routes/route-table.js';

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
  /** WordPress REST API root; overrides CMS_API_URL and the config file. */
  cmsApiUrl?: string;
  /** How the CMS is used: fetch, the cache only, or fetch with the cache as fallback. */
  cmsMode?: CmsMode;
  cmsTimeoutMs?: number;
  cmsRetries?: number;
  /** Write .br and .gz beside every text file (for nginx, preview, a bucket). */
  precompress?: boolean;
  /**
   * Reuse and keep the build cache in .cache/build (default true): posts parsed and pages
   * written by the previous build into the same folder are kept when their inputs are unchanged.
   */
  cache?: boolean;
}

export interface BuildSummary {
  pages: number;
  pagesByKind: Record<RouteKind, number>;
  /** Pages left as the previous build wrote them (their inputs are unchanged). */
  pagesKept: number;
  /** The whole output folder. */
  files: number;
  bytes: number;
  /** What this build wrote (a rebuild keeps unchanged files). */
  written: { files: number; bytes: number };
  warnings: string[];
  /** Where the blog came from and how long the fetch took. */
  blog: { source: 'local' | 'network' | 'cache'; posts: number; fetchMs?: number; notes: string[] };
  stages: { name: string; ms: number }[];
  totalMs: number;
  outDir: string;
}

/**
 * The build, stage by stage: settings → content → route table → render → write.
 * Every check runs before anything is written; the output folder is swapped in at the end.
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

  checkOutputFolder(outDir, root);
  const env = options.env ?? process.env;
  const threadCount = threads(env);
  const log = options.log ?? (() => {});
  const progress = options.progress ?? (() => {});
  const config: Config = await step('config', () =>
    loadConfig(root, env, options.cmsApiUrl !== undefined ? { cmsApiUrl: options.cmsApiUrl } : {}),
  );
  const useCms = config.cmsApiUrl !== '';
  const cache = options.cache === false ? undefined : { dir: path.join(root, '.cache', 'build'), fingerprint: codeFingerprint() };
  const contentDir = path.join(root, 'content');
  const postsDir = options.postsDir ? path.resolve(root, options.postsDir) : path.join(contentDir, 'blog');
  // A rebuild after only post bodies changed renders those pages and nothing else (see
  // posts-rebuild.ts); otherwise it hands over the post stamps it took to the build below.
  const rebuildKey =
    cache && !useCms
      ? rebuildInputs({ fingerprint: cache.fingerprint, config, precompress: options.precompress === true, contentDir, postsDir, now })
      : undefined;
  let handover: Handover = { checked: false };
  if (cache && rebuildKey !== undefined) {
    const t0 = performance.now();
    const quick = await rebuildChangedPosts({
      root,
      outDir,
      postsDir,
      contentDir,
      cacheDir: cache.dir,
      fingerprint: cache.fingerprint,
      config,
      inputs: rebuildKey,
      precompress: options.precompress === true,
      now,
    });
    if ('summary' in quick) {
      stages.push(...quick.stages);
      return { ...quick.summary, stages, totalMs: performance.now() - started };
    }
    if (quick.handover.checked) stages.push({ name: 'changes', ms: performance.now() - t0 });
    handover = quick.handover;
  }
  // What the previous build left in the output folder. Opened first because without it every
  // page is rendered, every post body is needed, and parsing them all afresh (on two threads)
  // is faster than reading cached posts and then each body on its own.
  const manifest = cache
    ? OutputManifest.open(cache.dir, outDir, cache.fingerprint, options.precompress ? 'precompress' : '')
    : OutputManifest.none();
  // A rebuild compares the stamp of every file written before with the manifest's; for a large
  // site a worker thread takes them while this one reads the caches and the content.
  const stampThread = manifest.reusable && StampThread.pays(manifest.previousFiles, threadCount) ? new StampThread({ dir: outDir, recursive: true }) : undefined;
  // Every content problem is collected (schemas, cross-file rules, routes, links) and reported
  // together, before the CMS is asked for anything.
  const problems = new ProblemList();
  const content = await step('content', () =>
    loadContent(
      root,
      config,
      {
        contentDir,
        postsDir,
        localPosts: !useCms,
        postsCache: cache && { cacheDir: cache.dir, codeFingerprint: cache.fingerprint, reuse: manifest.reusable, stamps: handover.postStamps },
        siteCache: cache && { cacheDir: cache.dir, codeFingerprint: cache.fingerprint },
        // For a new output folder every page is rendered: the worker that parses half of a
        // large blog renders those posts' pages too (see render/render-pages.ts).
        postsWorker: threadCount === 1 ? 'none' : manifest.reusable ? 'parse' : 'parse-and-render',
      },
      problems,
    ),
  ).catch((err: unknown) => {
    stampThread?.close();
    throw err;
  });
  // A posts worker thread holding bodies is ended whatever happens (it is done after rendering).
  try {
    const checkedRouteTable = () => {
      const routeTable = buildRouteTable(content, problems);
      checkContentLinks(content, routeTable, config.siteUrl, problems);
      problems.throwIfAny(NOTHING_WRITTEN);
      return routeTable;
    };
    let table = await step('routes', checkedRouteTable);
    let blog: BuildSummary['blog'] = { source: 'local', posts: content.posts.length, notes: [] };
    if (useCms) {
      // Loaded on demand: the HTTP client and the sanitiser are only needed for a CMS blog.
      const { defaultCmsOptions, loadCmsPosts } = await import('./cms/load-cms-posts.js');
      const cms = await step('cms', () =>
        loadCmsPosts({
          root,
          apiUrl: config.cmsApiUrl,
          mode: options.cmsMode ?? 'online',
          timeoutMs: options.cmsTimeoutMs ?? defaultCmsOptions.timeoutMs,
          retry: { ...defaultCmsOptions.retry, retries: options.cmsRetries ?? defaultCmsOptions.retry.retries },
          concurrency: defaultCmsOptions.concurrency,
          env,
          log,
          onProgress: (done, total) => progress('fetch', done, total),
        }),
      );
      content.posts = cms.posts;
      blog = { source: cms.source, posts: cms.posts.length, fetchMs: cms.fetchMs, notes: cms.notes };
      table = await step('routes', checkedRouteTable);
    }
    const generatorRoot = packageRoot();
    const [stylesheet, script] = await Promise.all([stylesheetAsset(generatorRoot), scriptAsset(generatorRoot)]);
    const security = securityHeaders(config);
    if (content.posts.length >= LARGE_BLOG) collectGarbage();
    if (manifest.reusable) manifest.checkFolder((await stampThread?.stamps()) ?? stampFolder(outDir, true));
    // The folder is about to change the full way: a posts-only rebuild must not trust the index
    // an earlier build left until this build writes its own (none with --no-cache or a CMS
    // blog), or it could keep list pages of other content.
    removeRebuildIndex(path.join(root, '.cache', 'build'), outDir);
    const output = await StagedOutput.open(outDir, manifest.reusable ? 'update' : 'replace', cache !== undefined);
    // Pages are written as they are rendered, so memory stays flat however many there are.
    // Only .br/.gz copies are made on request (they cost more than rendering).
    const write = async (file: OutputFile, key: string) => manifest.record(file.file, key, await output.write(file, options.precompress));
    const pagesByKind = {} as Record<RouteKind, number>;
    let pagesKept = 0;
    let done = 0;
    const writeStarted = performance.now();
    const countPage = (route: Route) => {
      pagesByKind[route.kind] = (pagesByKind[route.kind] ?? 0) + 1;
      progress('render', ++done, table.routes.length);
    };
    let renderMs = 0;
    try {
      renderMs = await renderPages(
        { config, content, options: renderOptions(stylesheet, script, now) },
        table.routes,
        {
          keyed: cache !== undefined,
          isUnchanged: (route, key) => manifest.keepIfUnchanged(outputFile(route.path), key),
          wouldKeep: (route, key) => manifest.isUnchanged(outputFile(route.path), key),
          kept: (route) => {
            countPage(route);
            pagesKept += 1;
          },
          rendered: async (route, key, html) => {
            countPage(route);
            if (done % LARGE_BLOG === 0) collectGarbage();
            const file = outputFile(route.path);
            if (!manifest.keepIfSameBytes(file, key, html)) await write({ file, contents: html }, key);
          },
        },
        {
          output,
          precompress: options.precompress === true,
          writtenElsewhere: (route, key, written) => {
            countPage(route);
            manifest.record(outputFile(route.path), key, written);
          },
        },
      );
      // Assets are keyed by their contents (they are few, and read anyway).
      const assets = [stylesheet, script, ...(await staticAssets(generatorRoot)), ...(await contentImages(path.join(root, 'content')))];
      for (const file of assets) {
        const key = cache ? hashText(file.contents) : '';
        if (!manifest.keepIfUnchanged(file.file, key) && !manifest.keepIfSameBytes(file.file, key, file.contents)) await write(file, key);
      }
      // The sitemap, host files and feed are keyed by what they are made from, and made only
      // when that changed: for a large blog, making them costs more than the rest of a rebuild
      // that changed one post. Compared byte for byte when made, as compressing costs more.
      for (const group of siteFileGroups(config, content, table, security, now)) {
        const key = cache ? group.key() : '';
        if (cache && manifest.keepAllWithKey(key)) continue;
        for (const file of group.files()) if (!manifest.keepIfSameBytes(file.file, key, file.contents)) await write(file, key);
      }
      await output.commit(manifest.leftovers());
    } catch (err) {
      await output.abort();
      throw err;
    }
    const generation = manifest.save();
    if (cache && rebuildKey !== undefined && generation !== undefined) {
      writeRebuildIndex(cache.dir, rebuildIndex(outDir, { inputs: rebuildKey, manifest: generation }, content, table, pagesByKind, manifest));
    }
    stages.push({ name: 'render', ms: renderMs }, { name: 'write', ms: performance.now() - writeStarted - renderMs });
    const pages = Object.values(pagesByKind).reduce((a, b) => a + b, 0);

    const totals = manifest.totals();
    return {
      pages,
      pagesByKind,
      pagesKept,
      files: totals.files,
      bytes: totals.bytes,
      written: { files: output.files, bytes: output.bytes },
      warnings: content.warnings,
      blog,
      stages,
      totalMs: performance.now() - started,
      outDir,
    };
  } finally {
    content.postsThread?.close();
    stampThread?.close();
  }
}

/** What this build was made from and wrote, for the next rebuild to check quickly (see posts-rebuild.ts). */
function rebuildIndex(
  outDir: string,
  keys: { inputs: string; manifest: string },
  content: SiteContent,
  table: RouteTable,
  pagesByKind: Record<RouteKind, number>,
  manifest: OutputManifest,
): RebuildIndex {
  return {
    header: {
      folder: outDir,
      ...keys,
      otherPaths: [...table.routes.filter((route) => route.kind !== 'blog-post').map((route) => route.path), ...table.redirects.map((r) => r.from)],
      warnings: content.warnings,
      pagesByKind,
      output: { ...manifest.totals(), names: outputNamesKey(manifest.fileNames()) },
    },
    // A local post's source is its file's path; its contentKey is the file's stamp.
    posts: new Map(content.posts.map((post) => [path.basename(post.source), { stamp: post.contentKey, cardKey: post.cardKey, slug: post.slug }])),
  };
}

/**
 * STOREFRONT_THREADS=1 keeps the whole build on one thread (as HUGO_NUMWORKERMULTIPLIER limits
 * Hugo's): for a machine shared with other work, and for the tests that compare the two.
 */
function threads(env: Readonly<Record<string, string | undefined>>): 1 | 2 {
  const value = env.STOREFRONT_THREADS;
  if (value === undefined || value === '' || value === '2') return 2;
  if (value === '1') return 1;
  throw new StorefrontError({
    code: codes.badSetting,
    field: 'STOREFRONT_THREADS',
    message: `STOREFRONT_THREADS is "${value}"; it can be 1 (one thread) or 2 (a worker thread for a large blog, the default).`,
    hint: 'Unset it, or set it to 1 or 2.',
  });
}

/** Files of the site that are made together from the same inputs, and their key. */
interface SiteFileGroup {
  /** A hash of the inputs, distinct between groups. */
  key: () => string;
  files: () => OutputFile[];
}

/**
 * The files of the site that are not pages: the sitemap, host configuration and redirect pages
 * (made from the route table's paths, flags and dates, the redirects and the settings), and the feed
 * (made from the newest posts).
 */
function siteFileGroups(config: Config, content: SiteContent, table: RouteTable, security: Record<string, string>, now: Date): SiteFileGroup[] {
  const absolute = (p: string) => absoluteUrl(config.siteUrl, p);
  const feedPosts = content.posts.slice(0, FEED_SIZE);
  const feed = {
    title: `${content.site.blog.title} | ${config.brandName}`,
    subtitle: content.site.blog.description,
    siteUrl: config.siteUrl,
    feedUrl: absolute('/blog/feed.xml'),
    blogUrl: absolute('/blog'),
    updated: content.posts[0]?.modified ?? now,
    author: config.brandName,
  };
  return [
    {
      key: () =>
        hashText(
          'routes',
          config.siteUrl,
          JSON.stringify(security),
          JSON.stringify(table.redirects),
          table.routes.map((route) => `${route.path}\t${route.indexable}\t${route.lastmod?.getTime() ?? ''}`).join('\n'),
        ),
      files: () => [
        { file: 'sitemap.xml', contents: sitemapXml(table, absolute) },
        { file: 'robots.txt', contents: robotsTxt(absolute('/sitemap.xml')) },
        { file: '_redirects', contents: redirectsFile(table) },
        { file: '_headers', contents: headersFile(table, security) },
        { file: '_nginx.conf', contents: nginxConf(table, security) },
        ...redirectPages(table, absolute),
      ],
    },
    {
      key: () => hashText('feed', JSON.stringify(feed), ...feedPosts.map((post) => post.cardKey)),
      files: () => [
        {
          file: 'blog/feed.xml',
          contents: atomFeed(feedPosts, { ...feed, postUrl: (post) => absolute(postPath(post.slug)) }),
        },
      ],
    },
  ];
}
