import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 *   .dist.files-<inode>.json    the files, with their sizes, a build wrote into a folder
 *
 * The records are beside the folder, not in it, so no host publishes them. A file of the folder
 * is the build's when a record names it with its size: whichever folder is `dist` after a kill,
 * its record is there (each build writes its own before the switch), and a project copied
 * elsewhere (`cp -a`, a backup, a CI cache) brings its records along.
 */

/** Files a desktop leaves in any folder it shows; a build may remove them. */
const DESKTOP_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** A number for the names a process makes, so that two made in one millisecond differ. */
let made = 0;

/** The name of an entry of this kind beside `outDir`, made by this process now. */
export function besideName(outDir: string, kind: 'build' | 'old'): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.${kind}-${process.pid}-${Date.now() * 1000 + (made++ % 1000)}`);
}

/** The kind, process id and time of an entry beside `outDir` made by a build, or undefined for anything else. */
function besideOf(outDir: string, name: string): { kind: 'build' | 'old' | 'record'; pid: number; time: number } | undefined {
  const prefix = `.${path.basename(outDir)}.`;
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(build|old)-(\d+)-(\d+)$/.exec(name.slice(prefix.length));
  if (match) return { kind: match[1] as 'build' | 'old', pid: Number(match[2]), time: Number(match[3]) };
  // A record, or one being written (`.json.<pid>.tmp`).
  const record = /^files-\d+\.json(?:\.(\d+)\.tmp)?$/.exec(name.slice(prefix.length));
  return record ? { kind: 'record', pid: Number(record[1] ?? 0), time: 0 } : undefined;
}

/** Whether the build that made an entry may still be using it: not this process, and still running. */
const inUse = (pid: number) => pid !== 0 && pid !== process.pid && isRunning(pid);

const recordPath = (outDir: string, dir: string) =>
  path.join(path.dirname(outDir), `.${path.basename(outDir)}.files-${statSync(dir, { bigint: true }).ino}.json`);

/** Writes the record of the files, with their sizes, a build wrote into `dir` (before it becomes the output folder). */
export function writeRecord(outDir: string, dir: string, files: ReadonlyMap<string, number>): void {
  const file = recordPath(outDir, dir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ writtenBy: 'storefront build', files: Object.fromEntries([...files].sort()) })}\n`);
  renameSync(temporary, file);
}

/** Every file, with the sizes it had, that the records beside `outDir` name. */
function recordedFiles(outDir: string): Map<string, Set<number>> {
  const known = new Map<string, Set<number>>();
  const parent = path.dirname(outDir);
  for (const name of readdirSync(parent)) {
    if (besideOf(outDir, name)?.kind !== 'record' || !name.endsWith('.json')) continue;
    try {
      const { files } = JSON.parse(readFileSync(path.join(parent, name), 'utf8')) as { files?: Record<string, unknown> };
      for (const [file, size] of Object.entries(files ?? {})) {
        if (typeof size === 'number') known.set(file, (known.get(file) ?? new Set()).add(size));
      }
    } catch {
      // Removed by a build meanwhile, or not a record: it names nothing.
    }
  }
  return known;
}

/** Past this many, the folder is not walked further: it is plainly not a build. */
const MAX_LISTED = 100;

/**
 * Files of the output folder no build wrote: those no record names, and those a record names
 * with another size (changed by hand since), as paths under it with forward slashes; an empty
 * folder no build made counts, with a slash. At most MAX_LISTED, with a last `…` when there are
 * more.
 */
export function foreignFiles(outDir: string): string[] {
  const found = lstatSync(outDir, { throwIfNoEntry: false });
  if (!found) return [];
  if (found.isSymbolicLink()) return ['(the output path is a link)'];
  if (!found.isDirectory()) return ['(the output path is a file, not a folder)'];
  const own = recordedFiles(outDir);
  const ownFolders = new Set([...own.keys()].flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`)));
  const foreign: string[] = [];
  const walk = (dir: string, under: string) => {
    // A folder another build renames or removes meanwhile holds nothing of the user's.
    const entries = (() => {
      try {
        return readdirSync(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    })();
    for (const entry of entries) {
      if (foreign.length >= MAX_LISTED) return;
      const rel = under + entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!ownFolders.has(`${rel}/`) && readdirSync(full).length === 0) foreign.push(`${rel}/`);
        else walk(full, `${rel}/`);
      } else if (DESKTOP_FILES.has(entry.name)) {
        continue;
      } else if (!entry.isFile() || !own.has(rel)) {
        foreign.push(rel);
      } else if (!own.get(rel)!.has(lstatSync(full, { throwIfNoEntry: false })?.size ?? -1)) {
        // Written by a build, then changed: the change is someone's work.
        foreign.push(`${rel} (changed since a build wrote it)`);
      }
    }
  };
  walk(outDir, '');
  return foreign.length >= MAX_LISTED ? [...foreign.sort(), '…'] : foreign.sort();
}

/** Refuses an output folder that holds anything no build wrote, naming up to five entries. */
export function refuseForeignFiles(outDir: string): void {
  const foreign = foreignFiles(outDir);
  if (foreign.length === 0) return;
  const more = foreign.at(-1) === '…' ? 'more' : `${foreign.length - 5} more`;
  const named = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? ` and ${more}` : '');
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
 * the build, `preview` and `check` all call it first. A build of this process id that is not
 * this one (ids are used again, in containers at once) is a killed one.
 */
export function restoreOutputFolder(outDir: string): void {
  const parent = path.dirname(outDir);
  if (lstatSync(outDir, { throwIfNoEntry: false }) || !lstatSync(parent, { throwIfNoEntry: false })) return;
  const aside = readdirSync(parent)
    .map((name) => ({ name, found: besideOf(outDir, name) }))
    .filter(({ found }) => found?.kind === 'old' && !inUse(found.pid))
    .sort((a, b) => a.found!.time - b.found!.time)
    .pop();
  if (aside) renameSync(path.join(parent, aside.name), outDir);
}

/**
 * Removes what no build uses beside `outDir`: folders of builds that were killed or failed, and
 * previous sites moved aside; with `records`, also the records of folders that are gone (after
 * a switch: before it, a record may be all that vouches for a copied folder). What a build still
 * running uses stays. Another build may rename or remove an entry meanwhile: what is gone is gone.
 */
export function removeLeftovers(outDir: string, records = false): void {
  const parent = path.dirname(outDir);
  const names = readdirSync(parent);
  const folders = new Set<string>();
  const ino = (dir: string) => statSync(dir, { bigint: true, throwIfNoEntry: false })?.ino;
  for (const name of names) {
    const found = besideOf(outDir, name);
    if (!found || found.kind === 'record') continue;
    if (inUse(found.pid)) folders.add(String(ino(path.join(parent, name))));
    else rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  if (!records) return;
  folders.add(String(ino(outDir)));
  const prefix = `.${path.basename(outDir)}.files-`;
  for (const name of names) {
    const found = besideOf(outDir, name);
    if (found?.kind !== 'record') continue;
    const stale = name.endsWith('.tmp') ? !inUse(found.pid) : !folders.has(name.slice(prefix.length, -'.json'.length));
    if (stale) rmSync(path.join(parent, name), { force: true });
  }
}
