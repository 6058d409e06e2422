import type { CmsCacheEntry } from './cms-cache.js';
import { fetchAllPosts, type FetchPostsOptions, PER_PAGE } from './wordpress-client.js';

/**
 * How long after the last full fetch the copy of the posts in .cache/cms/ may serve as the base
 * of a sync. What WordPress changes without touching a post's `modified_gmt` (an author renamed,
 * a media file replaced in place, a plugin's filter) is then at most a day old on the site.
 */
const FULL_FETCH_AFTER_MS = 24 * 3_600_000;

/** The light listing: every published post's id and last change, 100 a page (about 5 KB). */
function listingPageUrl(apiUrl: string, page: number): string {
  return `${apiUrl}/wp/v2/posts?per_page=${PER_PAGE}&page=${page}&_fields=id,modified_gmt`;
}

/** The whole posts named, as the full fetch has them (`_embed`), 100 at most. */
function includeUrl(apiUrl: string, ids: readonly number[]): string {
  return `${apiUrl}/wp/v2/posts?per_page=${PER_PAGE}&include=${ids.join(',')}&_embed`;
}

export interface SyncedPosts {
  /** Every published post, whole, in WordPress's order (newest first), as a full fetch gives them. */
  items: unknown[];
  /** How the posts were had: `sync` asked for the listing and the changed posts only. */
  how: 'full' | 'sync';
  /** Why a full fetch was made ("no copy of the posts yet"). */
  reason?: string;
  /** Posts fetched whole because they are new or changed, and posts of the copy that left. */
  changed: number;
  removed: number;
  requests: number;
  bytes: number;
  /** Pages of the full fetch or of the listing. */
  pages: number;
}

/** A post of the listing or of the copy: its id and when it last changed, or undefined. */
function stamp(item: unknown): { id: number; modified: string } | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const { id, modified_gmt: modified } = item as { id?: unknown; modified_gmt?: unknown };
  return Number.isSafeInteger(id) && (id as number) > 0 && typeof modified === 'string'
    ? { id: id as number, modified }
    : undefined;
}

/**
 * Why the copy cannot be the base of a sync, or undefined when it can: none, asked not to, too
 * old, dated ahead of this machine's clock, of another API root, or not posts as a full fetch
 * leaves them.
 */
function fullFetchReason(
  copy: CmsCacheEntry | undefined,
  apiUrl: string,
  now: Date,
  forceFull: boolean,
): string | undefined {
  if (forceFull) return 'asked for with --cms-full';
  if (!copy) return 'no copy of the posts yet';
  if (copy.apiUrl !== apiUrl) return 'the copy is of another API root';
  const age = now.getTime() - Date.parse(copy.fetchedAt);
  if (Number.isNaN(age)) return 'the copy has no date';
  if (age < 0) return "the copy is dated after this machine's clock";
  if (age > FULL_FETCH_AFTER_MS) return 'the copy is over 24 hours old';
  if (!copy.items.every((item) => stamp(item))) return 'the copy holds items that are not posts';
  return undefined;
}

/** What the sync's requests add up to: each answer counted once. */
interface Tally {
  requests: number;
  received: { bytes: number };
}

/**
 * The posts, as a full fetch would give them, asking WordPress only for what changed since the
 * copy: the light listing of every published post's id and `modified_gmt`, then, 100 a request,
 * the whole posts that are new or whose `modified_gmt` differs. Posts of the copy missing from
 * the listing (trashed, deleted, unpublished, made private) leave; a scheduled post whose time
 * came is new to the listing (WordPress publishes it without touching `modified_gmt`, which is why
 * `modified_after` is not used). A server that ignores `_fields` or `include` gets the full fetch.
 */
export async function syncPosts(
  copy: CmsCacheEntry | undefined,
  options: FetchPostsOptions,
  now: Date,
  forceFull = false,
): Promise<SyncedPosts> {
  const tally: Tally = { requests: 0, received: { bytes: 0 } };
  const counted = (extra: Partial<FetchPostsOptions>): FetchPostsOptions => ({
    ...options,
    ...extra,
    received: tally.received,
    onRequest: () => {
      tally.requests += 1;
    },
  });
  const full = async (reason: string): Promise<SyncedPosts> => {
    const fetched = await fetchAllPosts(counted({}));
    return {
      items: fetched.items,
      how: 'full',
      reason,
      changed: fetched.items.length,
      removed: 0,
      requests: tally.requests,
      bytes: tally.received.bytes,
      pages: fetched.pages,
    };
  };
  const why = fullFetchReason(copy, options.apiUrl, now, forceFull);
  if (why !== undefined || !copy) return full(why ?? 'no copy of the posts yet');

  const listing = await fetchAllPosts(
    counted({
      onProgress: undefined,
      collection: { pageUrl: (page) => listingPageUrl(options.apiUrl, page), noun: 'post listing' },
    }),
  );
  const listed = listing.items.map(stamp);
  if (listing.items.some((item) => Object.keys(item as object).some((key) => key !== 'id' && key !== 'modified_gmt')))
    return full('the server ignores _fields');
  if (listed.some((entry) => !entry)) return full('the listing holds items that are not posts');

  const known = new Map(copy.items.map((item) => [stamp(item)!.id, item]));
  const changed = listed.filter((entry) => stamp(known.get(entry!.id))?.modified !== entry!.modified);
  const fetched = new Map<number, unknown>();
  for (let i = 0; i < changed.length; i += PER_PAGE) {
    const ids = changed.slice(i, i + PER_PAGE).map((entry) => entry!.id);
    const batch = await fetchAllPosts(
      counted({ onProgress: undefined, collection: { pageUrl: () => includeUrl(options.apiUrl, ids), noun: 'posts' } }),
    );
    for (const item of batch.items) {
      const id = stamp(item)?.id;
      if (id === undefined || !ids.includes(id)) return full('the server ignores include');
      fetched.set(id, item);
    }
  }
  // A post listed but not sent whole left between the two requests: it leaves now too.
  const changedIds = new Set(changed.map((entry) => entry!.id));
  const items = listed.flatMap((entry) => {
    const item = fetched.get(entry!.id) ?? (changedIds.has(entry!.id) ? undefined : known.get(entry!.id));
    return item === undefined ? [] : [item];
  });
  const stayed = new Set(listed.map((entry) => entry!.id));
  return {
    items,
    how: 'sync',
    changed: fetched.size,
    removed: [...known.keys()].filter((id) => !stayed.has(id)).length + (listed.length - items.length),
    requests: tally.requests,
    bytes: tally.received.bytes,
    pages: listing.pages,
  };
}
