import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { problem } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';

/**
 * Every file the build reads from the project is checked before a byte of it is read: only a
 * regular file, and only up to a limit. Opening a named pipe (FIFO) waits for a writer forever
 * (in dev, a rebuild that never ends), a device such as /dev/zero never ends, and a 3 GB post
 * read whole fills the memory before its size could be checked.
 */

/** One kind of file the build reads, with its limit and how a problem with it is reported. */
export interface FileKind {
  /** "a content file", "a post", "an image": how the limit is named in the message. */
  name: string;
  limit: number;
  /** The problems of a file over the limit, and of one that grew past it while it was read. */
  overLimit: 'yamlFileOverLimit' | 'markdownFileOverLimit' | 'imageFileOverLimit';
  grewPastLimit: 'yamlFileGrewPastLimit' | 'markdownFileGrewPastLimit' | 'imageFileGrewPastLimit';
}

/** What a path that is not a regular file is, in words; undefined for a regular file. */
export function whatItIs(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** A size as people read it: KB below a megabyte, MB below a gigabyte, else GB (all of 1,024). */
export function sizeInWords(bytes: number): string {
  const [unit, name] = bytes < 1024 ** 2 ? [1024, 'KB'] : bytes < 1024 ** 3 ? [1024 ** 2, 'MB'] : [1024 ** 3, 'GB'];
  return `${unit === 1024 ? Math.ceil(bytes / unit) : Math.round((bytes / unit) * 10) / 10} ${name}`;
}

/** A size over `limit`, in bytes when it would read the same as the limit in words ("25 MB, more than the 25 MB"). */
function overLimit(bytes: number, limit: number): string {
  return sizeInWords(bytes) === sizeInWords(limit) ? `${bytes.toLocaleString('en-GB')} bytes` : sizeInWords(bytes);
}

/**
 * The file's size when `real` (a resolved path, see insideProject) is a regular file within the
 * limit; else a problem for `file` (the path shown, maybe a link to `real`) and undefined.
 * Nothing is opened: stat reads the folder's entry, so a pipe or a device is never waited on.
 */
export function checkFile(
  real: string,
  file: string,
  kind: FileKind,
  problems: ProblemList,
  shown = real,
): number | undefined {
  const stats = statSync(real);
  return judge(stats, file, kind, problems, lstatSync(shown, { throwIfNoEntry: false })?.isSymbolicLink() === true);
}

function judge(stats: Stats, file: string, kind: FileKind, problems: ProblemList, link: boolean): number | undefined {
  const what = whatItIs(stats);
  if (what) {
    problems.add(problem('notARegularFile', { what, link }, { file }));
    return undefined;
  }
  if (stats.size > kind.limit) return tooLarge(stats.size, file, kind, problems);
  return stats.size;
}

function tooLarge(size: number, file: string, kind: FileKind, problems: ProblemList, grew = false): undefined {
  const limit = sizeInWords(kind.limit);
  problems.add(
    grew
      ? problem(kind.grewPastLimit, { limit, kind: kind.name }, { file })
      : problem(kind.overLimit, { size: overLimit(size, kind.limit), limit, kind: kind.name }, { file }),
  );
  return undefined;
}

/**
 * The bytes of a regular file within the limit, or a problem (see checkFile) and undefined. The
 * file is opened without waiting (O_NONBLOCK: a pipe put in its place after the check does not
 * hang the open) and checked again through the open descriptor; no more than the limit is read
 * even if it grows meanwhile.
 */
export function readBounded(
  real: string,
  file: string,
  kind: FileKind,
  problems: ProblemList,
  shown = real,
): Buffer | undefined {
  return readChecked(real, file, kind, problems, { shown })?.bytes;
}

/**
 * As readBounded, with the file's size as fstat saw it on the open descriptor; with `most`, only
 * the first `most` bytes are read (a head, or a tighter limit the caller words itself). The type
 * and size are judged after the open, on the descriptor: what stat saw before is only a first
 * look, so that a device is not opened at all in the usual case.
 */
export function readChecked(
  real: string,
  file: string,
  kind: FileKind,
  problems: ProblemList,
  { shown = real, most }: { shown?: string; most?: number } = {},
): { bytes: Buffer; size: number } | undefined {
  if (checkFile(real, file, kind, problems, shown) === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    // A socket put in its place since the check cannot be opened (ENXIO): named as what it is now.
    const now = statSync(real, { throwIfNoEntry: false });
    if (!now || !whatItIs(now)) throw error;
    judge(now, file, kind, problems, false);
    return undefined;
  }
  try {
    const size = judge(fstatSync(fd), file, kind, problems, false);
    if (size === undefined) return undefined;
    const wanted = Math.min(kind.limit + 1, most ?? Number.POSITIVE_INFINITY);
    // One byte more than the limit: reading it means the file grew past the limit.
    const buffer = Buffer.allocUnsafe(Math.min(wanted, Math.max(size, 64 * 1024)));
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > kind.limit) return tooLarge(kind.limit, file, kind, problems, true);
    return { bytes: buffer.subarray(0, length), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a file the build keeps for itself (a cache), or undefined when it is missing, not
 * a regular file or over `limit`: opened without waiting and judged on the open descriptor, so a
 * named pipe in its place is passed over, never waited on. The caller makes such an entry again.
 */
export function readOwnFile(file: string, limit: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > limit) return undefined;
    const buffer = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(stats.size, 64 * 1024)));
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    return length > limit ? undefined : buffer.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
