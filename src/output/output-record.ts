import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { RecordDistrust } from '../errors/catalogue.js';
import { sizeInWords, whatItIs } from '../util/read-bounded.js';

/**
 * The records of what builds wrote, beside the output folder (`.dist.files-<inode>.json` for
 * `dist`): each file a build wrote, with its size and the SHA-256 of its bytes, signed with the
 * project's key (record-key.ts). A file is the build's only when a record signed with that key
 * gives its bytes: a record written by hand has no proof, so it vouches for nothing, however true
 * the sizes and hashes it gives; and an edit by hand that keeps a file's size is still an edit.
 * A record that proves nothing (no proof or a wrong one, damaged, not a plain file, over
 * MAX_RECORD_BYTES) stops the build: it may be the only word on which files a build wrote.
 */

/** What a build wrote of one file. */
export interface Written {
  size: number;
  sha256: string;
}

/**
 * The most a record may be, checked before it is read: a record names every file of the site,
 * about 150 bytes each (a path, its size and its hash), so 64 MB holds some 400,000 files, four
 * times the 100,000 a large site has (a record of 15 MB); a larger one is no build's, and is
 * never read into memory.
 */
export const MAX_RECORD_BYTES = 64 * 1024 ** 2;

/** How every record begins, before the proof (64 hex digits) and the rest it proves: `",` then `"files":`. */
const PROOF_START = '{"writtenBy":"storefront build","proof":"';
const SIGNED = /^\{"writtenBy":"storefront build","proof":"([0-9a-f]{64})",/;
/** How the records of earlier versions began: they had no proof. */
const EARLIER_START = '{"writtenBy":"storefront build","files":';

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
 * Whether a path is a plain file: a marker is read only then, as a FIFO of that name would block
 * the build for ever and a link may lead anywhere.
 */
export const isPlainFile = (file: string): boolean => lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;

export const recordName = (outDir: string, dir: string): string =>
  `.${path.basename(outDir)}.files-${statSync(dir, { bigint: true }).ino}.json`;

/**
 * The proof of a record: the HMAC-SHA256, with the project's key, of the output folder's name and
 * of what follows the proof in the record. The name, so that a record of `site` is no record of
 * `dist`; no inode or path, so that a copied project's records still prove themselves.
 */
const proofOf = (key: Buffer, outDir: string, rest: string | Buffer): string =>
  createHmac('sha256', key)
    .update(`storefront record of ${path.basename(outDir)}\0`)
    .update(rest)
    .digest('hex');

/** Writes the record of the files a build wrote into `dir` (before it becomes the output folder), signed with `key`. */
export function writeRecord(outDir: string, dir: string, files: ReadonlyMap<string, Written>, key: Buffer): void {
  const file = path.join(path.dirname(outDir), recordName(outDir, dir));
  const temporary = `${file}.${process.pid}.tmp`;
  const rest = `"files":${JSON.stringify(Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : 1))))}}\n`;
  writeFileSync(temporary, `${PROOF_START}${proofOf(key, outDir, rest)}",${rest}`);
  renameSync(temporary, file);
}

/** What the records beside an output folder name. */
export interface Recorded {
  /** Each file, with every size and hash a trusted record gives it. */
  files: Map<string, Written[]>;
  /** The names of the records that proved themselves. */
  trusted: Set<string>;
  /** The records that prove nothing, by path, with why. */
  untrusted: { file: string; why: RecordDistrust }[];
}

const isWritten = (value: unknown): value is Written =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as Written).size) &&
  typeof (value as Written).sha256 === 'string' &&
  /^[0-9a-f]{64}$/.test((value as Written).sha256);

/**
 * The bytes of a record, read as every file the build reads from where others may write: never
 * through a link (O_NOFOLLOW), never waiting on a pipe (O_NONBLOCK), checked again through the
 * open descriptor, and no more than MAX_RECORD_BYTES even if it grows meanwhile. Undefined when
 * it is gone (another build removed it).
 */
function readRecordBytes(file: string): { bytes: Buffer } | { why: RecordDistrust } | undefined {
  const found = lstatSync(file, { throwIfNoEntry: false });
  if (!found) return undefined;
  if (found.isSymbolicLink()) return { why: { kind: 'notPlain', what: 'a symbolic link' } };
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return { why: { kind: 'notPlain', what: 'a symbolic link' } };
    // A socket cannot be opened at all (ENXIO): say what it is.
    const what = whatItIs(found);
    return { why: what ? { kind: 'notPlain', what } : { kind: 'unreadable', reason: code ?? String(err) } };
  }
  try {
    const stats = fstatSync(fd);
    const what = whatItIs(stats);
    if (what) return { why: { kind: 'notPlain', what } };
    const limit = MAX_RECORD_BYTES;
    if (stats.size > limit) {
      // In bytes when it would read as the limit does ("64 MB, more than the 64 MB").
      const size = sizeInWords(stats.size) === sizeInWords(limit) ? `${stats.size.toLocaleString('en-GB')} bytes` : '';
      return { why: { kind: 'overLimit', size: size || sizeInWords(stats.size), limit: sizeInWords(limit) } };
    }
    // A byte more than its size: reading it means it grew since.
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    return length > stats.size ? { why: { kind: 'changing' } } : { bytes: buffer.subarray(0, length) };
  } catch (err) {
    return { why: { kind: 'unreadable', reason: (err as NodeJS.ErrnoException).code ?? String(err) } };
  } finally {
    closeSync(fd);
  }
}

/**
 * The files a record gives, when its proof is the HMAC of its contents with `key`; else why it
 * proves nothing. The proof is checked before the JSON is parsed: a record no build wrote is
 * never parsed, so it costs no more memory than its bytes.
 */
export function readRecord(
  file: string,
  outDir: string,
  key: Buffer,
): { files: Record<string, unknown> } | { why: RecordDistrust } | undefined {
  const read = readRecordBytes(file);
  if (read === undefined || 'why' in read) return read;
  const { bytes } = read;
  const head = bytes.subarray(0, 128).toString('latin1');
  const signed = SIGNED.exec(head);
  if (!signed) {
    if (bytes.length <= 128 && head.trim() === '') return { why: { kind: 'empty' } };
    return { why: { kind: head.startsWith(EARLIER_START) ? 'earlier' : 'notRecord' } };
  }
  const rest = bytes.subarray(signed[0].length);
  if (!timingSafeEqual(Buffer.from(proofOf(key, outDir, rest), 'hex'), Buffer.from(signed[1]!, 'hex')))
    // Cut short, or whole but not signed with this key.
    return { why: { kind: /\}\s*$/.test(bytes.subarray(-8).toString('latin1')) ? 'wrongProof' : 'cutShort' } };
  try {
    const { files } = JSON.parse(bytes.toString('utf8')) as { files?: unknown };
    if (typeof files === 'object' && files !== null && !Array.isArray(files))
      return { files: files as Record<string, unknown> };
  } catch {
    // Signed, yet not JSON: damaged as it was written.
  }
  return { why: { kind: 'notRecord' } };
}

/**
 * Every file the trusted records beside `outDir` name, and the records that prove nothing;
 * `isRecord` tells a record's name.
 */
export function recordedFiles(outDir: string, isRecord: (name: string) => boolean, key: Buffer): Recorded {
  const recorded: Recorded = { files: new Map(), trusted: new Set(), untrusted: [] };
  const parent = path.dirname(outDir);
  for (const name of readdirSync(parent).sort()) {
    if (!isRecord(name) || !name.endsWith('.json')) continue;
    const file = path.join(parent, name);
    const record = readRecord(file, outDir, key);
    // Removed by another build meanwhile: it names nothing.
    if (record === undefined) continue;
    if ('why' in record) {
      recorded.untrusted.push({ file, why: record.why });
      continue;
    }
    recorded.trusted.add(name);
    for (const [rel, written] of Object.entries(record.files))
      if (isWritten(written))
        recorded.files.set(rel, [...(recorded.files.get(rel) ?? []), { size: written.size, sha256: written.sha256 }]);
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
