import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

/**
 * The image stage's folders in .cache/: the files made of each picture, by a hash of its
 * bytes (process-images.ts), each image downloaded, by a hash of its address, beside the CMS
 * posts so that `--offline` builds have them too (fetch-image.ts), and each kind of page's share
 * card, by a hash of what it shows (share-cards.ts; pruned by pruneShareCards too).
 */
export const madeDir = (root: string): string => path.join(root, '.cache', 'images');
export const downloadsDir = (root: string): string => path.join(root, '.cache', 'cms', 'images');
export const shareDir = (root: string): string => path.join(root, '.cache', 'share');

/**
 * How long the image caches keep what no build has used: a picture replaced or a post taken
 * down leaves them after this. Measured by the entries' modification time, which each build
 * sets on what it uses; long enough that `dev` with its drafts, a build of another CMS, or an
 * `--offline` build after a short outage still finds what it needs, and a build running at the
 * same time is never cut short.
 */
const KEEP_UNUSED_MS = 30 * 24 * 60 * 60 * 1000;

/** Marks cache entries as used by this build: their modification time becomes now. */
export async function markUsed(...entries: string[]): Promise<void> {
  const now = new Date();
  await Promise.all(entries.map((entry) => utimes(entry, now, now).catch(() => {})));
}

/**
 * Removes from the image caches what no build has used for KEEP_UNUSED_MS, so that they do not
 * grow with every picture ever replaced; left-overs of a killed build (temporary files, an entry
 * half made) go the same way.
 */
export async function pruneImageCaches(root: string): Promise<void> {
  const before = Date.now() - KEEP_UNUSED_MS;
  for (const dir of [madeDir(root), downloadsDir(root), shareDir(root)]) {
    for (const name of await readdir(dir).catch(() => [])) {
      const entry = path.join(dir, name);
      const changed = await stat(entry).then((found) => found.mtimeMs, () => Date.now());
      if (changed < before) await rm(entry, { recursive: true, force: true });
    }
  }
}

/**
 * Removes from .cache/share/ every card but those this build shows (by their keys): there are
 * about twenty, the same for every build of a site, so one no longer shown (a page renamed, or
 * a post's card drawn by an earlier version) goes at once instead of after KEEP_UNUSED_MS. Only
 * finished cards: a temporary file, perhaps another build's, is left to pruneImageCaches.
 */
export async function pruneShareCards(root: string, keep: Iterable<string>): Promise<void> {
  const kept = new Set([...keep].map((key) => `${key}.png`));
  const dir = shareDir(root);
  for (const name of await readdir(dir).catch(() => [])) {
    if (/^[0-9a-f]{64}\.png$/.test(name) && !kept.has(name)) await rm(path.join(dir, name), { force: true });
  }
}
