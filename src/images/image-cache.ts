import { lstat, lutimes, mkdir, readdir, rm, rmdir } from 'node:fs/promises';
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

/**
 * Makes the folder of one made image's files (under madeDir), and says whether it is a real
 * folder. A link there is refused when the build begins (ownFolderProblems); one put there since
 * is not written through: the entry is then not kept.
 */
export async function entryFolder(folder: string): Promise<boolean> {
  await mkdir(folder, { recursive: true }).catch(() => {});
  return (await lstat(folder).catch(() => undefined))?.isDirectory() === true;
}

/**
 * Marks cache entries as used by this build: their modification time becomes now. lutimes: an
 * entry that is a link has its own time set, never that of what it points to.
 */
export async function markUsed(...entries: string[]): Promise<void> {
  const now = new Date();
  await Promise.all(entries.map((entry) => lutimes(entry, now, now).catch(() => {})));
}

const KEY = '[0-9a-f]{64}';
/** A temporary file of writeFileAtomic (`<name>.<pid>-<n>.tmp`), left by a killed build. */
const TEMPORARY = '(?:\\.\\d+-\\d+\\.tmp)?';
/** The names the image stage gives what it writes in each of its folders, and nothing else. */
const OWN_NAMES = [
  { dir: madeDir, name: new RegExp(`^${KEY}(?:\\.json)?${TEMPORARY}$`), folders: true },
  { dir: downloadsDir, name: new RegExp(`^${KEY}(?:\\.json)?${TEMPORARY}$`), folders: false },
  { dir: shareDir, name: new RegExp(`^${KEY}\\.png${TEMPORARY}$`), folders: false },
];
/** The files in a folder of made images (process-images.ts): `{stem}-{width}.{format}`, `{stem}-share.jpg`. */
const MADE_FILE = new RegExp(`^[0-9a-f]{16}-(?:\\d+\\.(?:avif|webp|jpg|png)|share\\.jpg)${TEMPORARY}$`);

/**
 * Removes from the image caches what no build has used for KEEP_UNUSED_MS, so that they do not
 * grow with every picture ever replaced; left-overs of a killed build (temporary files, an entry
 * half made) go the same way. Only what bears a name the stage gives, and in a folder of made
 * images only its files: a file of someone's put there is left, and so is the folder holding it.
 * The folders themselves were checked not to be links when the build began (ownFolderProblems),
 * and a link found here is removed as a link, never followed.
 */
export async function pruneImageCaches(root: string): Promise<void> {
  const before = Date.now() - KEEP_UNUSED_MS;
  for (const { dir, name: own, folders } of OWN_NAMES) {
    for (const name of await readdir(dir(root)).catch(() => [])) {
      if (!own.test(name)) continue;
      const entry = path.join(dir(root), name);
      const found = await lstat(entry).catch(() => undefined);
      if (!found || found.mtimeMs >= before) continue;
      if (!found.isDirectory()) await rm(entry, { force: true });
      else if (folders) await pruneMadeFolder(entry);
    }
  }
}

/** A folder of made images: its own files, then the folder when nothing else is left in it. */
async function pruneMadeFolder(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [])) {
    if (MADE_FILE.test(name) && !(await lstat(path.join(folder, name)).catch(() => undefined))?.isDirectory())
      await rm(path.join(folder, name), { force: true });
  }
  await rmdir(folder).catch(() => {});
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
    // Not recursive: a folder under a card's name is not the build's.
    if (/^[0-9a-f]{64}\.png$/.test(name) && !kept.has(name))
      await rm(path.join(dir, name), { force: true }).catch(() => {});
  }
}
