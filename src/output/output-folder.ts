import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, StorefrontError } from '../errors/storefront-error.js';
import { isRunning } from '../util/is-running.js';
import { isPlainFile, matchesRecord, readRecord, recordName, recordedFiles, type Recorded } from './output-record.js';

/**
 * The output folder belongs to the user: a build replaces it whole, so it may hold only files a
 * build wrote. What sits beside it, for `dist`:
 *
 *   .dist.build-<pid>-<time>/   a build's new site, until it is renamed to `dist`
 *   .dist.old-<pid>-<time>/     the previous site, moved aside during the switch, then removed
 *   .dist.files-<inode>.json    the files, with their sizes and hashes, a build wrote into a folder
 *
 * The records are beside the folder, not in it, so no host publishes them. A file of the folder
 * is the build's when a record signed with the project's key gives its bytes (output-record.ts,
 * record-key.ts); a record that proves nothing stops the build. Whichever folder is `dist`
 * after a kill, its record is there (each build writes its own before the switch), and a project
 * copied elsewhere (`cp -a`, a backup, a CI cache) brings its records along.
 *
 * A name proves nothing: anyone can make a folder called `.dist.old-1-1`. A folder beside is a
 * build's leftover when it holds the marker a build writes into it (MARKER), or when a record was
 * written for it and gives the bytes of every file in it (a killed build may have removed the
 * marker already).
 */

/** Files a desktop leaves in any folder it shows; a build may remove them. */
const DESKTOP_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/**
 * The marker a build writes into its new folder, and into the previous site once moved aside.
 * Hidden (no route may start with a dot, SF125), and never in the output folder: removed before
 * the new folder is renamed into place.
 */
export const MARKER = '.storefront-build.json';

interface Marker {
  kind: 'build' | 'old';
  pid: number;
  /** For a previous site moved aside: the new folder it made way for. */
  for?: string;
}

/** A number for the names a process makes, so that two made in one millisecond differ. */
let made = 0;

/** The name of an entry of this kind beside `outDir`, made by this process now. */
export function besideName(outDir: string, kind: 'build' | 'old'): string {
  return path.join(
    path.dirname(outDir),
    `.${path.basename(outDir)}.${kind}-${process.pid}-${Date.now() * 1000 + (made++ % 1000)}`,
  );
}

/**
 * The kind, process id and time its name gives an entry beside `outDir`, or undefined for a name a
 * build never makes.
 */
function besideOf(
  outDir: string,
  name: string,
): { kind: 'build' | 'old' | 'record'; pid: number; time: number } | undefined {
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

/** Marks a folder as a build's: written first into a new one, so that a build killed at any moment leaves it marked. */
export function markFolder(dir: string, marker: Marker): void {
  writeFileSync(path.join(dir, MARKER), `${JSON.stringify({ writtenBy: 'storefront build', ...marker })}\n`);
}

export const unmarkFolder = (dir: string) => rmSync(path.join(dir, MARKER), { force: true });

/** The marker of a real folder (never through a link), or undefined when it has none. */
function markerOf(dir: string): Marker | undefined {
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() || !isPlainFile(path.join(dir, MARKER)))
    return undefined;
  try {
    const marker = JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8')) as Record<string, unknown>;
    const valid =
      marker.writtenBy === 'storefront build' &&
      (marker.kind === 'build' || marker.kind === 'old') &&
      Number.isSafeInteger(marker.pid);
    return valid
      ? {
          kind: marker.kind as Marker['kind'],
          pid: marker.pid as number,
          for: typeof marker.for === 'string' ? marker.for : undefined,
        }
      : undefined;
  } catch {
    // None, half written, or not JSON: no proof the folder is a build's.
    return undefined;
  }
}

/** Past this many, a folder is not walked further: it is plainly not a build. */
const MAX_LISTED = 100;

/**
 * Files of `dir` no build wrote: those no record gives the bytes of, as paths under it with
 * forward slashes and why; an empty folder no build made counts, with a slash. At most
 * MAX_LISTED. Also how many files are a build's.
 */
function survey(dir: string, recorded: Recorded): { foreign: string[]; own: number } {
  const ownFolders = new Set(
    [...recorded.files.keys()].flatMap((file) =>
      file
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
    ),
  );
  const foreign: string[] = [];
  let own = 0;
  const walk = (current: string, under: string) => {
    // A folder another build renames or removes meanwhile holds nothing of the user's.
    const entries = (() => {
      try {
        return readdirSync(current, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    })();
    for (const entry of entries) {
      if (foreign.length >= MAX_LISTED) return;
      const rel = under + entry.name;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!ownFolders.has(`${rel}/`) && readdirSync(full).length === 0) foreign.push(`${rel}/`);
        else walk(full, `${rel}/`);
      } else if (DESKTOP_FILES.has(entry.name)) {
        // A file the desktop makes on its own (.DS_Store, Thumbs.db): no one's work.
      } else if (!entry.isFile() || !recorded.files.has(rel)) {
        foreign.push(rel);
      } else if (!lstatSync(full, { throwIfNoEntry: false })) {
        // Gone since the folder was listed: another build swapped its site in meanwhile, and what
        // it moved aside and removed held nothing of the user's (as the listing above).
      } else if (!matchesRecord(full, recorded.files.get(rel)!)) {
        // Written by a build, then changed, even keeping its size: the change is someone's work.
        foreign.push(`${rel} (changed since a build wrote it)`);
      } else {
        own += 1;
      }
    }
  };
  walk(dir, '');
  return { foreign, own };
}

const recordsOf = (outDir: string, key: Buffer) =>
  recordedFiles(outDir, (name) => besideOf(outDir, name)?.kind === 'record', key);

/**
 * Files of the output folder no build wrote (see survey), sorted, with a last `…` when there
 * are more than MAX_LISTED.
 */
function foreignFiles(outDir: string, recorded: Recorded): string[] {
  const found = lstatSync(outDir, { throwIfNoEntry: false });
  if (!found) return [];
  if (found.isSymbolicLink()) return ['(the output path is a link)'];
  if (!found.isDirectory()) return ['(the output path is a file, not a folder)'];
  const { foreign } = survey(outDir, recorded);
  return foreign.length >= MAX_LISTED ? [...foreign.sort(), '…'] : foreign.sort();
}

/**
 * Refuses a record beside the output folder that proves nothing, naming each, whether or not
 * the folder is there: such a record may be all that says which files a build wrote, so every
 * file is kept until it is gone. Then refuses an output folder that holds anything no build wrote,
 * naming up to five entries. `key`: the project's (record-key.ts).
 */
export function refuseForeignFiles(outDir: string, key: Buffer): void {
  const recorded = recordsOf(outDir, key);
  if (recorded.untrusted.length > 0)
    throw new StorefrontError(
      recorded.untrusted.map(({ file, why }) => problem('outputRecordUntrusted', { why }, { file })),
      NOTHING_WRITTEN,
    );
  const foreign = foreignFiles(outDir, recorded);
  if (foreign.length === 0) return;
  throw new StorefrontError(
    problem('outputHoldsForeignFiles', { files: foreign }, { file: outDir }),
    'Nothing was written; the folder is as it was.',
  );
}

/**
 * Puts back a previous site that a build killed between its two renames had moved aside: only
 * the build calls it, first (`check` and `preview` read what is there). The site moved aside is
 * marked with the new folder it made way for; while that folder is still beside, unrenamed, the
 * build was killed in between. Once it was renamed into place, the output folder is gone because
 * someone removed it, and an older site is no answer to that. A build of this process id that is
 * not this one (ids are used again, in containers at once) is a killed one.
 */
export function restoreOutputFolder(outDir: string): void {
  const parent = path.dirname(outDir);
  if (lstatSync(outDir, { throwIfNoEntry: false }) || !lstatSync(parent, { throwIfNoEntry: false })) return;
  const aside = readdirSync(parent)
    .map((name) => ({ name, found: besideOf(outDir, name) }))
    .filter(({ found }) => found?.kind === 'old')
    .map((entry) => ({ ...entry, marker: markerOf(path.join(parent, entry.name)) }))
    .filter(({ marker }) => {
      if (marker?.kind !== 'old' || inUse(marker.pid) || !marker.for || besideOf(outDir, marker.for)?.kind !== 'build')
        return false;
      return lstatSync(path.join(parent, marker.for), { throwIfNoEntry: false })?.isDirectory() === true;
    })
    .sort((a, b) => a.found!.time - b.found!.time)
    .pop();
  if (!aside) return;
  const dir = path.join(parent, aside.name);
  // The marker first: the output folder never holds it.
  unmarkFolder(dir);
  renameSync(dir, outDir);
}

/**
 * Whether an entry beside the output folder, named as a build names them, is a build's
 * leftover to remove, one a running build still uses, or someone's own folder to keep.
 */
function leftoverState(
  outDir: string,
  dir: string,
  byName: { pid: number; kind: string },
  recorded: () => Recorded,
): 'leftover' | 'in use' | 'kept' {
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return 'kept';
  const marker = markerOf(dir);
  if (marker?.kind === byName.kind) return inUse(marker.pid) ? 'in use' : 'leftover';
  if (inUse(byName.pid)) return 'in use';
  // A killed build's folder whose marker was already removed: a trusted record was written for this
  // very folder (a copy someone made has another inode), and every file is one a record gives the bytes of.
  const records = recorded();
  if (!records.trusted.has(recordName(outDir, dir))) return 'kept';
  const { foreign, own } = survey(dir, records);
  return foreign.length === 0 && own > 0 ? 'leftover' : 'kept';
}

/**
 * Removes what no build uses beside `outDir`: folders of builds that were killed or failed, and
 * previous sites moved aside; with `records`, also the records signed with `key` (the project's)
 * of folders that are gone (after a switch: before it, a record may be all that vouches for a
 * copied folder). What a build still running uses stays, and so does anything a build did not
 * make, whatever its name. Another build may rename or remove an entry meanwhile: what is gone
 * is gone.
 */
export function removeLeftovers(outDir: string, key: Buffer, records = false): void {
  const parent = path.dirname(outDir);
  const names = readdirSync(parent);
  const folders = new Set<string>();
  const ino = (dir: string) => statSync(dir, { bigint: true, throwIfNoEntry: false })?.ino;
  let recorded: Recorded | undefined;
  for (const name of names) {
    const found = besideOf(outDir, name);
    if (!found || found.kind === 'record') continue;
    const dir = path.join(parent, name);
    const state = leftoverState(outDir, dir, found, () => (recorded ??= recordsOf(outDir, key)));
    if (state === 'in use') folders.add(String(ino(dir)));
    else if (state === 'leftover') rmSync(dir, { recursive: true, force: true });
  }
  if (!records) return;
  folders.add(String(ino(outDir)));
  const prefix = `.${path.basename(outDir)}.files-`;
  for (const name of names) {
    const found = besideOf(outDir, name);
    if (found?.kind !== 'record') continue;
    const stale = name.endsWith('.tmp') ? !inUse(found.pid) : !folders.has(name.slice(prefix.length, -'.json'.length));
    // Only a record signed with the project's key is the build's to remove: any other file stays.
    const record = stale ? readRecord(path.join(parent, name), outDir, key) : undefined;
    if (record && 'files' in record) rmSync(path.join(parent, name), { force: true });
  }
}
