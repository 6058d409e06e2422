import { sortNewestFirst } from '../content/load-posts.js';
import type { Post } from '../content/post.js';
import { codes, problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList, StorefrontError } from '../errors/storefront-error.js';
import { readCmsCache, writeCmsCache, cacheFile } from './cms-cache.js';
import { mapWordPressPosts } from './map-post.js';
import type { RetryPolicy } from './retry.js';
import { syncPosts, type SyncedPosts } from './sync-posts.js';
import { redactUrl } from './wordpress-client.js';

/** online: fetch (and cache); offline: the cache only; stale-ok: fetch, else the cache. */
export type CmsMode = 'online' | 'offline' | 'stale-ok';

export interface CmsOptions {
  root: string;
  apiUrl: string;
  mode: CmsMode;
  timeoutMs: number;
  retry: RetryPolicy;
  concurrency: number;
  /** The most posts to take (the setting cmsMaxPosts). */
  maxPosts: number;
  /** Where images may come from (see imageOrigins in config/load-config.ts). */
  imageOrigins: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
  /** Pages of posts fetched so far, of the total the API announced. */
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
  /** Fetch every post whole, not only what changed since the copy in .cache/cms/ (--cms-full). */
  fullFetch?: boolean;
}

export interface CmsPosts {
  posts: Post[];
  source: 'network' | 'cache';
  pages: number;
  fetchMs: number;
  /** What was asked of WordPress, for the summary (syncNote). */
  sync?: string;
  notes: string[];
}

function credentials(env: CmsOptions['env']): { user: string; password: string } | undefined {
  const user = env.CMS_USER;
  const password = env.CMS_APP_PASSWORD;
  return user && password ? { user, password } : undefined;
}

/**
 * The posts of WordPress's answer. A post the site cannot show (SF204: no title, a missing
 * field, too large) fails the build, or with --stale-ok is left out with a warning, as a stale
 * blog is preferred to none there; other problems (slugs) always fail it.
 */
function fromItems(items: unknown[], apiUrl: string, options: CmsOptions): { posts: Post[]; notes: string[] } {
  const { mode, log } = options;
  const problems = new ProblemList();
  const mapped = mapWordPressPosts(items, apiUrl, options.imageOrigins, problems);
  const skippable = mode === 'stale-ok' && problems.items.every((found) => found.code === codes.cmsBadPost);
  if (skippable)
    for (const found of problems.items)
      log(`WARNING: ${found.code} ${found.url ?? ''}: ${found.message} The post is left out (--stale-ok).`);
  else problems.throwIfAny(NOTHING_WRITTEN);
  const notes: string[] = [];
  if (mapped.skippedProtected > 0) {
    notes.push(
      `${mapped.skippedProtected} password-protected post(s) left out: a static page cannot enforce a password.`,
    );
  }
  if (mapped.skippedUnpublished > 0) notes.push(`${mapped.skippedUnpublished} unpublished post(s) left out.`);
  if (mapped.imagesLeftOut > 0) {
    notes.push(
      `${mapped.imagesLeftOut} image(s) from hosts the site does not allow images from were left out: ` +
        'add their hosts to imageHosts (IMAGE_HOSTS) to show them.',
    );
  }
  return { posts: sortNewestFirst(mapped.posts), notes };
}

/** The blog from WordPress: fetched over the network or read from the cache, then mapped. */
export async function loadCmsPosts(options: CmsOptions): Promise<CmsPosts> {
  const apiUrl = redactUrl(options.apiUrl).replace(/\/+$/, '');
  const started = performance.now();
  // `failed`: the CMS's error that sent the build to the cache (--stale-ok), `why` its message.
  const fromCache = async (why: string | undefined, failed?: unknown): Promise<CmsPosts> => {
    const entry = await readCmsCache(options.root, apiUrl);
    if (!entry) {
      throw new StorefrontError(
        problem('cmsNoCachedPosts', { why }, { url: apiUrl, file: cacheFile(options.root, apiUrl) }),
        NOTHING_WRITTEN,
        { cause: failed },
      );
    }
    const { posts, notes } = fromItems(entry.items, apiUrl, options);
    return {
      posts,
      source: 'cache',
      pages: 0,
      fetchMs: performance.now() - started,
      notes: [`posts from the cache of ${entry.syncedAt ?? entry.fetchedAt}`, ...notes],
    };
  };

  if (options.mode === 'offline') return fromCache(undefined);

  const now = options.now?.() ?? new Date();
  const copy = await readCmsCache(options.root, apiUrl);
  let synced: SyncedPosts;
  try {
    synced = await syncPosts(
      copy,
      {
        apiUrl,
        timeoutMs: options.timeoutMs,
        retry: options.retry,
        concurrency: options.concurrency,
        maxPosts: options.maxPosts,
        auth: credentials(options.env),
        onProgress: (done, total) => options.onProgress?.(done, total),
        onRetry: (url, reason, delay, attempt) =>
          options.log(`Retrying ${url} in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 1}): ${reason}`),
      },
      now,
      options.fullFetch,
    );
  } catch (error) {
    if (options.mode === 'stale-ok' && error instanceof StorefrontError) {
      const reason = error.problems[0]?.message ?? 'the CMS failed';
      options.log(
        `WARNING: the CMS could not be reached (${reason}); building from the cached posts instead (--stale-ok).`,
      );
      const cached = await fromCache(reason, error);
      return { ...cached, notes: ['STALE: the CMS was unreachable', ...cached.notes] };
    }
    throw error;
  }
  const fetchMs = performance.now() - started;
  const { posts, notes } = fromItems(synced.items, apiUrl, options);
  // fetchedAt stays the time of the last full fetch: what a sync cannot see (sync-posts.ts) ages from it.
  const fetchedAt = synced.how === 'full' || !copy ? now.toISOString() : copy.fetchedAt;
  await writeCmsCache(options.root, { apiUrl, fetchedAt, syncedAt: now.toISOString(), items: synced.items });
  return { posts, source: 'network', pages: synced.pages, fetchMs, sync: syncNote(synced), notes };
}

/** What the build asked WordPress, for the summary: "synced: 3 posts changed, 1 left; 43 requests, 221 KB". */
function syncNote(synced: SyncedPosts): string {
  const traffic = `${synced.requests} requests, ${Math.round(synced.bytes / 1024).toLocaleString('en-GB')} KB`;
  return synced.how === 'sync'
    ? `synced with WordPress: ${synced.changed} post(s) new or changed, ${synced.removed} left; ${traffic}`
    : `full fetch from WordPress (${synced.reason}); ${traffic}`;
}
