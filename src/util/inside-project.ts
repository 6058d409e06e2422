import { constants, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { codes, problem } from '../errors/catalogue.js';
import { ProblemList } from '../errors/storefront-error.js';

/**
 * The one check that keeps the build from reading a file from outside the project: a content
 * file (or any folder on its path) may be a symbolic link, but only to a place inside the
 * project folder. Otherwise `content/images/etc -> /etc` would publish the machine's files, and
 * a preview build of an untrusted pull request (Netlify and Cloudflare build them) would do so on
 * the build service. Every reader of content asks this before it reads.
 */

/** Where a path really is, or why it may not be read. */
export type Resolved =
  | { inside: true; real: string }
  /** `link` is the first link on the path whose target leaves `boundary` (or is missing), absolute. */
  | { inside: false; link: string; target: string; missing: boolean; hidden?: boolean };

const realRoots = new Map<string, string>();
function realRoot(boundary: string): string {
  let real = realRoots.get(boundary);
  if (real === undefined) {
    real = realpathSync.native(boundary);
    realRoots.set(boundary, real);
  }
  return real;
}

/**
 * Whether `file` is `folder` or lies under it (both absolute and normalised): the one test of
 * containment, for every place that asks whether a path is inside a folder.
 */
export function isWithin(folder: string, file: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

/** Whether `file` lies under `folder`, not being `folder` itself. */
export const isBelow = (folder: string, file: string): boolean => file !== folder && isWithin(folder, file);

/**
 * The folder whose files a folder's links may reach: the project folder, or `dir` itself when
 * it lies outside the project (`build --posts ../blog-posts`, chosen by whoever runs the build).
 */
export function boundaryOf(root: string, dir: string): string {
  const absolute = path.resolve(root, dir);
  return isWithin(path.resolve(root), absolute) ? path.resolve(root) : absolute;
}

/**
 * Where `absolute` (a path under `boundary`, the project folder by default) really is, when that
 * is inside `boundary`'s real path; else the link on its path that leaves it. A path that does
 * not exist and has no link on it is `inside` (the reader reports it missing as it always did).
 */
export function resolveInside(absolute: string, boundary: string): Resolved {
  const top = realRoot(path.resolve(boundary));
  try {
    const real = realpathSync.native(absolute);
    if (isWithin(top, real)) {
      // A link inside the project may not lead to a hidden file or folder (.env, .git/, .cache/):
      // those are never content, and may hold secrets.
      const there = path.relative(top, real);
      const hidden =
        there !== path.relative(path.resolve(boundary), path.resolve(absolute)) &&
        there.split(path.sep).some((part) => part.startsWith('.'));
      return hidden
        ? { inside: false, link: path.resolve(absolute), target: real, missing: false, hidden }
        : { inside: true, real };
    }
  } catch {
    // Missing, or a link to nothing: found below.
  }
  // Which link leads out: each part of the path in turn, from the boundary down.
  const parts = path.relative(path.resolve(boundary), path.resolve(absolute)).split(path.sep).filter(Boolean);
  let current = path.resolve(boundary);
  for (const part of parts) {
    current = path.join(current, part);
    const found = lstatSync(current, { throwIfNoEntry: false });
    if (!found) return { inside: true, real: absolute };
    if (!found.isSymbolicLink()) continue;
    let target: string;
    let missing = false;
    try {
      target = realpathSync.native(current);
    } catch {
      target = path.resolve(path.dirname(current), readlinkSync(current));
      missing = true;
    }
    if (!isWithin(top, target) || missing) return { inside: false, link: current, target, missing };
  }
  // Out without a link on the path: the path itself is not under the boundary.
  return { inside: false, link: absolute, target: absolute, missing: false };
}

/**
 * The real path of `absolute` when it lies inside the project (or `boundary`); otherwise a
 * problem naming the link and its target, once per link however many files lie behind it, and
 * undefined: the caller then reads nothing.
 */
export function insideProject(
  root: string,
  absolute: string,
  problems: ProblemList,
  boundary = root,
): string | undefined {
  const resolved = resolveInside(absolute, boundary);
  if (resolved.inside) return resolved.real;
  const file = path.relative(root, resolved.link).split(path.sep).join('/') || resolved.link;
  if (problems.items.some((p) => (p.code === codes.outsideProject || p.code === codes.missingFile) && p.file === file))
    return undefined;
  const outside = !isWithin(realRoot(path.resolve(boundary)), resolved.target);
  const { target, missing } = resolved;
  problems.add(
    resolved.hidden
      ? problem('linkToHiddenFile', { target }, { file })
      : outside
        ? problem('linkOutOfProject', { target, folder: boundary === root ? undefined : boundary, missing }, { file })
        : problem('linkToNothing', { target }, { file }),
  );
  return undefined;
}

/** The most a file of .cache/ is read whole unless its reader says otherwise: a made image, a card. */
export const CACHE_FILE_LIMIT = 64 * 1024 * 1024;

/**
 * A file of the build's own caches (.cache/), or undefined when it is missing or is reached
 * through a link out of the project: the build writes plain files there, so a link is not its
 * own, and a key that can be worked out from the repository's images must not publish
 * `/etc/passwd` as a picture. The entry is then made again.
 */
export async function readCacheFile(
  absolute: string,
  root: string,
  limit = CACHE_FILE_LIMIT,
): Promise<Buffer | undefined> {
  const resolved = resolveInside(absolute, root);
  if (!resolved.inside) return undefined;
  // Only a regular file, opened without waiting (a named pipe in its place would block the build
  // for ever) and judged on the open descriptor; one over its limit is made again, not read.
  const handle = await open(resolved.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch(
    () => undefined,
  );
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > limit) return undefined;
    const bytes = await handle.readFile();
    return bytes.length > limit ? undefined : bytes;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The folders the storefront writes its own files into and prunes, relative to the project
 * folder: the CMS's posts and downloads, the images made, the share cards, the key the records
 * of the output are signed with (.storefront/record-key), the editors' schemas.
 */
export const OWN_FOLDERS = [
  '.cache/cms',
  '.cache/cms/images',
  '.cache/images',
  '.cache/share',
  '.storefront',
  '.storefront/schemas',
] as const;

/**
 * Adds a problem for each of `folders` (and each folder on its way from the project folder) that
 * is a symbolic link or not a folder, and for each link directly in one of them. The build makes
 * these folders and never a link in them, so a link was put there by someone else: a repository
 * can ship `.cache -> /home/someone` (`git add -f`), and writing the caches there, and pruning
 * them after 30 days, would write and delete someone's files. A missing folder is fine: the
 * build makes it. Asked before anything is written or deleted there.
 */
export function ownFolderProblems(root: string, folders: readonly string[], problems: ProblemList): void {
  const top = path.resolve(root);
  // Each folder once, and none below one refused (what lies behind a link is not looked at).
  const usable = new Map<string, boolean>();
  const nameOf = (at: string) => path.relative(top, at).split(path.sep).join('/');
  const linkTarget = (at: string) => {
    try {
      return { target: realpathSync.native(at), missing: false };
    } catch {
      return { target: path.resolve(path.dirname(at), readlinkSync(at)), missing: true };
    }
  };
  /** A link in `folder`, or, without one, a link in place of a folder of the list (or on the way to one). */
  const linkProblem = (at: string, folder?: string) => {
    const link = nameOf(at);
    problems.add(
      folder === undefined
        ? problem('ownFolderIsLink', { link, ...linkTarget(at) }, { file: link })
        : problem('linkInOwnFolder', { link, ...linkTarget(at), folder }, { file: link }),
    );
  };
  for (const folder of folders) {
    let current = top;
    for (const part of folder.split('/')) {
      current = path.join(current, part);
      if (usable.has(current)) {
        if (!usable.get(current)) break;
        continue;
      }
      const found = lstatSync(current, { throwIfNoEntry: false });
      usable.set(current, found?.isDirectory() === true);
      if (!found) break;
      if (found.isSymbolicLink()) linkProblem(current);
      else if (!found.isDirectory()) {
        problems.add(problem('fileInPlaceOfOwnFolder', {}, { file: nameOf(current) }));
      }
      if (!found.isDirectory()) break;
    }
  }
  // Then what lies in each: a folder of the list met here was looked at above already.
  for (const folder of folders) {
    const dir = path.join(top, folder);
    if (!usable.get(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isSymbolicLink() && !usable.has(at)) linkProblem(at, folder);
    }
  }
}

/** Throws the problems of ownFolderProblems, if any, before a command reads or writes one of `folders`. */
export function refuseForeignOwnFolders(root: string, folders: readonly string[], footer?: string): void {
  const problems = new ProblemList();
  ownFolderProblems(root, folders, problems);
  problems.throwIfAny(footer);
}
