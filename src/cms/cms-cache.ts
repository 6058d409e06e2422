import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/write-atomic.js';
import path from 'node:path';

/**
 * The last successful fetch of each CMS, under .cache/cms/. It holds the posts' JSON only:
 * never a header, so never a credential.
 */
export interface CmsCacheEntry {
  apiUrl: string;
  fetchedAt: string;
  items: unknown[];
}

/** The cache of one collection: a CMS's posts, or a checkout's products (`kind`). */
export function cacheFile(root: string, apiUrl: string, kind = 'posts'): string {
  const key = createHash('sha256').update(apiUrl).digest('hex').slice(0, 16);
  return path.join(root, '.cache', 'cms', `${kind}-${key}.json`);
}

export async function readCmsCache(root: string, apiUrl: string, kind = 'posts'): Promise<CmsCacheEntry | undefined> {
  const file = cacheFile(root, apiUrl, kind);
  if (!existsSync(file)) return undefined;
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as CmsCacheEntry;
    return Array.isArray(entry.items) ? entry : undefined;
  } catch {
    return undefined;
  }
}

export async function writeCmsCache(root: string, entry: CmsCacheEntry, kind = 'posts'): Promise<void> {
  await writeFileAtomic(cacheFile(root, entry.apiUrl, kind), JSON.stringify(entry));
}
