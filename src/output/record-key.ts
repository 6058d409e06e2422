import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, StorefrontError } from '../errors/storefront-error.js';
import { whatItIs } from '../util/read-bounded.js';

/**
 * The key a project's builds sign their records with (output-record.ts): 32 random bytes, in
 * hex, made by the first build. It lives in the project, in a folder the build owns and refuses
 * as a link (OWN_FOLDERS), with mode 0600: a record beside the output folder, wherever that is
 * (`--out ../site`), is trusted only when it carries the HMAC of its contents with this key, so
 * whoever can write beside the output folder but cannot read the project cannot make a build
 * delete a file. A copy of the project (`cp -a`, a backup, a CI cache) brings the key along with
 * the records. Whoever can change the project can change what its build does anyway: the key is
 * kept from other users, not from them.
 */
export const RECORD_KEY = '.storefront/record-key';

const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

/** The project's record key, made when there is none yet; a problem (SF170, SF160) when it is unusable. */
export function recordKey(root: string): Buffer {
  const file = path.join(root, RECORD_KEY);
  const read = readKey(file);
  if (read !== undefined) return read;
  makeKey(file);
  return readKey(file) ?? unusable(file, 'missing again just after it was made');
}

/** The key, undefined when there is no file; a problem when what is there is no key. */
function readKey(file: string): Buffer | undefined {
  const found = lstatSync(file, { throwIfNoEntry: false });
  if (!found) return undefined;
  const what = found.isSymbolicLink() ? 'a symbolic link' : whatItIs(found);
  if (what) return unusable(file, `${what}, not a plain file`);
  let fd: number;
  try {
    // Never through a link, and never waiting on a pipe put in its place since.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return unusable(file, `unreadable (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return unusable(file, `${whatItIs(stats)}, not a plain file`);
    const buffer = Buffer.alloc(128);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const hex = KEY_TEXT.exec(buffer.subarray(0, length).toString('latin1'))?.[1];
    return hex ? Buffer.from(hex, 'hex') : unusable(file, 'damaged: not the 64 hexadecimal digits a build writes');
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes the key whole or not at all: written into a file of this process, then linked to its
 * name, which fails when another build made one meanwhile (then that one is used). A disk
 * without hard links gets the file made in place, exclusively.
 */
function makeKey(file: string): void {
  const text = `${randomBytes(32).toString('hex')}\n`;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // A killed build of this process id may have left one.
    rmSync(temporary, { force: true });
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && lstatSync(file, { throwIfNoEntry: false })) return;
    throw new StorefrontError(
      problem('recordKeyNotMade', { reason: (err as Error).message }, { file }),
      NOTHING_WRITTEN,
      { cause: err },
    );
  } finally {
    rmSync(temporary, { force: true });
  }
}

function unusable(file: string, why: string): never {
  throw new StorefrontError(problem('recordKeyUnusable', { why }, { file }), NOTHING_WRITTEN);
}
