import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { isRunning } from '../util/is-running.js';

/**
 * The output folder belongs to the user: a build replaces it whole, so it may hold only files a
 * build wrote. What sits beside it, for `dist`:
 *
 *   .dist.build-<pid>-<time>/   a build's new site, until it is renamed to `dist`
 *   .dist.old-<pid>-<time>/     the previous site, moved aside during the switch, then removed
 *   .dist.files-<id>.json       the files a build wrote into the folder whose identity is <id>
 *
 * The record is beside the folder, not in it, so no host publishes it; it is named after the
 * folder's identity (its inode, which a rename keeps), so whichever folder is `dist` after a
 * kill, its own record is found.
 */

/** The kinds of entry beside an output folder. */
type Beside = 'build' | 'old' | 'link';

/** The name of an entry of this kind beside `outDir`, made by this process now. */
export function besideName(outDir: string, kind: 'build' | 'old'): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.${kind}-${process.pid}-${Date.now()}`);
}

/** The kind and process id of an entry beside `outDir`, or undefined for anything else. */
function besideOf(outDir: string, name: string): { kind: Beside; pid: number } | undefined {
  const prefix = `.${path.basename(outDir)}.`;
  if (!name.startsWith(prefix)) return undefined;
  // `link-` and `build-…-old` are what builds that made `dist` a symbolic link left.
  const match = /^(build|old|link)-(\d+)-(\d+|old)$/.exec(name.slice(prefix.length));
  if (!match) return undefined;
  const kind = match[3] === 'old' ? 'old' : (match[1] as Beside);
  return { kind, pid: Number(match[2]) };
}

/**
 * A folder's identity: its inode, which a rename keeps and a folder made again in its place
 * does not (unless the system gives it the freed number; its files are still checked by name).
 * Not the birth time: where the system keeps none, Node reports the change time, which a rename
 * changes.
 */
function identity(dir: string): string {
  return String(statSync(dir, { bigint: true }).ino);
}

const recordPath = (outDir: string, id: string) => path.join(path.dirname(outDir), `.${path.basename(outDir)}.files-${id}.json`);

/** Writes the record of the files a build wrote into `dir` (before it becomes the output folder). */
export function writeRecord(outDir: string, dir: string, files: readonly string[]): void {
  const file = recordPath(outDir, identity(dir));
  writeFileSync(`${file}.${process.pid}.tmp`, `${JSON.stringify({ writtenBy: 'storefront build', files: [...files].sort() })}\n`);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/** The files the record says a build wrote into `dir`, or undefined when no build recorded it. */
function recorded(outDir: string, dir: string): Set<string> | undefined {
  try {
    const record = JSON.parse(readFileSync(recordPath(outDir, identity(dir)), 'utf8')) as { files?: unknown };
    return Array.isArray(record.files) ? new Set(record.files.map(String)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Files of the output folder no build wrote, as paths under it with forward slashes (an empty
 * folder no build made counts, with a slash). A folder that a build of the time when `dist` was
 * a symbolic link made is the build's whole.
 */
export function foreignFiles(outDir: string): string[] {
  const found = lstatSync(outDir, { throwIfNoEntry: false });
  if (!found) return [];
  if (found.isSymbolicLink()) return isBuildLink(outDir) ? [] : ['(the output path is a link that no build made)'];
  if (!found.isDirectory()) return ['(the output path is a file, not a folder)'];
  const own = recorded(outDir, outDir) ?? new Set<string>();
  const ownFolders = new Set([...own].flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`)));
  const foreign: string[] = [];
  const walk = (dir: string, under: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.length === 0 && under && !ownFolders.has(under)) foreign.push(under);
    for (const entry of entries) {
      const rel = under + entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${rel}/`);
      else if (!(entry.isFile() && own.has(rel))) foreign.push(rel);
    }
  };
  walk(outDir, '');
  return foreign.sort();
}

/** Whether `outDir` is the link to a build folder beside it that builds made before the output was a real folder. */
export function isBuildLink(outDir: string): boolean {
  if (!lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink()) return false;
  const target = readlinkSync(outDir);
  return besideOf(outDir, target)?.kind === 'build' && !target.includes('/');
}

/** Refuses an output folder that holds anything no build wrote, naming up to five entries. */
export function refuseForeignFiles(outDir: string): void {
  const foreign = foreignFiles(outDir);
  if (foreign.length === 0) return;
  const named = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? ` and ${foreign.length - 5} more` : '');
  throw new StorefrontError(
    {
      code: codes.badFlag,
      file: outDir,
      message: `The output folder holds files that no build wrote: ${named}. A build replaces the folder whole, so it would delete them.`,
      hint: 'Move those files elsewhere, or build into an empty or new folder with --out. If the folder is an old build, delete it.',
    },
    'Nothing was written; the folder is as it was.',
  );
}

/**
 * Puts back a previous site that a killed build had moved aside, when nothing took its place:
 * the build, `preview` and `check` all call it first.
 */
export function restoreOutputFolder(outDir: string): void {
  const parent = path.dirname(outDir);
  if (lstatSync(outDir, { throwIfNoEntry: false }) || !lstatSync(parent, { throwIfNoEntry: false })) return;
  // The newest, should kills have left several.
  const time = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? 0);
  const aside = readdirSync(parent)
    .filter((name) => {
      const found = besideOf(outDir, name);
      return found?.kind === 'old' && !isRunning(found.pid);
    })
    .sort((a, b) => time(a) - time(b))
    .pop();
  if (aside) renameSync(path.join(parent, aside), outDir);
}

/**
 * Removes what no build uses beside `outDir`: folders of builds that were killed or failed,
 * previous sites moved aside, links of the symbolic-link days, and records of folders that are
 * gone. The output folder and what a build still running uses stay.
 */
export function removeLeftovers(outDir: string): void {
  const parent = path.dirname(outDir);
  const names = readdirSync(parent);
  const ids = new Set<string>();
  const current = lstatSync(outDir, { throwIfNoEntry: false });
  const linkedTo = current?.isSymbolicLink() ? readlinkSync(outDir) : undefined;
  for (const name of names) {
    const found = besideOf(outDir, name);
    if (!found) continue;
    if (name !== linkedTo && (found.pid === process.pid || !isRunning(found.pid))) rmSync(path.join(parent, name), { recursive: true, force: true });
    else if (lstatSync(path.join(parent, name)).isDirectory()) ids.add(identity(path.join(parent, name)));
  }
  if (current?.isDirectory()) ids.add(identity(outDir));
  const prefix = `.${path.basename(outDir)}.files-`;
  for (const name of names) {
    const id = name.startsWith(prefix) && name.endsWith('.json') ? name.slice(prefix.length, -'.json'.length) : undefined;
    if (id !== undefined && !ids.has(id)) rmSync(path.join(parent, name), { force: true });
  }
}
