import { createHash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The records of what builds wrote, beside the output folder (`.dist.files-<inode>.json` for
 * `dist`): each file a build wrote, with its size and the SHA-256 of its bytes. A file is the
 * build's only when its bytes are the ones recorded: a record written by hand cannot know the
 * bytes of a file it did not see written, so it vouches for nothing else, and an edit by hand
 * that keeps a file's size is still an edit.
 */

/** What a build wrote of one file. */
export interface Written {
  size: number;
  sha256: string;
}

/** How every record begins: what tells a record from a file of the same name someone else made. */
const RECORD_START = '{"writtenBy":"storefront build"';

/** The SHA-256 of some bytes, in hex. */
export const sha256 = (contents: string | Buffer): string => createHash('sha256').update(contents).digest('hex');

/** The SHA-256 of a file's bytes, read a megabyte at a time: a file of any size costs no more memory. */
export function fileSha256(file: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Whether a path is a plain file: a record or a marker is read only then, as a FIFO of that name
 * would block the build for ever and a link may lead anywhere.
 */
export const isPlainFile = (file: string): boolean => lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;

/** Whether a file beside the output folder begins as a record does (written by a build, whole or not). */
export function looksLikeRecord(file: string): boolean {
  if (!isPlainFile(file)) return false;
  try {
    const fd = openSync(file, 'r');
    try {
      const start = Buffer.alloc(RECORD_START.length);
      return readSync(fd, start) === start.length && start.toString('utf8') === RECORD_START;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

export const recordName = (outDir: string, dir: string): string =>
  `.${path.basename(outDir)}.files-${statSync(dir, { bigint: true }).ino}.json`;

/** Writes the record of the files a build wrote into `dir` (before it becomes the output folder). */
export function writeRecord(outDir: string, dir: string, files: ReadonlyMap<string, Written>): void {
  const file = path.join(path.dirname(outDir), recordName(outDir, dir));
  const temporary = `${file}.${process.pid}.tmp`;
  const body = JSON.stringify({
    writtenBy: 'storefront build',
    files: Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : 1))),
  });
  writeFileSync(temporary, `${body}\n`);
  renameSync(temporary, file);
}

/** What the records beside an output folder name. */
export interface Recorded {
  /** Each file, with every size and hash a record gives it. */
  files: Map<string, Written[]>;
  /** Files named only by records of earlier versions, which kept sizes without hashes: they vouch for nothing. */
  unhashed: Set<string>;
}

const isWritten = (value: unknown): value is Written =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Written).size === 'number' &&
  typeof (value as Written).sha256 === 'string' &&
  /^[0-9a-f]{64}$/.test((value as Written).sha256);

/** Every file the records beside `outDir` name; `isRecord` tells a record's name. */
export function recordedFiles(outDir: string, isRecord: (name: string) => boolean): Recorded {
  const recorded: Recorded = { files: new Map(), unhashed: new Set() };
  const parent = path.dirname(outDir);
  for (const name of readdirSync(parent)) {
    if (!isRecord(name) || !name.endsWith('.json') || !isPlainFile(path.join(parent, name))) continue;
    try {
      const { files } = JSON.parse(readFileSync(path.join(parent, name), 'utf8')) as {
        files?: Record<string, unknown>;
      };
      for (const [file, written] of Object.entries(files ?? {})) {
        if (isWritten(written))
          recorded.files.set(file, [
            ...(recorded.files.get(file) ?? []),
            { size: written.size, sha256: written.sha256 },
          ]);
        else if (typeof written === 'number') recorded.unhashed.add(file);
      }
    } catch {
      // Removed by a build meanwhile, or not a record: it names nothing.
    }
  }
  return recorded;
}

/**
 * Hashes this process has read, by path, with the state of the file then. A build looks at the
 * output folder twice (before its work and just before the switch), and dev at every rebuild: a
 * file whose change time has not moved since was not written to (no call can set the change
 * time), so its bytes are read once. Only this process's own readings count: nothing on disk.
 */
const hashed = new Map<string, { state: string; sha256: string }>();

/** Whether a file's bytes are those a record gives it: the size first, so that most changes cost no reading. */
export function matchesRecord(file: string, written: readonly Written[]): boolean {
  const found = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  if (!found?.isFile()) return false;
  const candidates = written.filter((w) => BigInt(w.size) === found.size);
  if (candidates.length === 0) return false;
  const state = `${found.dev}:${found.ino}:${found.size}:${found.mtimeNs}:${found.ctimeNs}`;
  let actual = hashed.get(file);
  if (actual?.state !== state) {
    actual = { state, sha256: fileSha256(file) };
    hashed.set(file, actual);
  }
  return candidates.some((w) => w.sha256 === actual.sha256);
}
