import { existsSync } from 'node:fs';
import path from 'node:path';
import { SiteFilesCache } from '../cache/content-cache.js';
import type { Config } from '../config/load-config.js';
import { listFileNames } from '../util/list-files.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import { fileStamp } from '../util/file-stamp.js';
import { hashText } from '../util/hash.js';
import { checkContent } from './check-content.js';
import { loadLocalPosts, startPostsThread, type CachedBodies, type PostsCacheOptions, type PostsWorkerUse } from './load-posts.js';
import type { PostsThread } from './posts-thread.js';
import type { Markdown } from './markdown.js';
import type { Post } from './post.js';
import type { SiteFiles } from './read-site-files.js';
import type { Catalogue, Page, Redirect, ServicePageContent, Site, TextPageFrontMatter } from './schemas.js';
import { displayPath, linesOfFile, type SourceFile } from './source-file.js';

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
  /** The worker thread holding the bodies of part of a large blog; it renders their pages. */
  postsThread?: PostsThread;
  /** The bodies of posts taken from the build cache, read when needed (see load-posts.ts). */
  cachedBodies?: CachedBodies;
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
  /** What a worker thread does for a large blog (see posts-thread.ts); default 'parse'. */
  postsWorker?: PostsWorkerUse;
  /** Keep the validated site files between builds (see cache/content-cache.ts). */
  siteCache?: SiteCacheOptions;
}

export interface SiteCacheOptions {
  cacheDir: string;
  codeFingerprint: string;
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
  const postsDir = options.postsDir ?? path.join(contentDir, 'blog');
  // For a new output folder every post is parsed: a worker thread for a large blog starts now,
  // loading its code while this thread reads the YAML below.
  const postNames = options.localPosts === false ? [] : await listFileNames(postsDir, '.md');
  const postsThread = options.postsWorker === 'parse-and-render' ? startPostsThread(postNames, 'parse-and-render') : undefined;
  try {
    return await readContent(root, config, contentDir, { dir: postsDir, names: postNames }, options, collected, postsThread);
  } catch (err) {
    postsThread?.close();
    throw err;
  }
}

async function readContent(
  root: string,
  config: Config,
  contentDir: string,
  postFiles: { dir: string; names: string[] },
  options: LoadContentOptions,
  collected: ProblemList | undefined,
  postsThread: PostsThread | undefined,
): Promise<SiteContent> {
  const problems = collected ?? new ProblemList();
  const files = await loadSiteFiles(root, config, contentDir, options.siteCache, problems);
  // When site.yaml itself cannot be read its claims are unknown: every token would look
  // unknown, so token problems are not reported until site.yaml is fixed.
  const tokenProblems = files.siteRead ? problems : new ProblemList();
  const { posts, thread, cachedBodies } =
    options.localPosts === false
      ? { posts: [], thread: undefined, cachedBodies: undefined }
      : await loadLocalPosts(root, postFiles.dir, postFiles.names, files.facts, tokenProblems, {
          cache: options.postsCache,
          worker: options.postsWorker,
          started: postsThread,
        });

  // Without these three nothing else can be checked; with them, the cross-file checks run on
  // every file that did parse, so one run reports as much as it can.
  const { site, catalogue, redirects } = files;
  if (!site || !catalogue || !redirects) problems.throwIfAny(NOTHING_WRITTEN);
  const content: SiteContent = {
    site: site!,
    catalogue: catalogue!,
    redirects: redirects!,
    pages: files.pages,
    textPages: files.textPages,
    services: files.services,
    posts,
    warnings: [],
    lineOf: files.lineOf,
    postsThread: thread,
    cachedBodies,
  };
  checkContent(content, problems);
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
  return content;
}

/**
 * The site's own files, from the content cache when none has changed since it was saved (and
 * the code and settings are the same): then no YAML is parsed or validated.
 */
export async function loadSiteFiles(
  root: string,
  config: Config,
  contentDir: string,
  cacheOptions: SiteCacheOptions | undefined,
  problems: ProblemList,
): Promise<SiteFiles> {
  const { readSiteFiles, siteFilePaths } = await import('./read-site-files.js');
  const paths = await siteFilePaths(contentDir);
  if (!cacheOptions) return readSiteFiles(root, config, paths, problems);
  const stamps = [...paths.required, ...paths.pages, ...paths.textPages, ...paths.services].map((file) => `${file} ${existsSync(file) ? fileStamp(file).stamp : 'missing'}`);
  const cache = new SiteFilesCache(cacheOptions.cacheDir, contentDir, hashText(cacheOptions.codeFingerprint, JSON.stringify(config), ...stamps));
  const cached = cache.read();
  if (cached) {
    // Line numbers are looked up only for a problem found later, by parsing the file again then.
    const catalogue = paths.required[1]!;
    return { ...cached, lineOf: { [displayPath(root, catalogue)]: linesOfFile(catalogue) } };
  }
  const before = problems.size;
  const files = await readSiteFiles(root, config, paths, problems);
  if (problems.size === before) cache.save(files);
  return files;
}
