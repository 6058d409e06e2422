import { createHash } from 'node:crypto';
import path from 'node:path';
import { readCacheFile, refuseForeignOwnFolders } from '../util/inside-project.js';
import { writeFileAtomic } from '../util/write-atomic.js';

/**
 * The last successful fetch of each CMS, under .cache/cms/. It holds the posts' JSON only:
 * never a header, so never a credential.
 */
export interface CmsCacheEntry {
  apiUrl: string;
  /** When every post was last fetched whole (a sync keeps it): the copy's age (sync-posts.ts). */
  fetchedAt: string;
  /** When the copy was last brought up to date, by a full fetch or a sync. */
  syncedAt?: string;
  items: unknown[];
}

/** The cache of one collection: a CMS's posts, or a checkout's products (`kind`). */
export function cacheFile(root: string, apiUrl: string, kind = 'posts'): string {
  const key = createHash('sha256').update(apiUrl).digest('hex').slice(0, 16);
  return path.join(root, '.cache', 'cms', `${kind}-${key}.json`);
}

/**
 * `check --checkout` and `catalogue pull` use this cache without a build: they too refuse a
 * .cache/ or .cache/cms/ that is a link out (see ownFolderProblems), before reading or writing.
 */
const CMS_FOLDER = ['.cache/cms'];

export async function readCmsCache(root: string, apiUrl: string, kind = 'posts'): Promise<CmsCacheEntry | undefined> {
  refuseForeignOwnFolders(root, CMS_FOLDER);
  // At most twice what a build may download (MAX_TOTAL_BYTES, not imported: it loads undici).
  const bytes = await readCacheFile(cacheFile(root, apiUrl, kind), root, 512 * 1024 * 1024);
  if (!bytes) return undefined;
  try {
    const entry = JSON.parse(bytes.toString('utf8')) as CmsCacheEntry;
    return Array.isArray(entry.items) ? entry : undefined;
  } catch {
    return undefined;
  }
}

export async function writeCmsCache(root: string, entry: CmsCacheEntry, kind = 'posts'): Promise<void> {
  refuseForeignOwnFolders(root, CMS_FOLDER);
  await writeFileAtomic(cacheFile(root, entry.apiUrl, kind), JSON.stringify(entry));
}
