import {
  constants,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { problem, type Place } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import type { HostLimits } from '../hosts/host.js';
import { isCompressible, precompressed } from './compress.js';
import { refuseOverHostLimits, RULE_FILES } from './host-limits.js';
import {
  besideName,
  markFolder,
  MARKER,
  refuseForeignFiles,
  removeLeftovers,
  restoreOutputFolder,
  unmarkFolder,
} from './output-folder.js';
import { fileSha256, sha256, writeRecord, type Written } from './output-record.js';
import { recordKey } from './record-key.js';
import { isBelow, isWithin } from '../util/inside-project.js';

export interface OutputFile {
  /** Path under the output folder, with forward slashes. */
  file: string;
  contents: string | Buffer;
}

/**
 * The output folder is replaced whole, so it must never be the project, its content or its
 * code, and may hold only files a build wrote (see output-folder.ts). Checked before the build
 * does any work, after putting back a previous site that a killed build had moved aside.
 */
export function checkOutputFolder(outDir: string, root: string): void {
  // Where it really is: `--out c2/site`, c2 a link to content/, is inside content/.
  const real = path.join(realFolder(path.dirname(outDir)), path.basename(outDir));
  const realRoot = realFolder(root);
  const protectedDirs = [
    'content',
    'src',
    'templates',
    'bin',
    'test',
    'node_modules',
    '.git',
    '.cache',
    '.storefront',
  ].map((d) => realFolder(path.join(root, d)));
  let why: 'is the project' | 'in the project' | 'is a link' | undefined;
  if (isWithin(real, realRoot)) why = 'is the project';
  else if (protectedDirs.some((d) => isWithin(d, real))) why = 'in the project';
  // Earlier versions made dist a link to a .dist.build-… folder, which a user may have put files into.
  else if (lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink()) why = 'is a link';
  if (why) throw new StorefrontError(problem('outputFolderRefused', { why }, { file: outDir }));
  restoreOutputFolder(outDir);
  // The project's key, made by its first build: only a record signed with it vouches for a file.
  refuseForeignFiles(outDir, recordKey(root));
}

/** The real path of a folder that may not exist yet: its nearest existing parent's, resolved, and the rest. */
function realFolder(dir: string): string {
  const existing = existsSync(dir) ? dir : path.dirname(dir);
  return existing === dir ? realpathSync(dir) : path.join(realFolder(existing), path.basename(dir));
}

/**
 * The one writer of the output folder. The whole site is written into a new folder beside it
 * (`.dist.build-<pid>-<time>` for `dist`), and `commit` swaps it in by renames: the previous
 * folder aside, the new one in, the previous one removed. Whenever a build stops, even killed,
 * `dist` is exactly the previous build or exactly the new one, never a mix; killed between the
 * two renames, `dist` is missing for a moment and the next build puts the previous one back
 * (restoreOutputFolder). A real folder, not a link, so `tar`, `find`, `rsync`
 * and deploy tools that do not follow links see every file.
 */
export class SiteWriter {
  /** Bytes and files written. */
  bytes = 0;
  files = 0;
  /** The folder the site is written into, until it becomes the output. */
  readonly dir: string;
  /** Folders already made. */
  private readonly dirs = new Set<string>();
  /** Every file written, relative with forward slashes, with its size and hash: the record of what this build owns. */
  private readonly written = new Map<string, Written>();
  /** The text of the rule files the host reads (`_redirects`, `_headers`), kept as written for its limits. */
  private readonly rules = new Map<string, string>();
  private committed = false;

  private constructor(
    private readonly outDir: string,
    /** The project's record key (record-key.ts): the records are signed with it. */
    private readonly key: Buffer,
    private readonly limits: HostLimits | undefined,
  ) {
    this.dir = besideName(outDir, 'build');
  }

  /**
   * `root`: the project's folder, which keeps the key the records are signed with; `limits`: those
   * of the host the site is for; `commit` refuses a site over any of them.
   */
  static open(outDir: string, root: string, limits?: HostLimits): SiteWriter {
    const writer = new SiteWriter(outDir, recordKey(root), limits);
    try {
      mkdirSync(path.dirname(outDir), { recursive: true });
      removeLeftovers(outDir, writer.key);
      mkdirSync(writer.dir, { recursive: true });
      // Before any page: killed at any moment after this, the folder is known for a build's.
      markFolder(writer.dir, { kind: 'build', pid: process.pid });
    } catch (err) {
      writer.abort();
      throw writer.error(err);
    }
    return writer;
  }

  /**
   * Writes a file, and with `precompress` its .br and .gz copies (for compressible files).
   * Synchronous on purpose: for thousands of small files one writeFileSync is several times
   * cheaper than fs/promises, and the build has nothing else to do meanwhile.
   */
  async write(file: OutputFile, precompress = false): Promise<void> {
    try {
      this.writeOne(file);
      if (RULE_FILES.includes(file.file)) this.rules.set(file.file, file.contents.toString());
      if (precompress && isCompressible(file.file)) for (const copy of await precompressed(file)) this.writeOne(copy);
    } catch (err) {
      throw this.error(err);
    }
  }

  private writeOne(file: OutputFile): void {
    const absolute = path.join(this.dir, file.file);
    // Paths come from the route table and asset names; none may leave the folder.
    if (!isBelow(this.dir, absolute) || file.file === MARKER)
      throw new Error(`${file.file} is outside the output folder`);
    const dir = path.dirname(absolute);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(absolute, file.contents);
    const size = typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length;
    this.written.set(path.relative(this.dir, absolute).split(path.sep).join('/'), {
      size,
      sha256: sha256(file.contents),
    });
    this.files += 1;
    this.bytes += size;
  }

  /**
   * Copies a file of the project (an image of content/images/) as a stream, so that however
   * large the files, one buffer of each is in memory at a time. `source` was checked by the
   * content stage (a regular file of at most `limit` bytes) and is checked again through the
   * open descriptor, which is opened without waiting in case a pipe took its place since. With
   * `precompress`, a text file (an SVG) gets its .br and .gz copies from what was copied.
   */
  async copy(file: string, source: string, limit: number, precompress = false): Promise<void> {
    try {
      const absolute = path.join(this.dir, file);
      if (!isBelow(this.dir, absolute)) throw new Error(`${file} is outside the output folder`);
      mkdirSync(path.dirname(absolute), { recursive: true });
      const handle = await open(source, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const stats = await handle.stat();
        if (!stats.isFile() || stats.size > limit)
          throw new Error(`${source} changed during the build: it is no longer a file of at most ${limit} bytes`);
        // No further than the size checked: a file that grows meanwhile is copied as it was.
        if (stats.size === 0) writeFileSync(absolute, '');
        else
          await pipeline(
            handle.createReadStream({ start: 0, end: stats.size - 1, autoClose: false }),
            createWriteStream(absolute),
          );
      } finally {
        await handle.close();
      }
      // The bookkeeping of writeOne, for a file whose bytes were never in memory.
      const size = statSync(absolute).size;
      // Hashed from the copy, a megabyte at a time, as it is for any file in the record.
      this.written.set(path.relative(this.dir, absolute).split(path.sep).join('/'), {
        size,
        sha256: fileSha256(absolute),
      });
      this.files += 1;
      this.bytes += size;
      if (precompress && isCompressible(file))
        for (const copy of await precompressed({ file, contents: readFileSync(absolute) })) this.writeOne(copy);
    } catch (err) {
      throw this.error(err);
    }
  }

  /**
   * Swaps the new site in for the output folder, then removes the previous one; first, refuses a site
   * over its host's limits.
   */
  commit(): void {
    try {
      // What the host would receive is known only now, and the previous site is still untouched.
      refuseOverHostLimits(new Map([...this.written].map(([file, { size }]) => [file, size])), this.limits, this.rules);
      // Again, just before: a file put into the folder while the site was rendered is kept too.
      refuseForeignFiles(this.outDir, this.key);
      writeRecord(this.outDir, this.dir, this.written, this.key);
      // The output folder never holds the marker; from now on the record vouches for the folder.
      unmarkFolder(this.dir);
      // Another build may swap its site in between our two renames; then ours goes in after it.
      for (let attempt = 1; !this.committed; attempt++) {
        const aside = lstatSync(this.outDir, { throwIfNoEntry: false }) ? besideName(this.outDir, 'old') : undefined;
        if (aside) {
          renameSync(this.outDir, aside);
          // Killed now, the next build puts it back: the new folder it made way for is still beside.
          try {
            markFolder(aside, { kind: 'old', pid: process.pid, for: path.basename(this.dir) });
          } catch {
            // A folder that cannot be written into stays unmarked: its record still makes it a
            // leftover to remove; only a kill in the next moment would leave it unrestored.
          }
        }
        try {
          renameSync(this.dir, this.outDir);
          this.committed = true;
        } catch (err) {
          const taken = ['EEXIST', 'ENOTEMPTY', 'EPERM'].includes((err as NodeJS.ErrnoException).code ?? '');
          if (!taken || attempt === 3) {
            if (aside && !lstatSync(this.outDir, { throwIfNoEntry: false })) {
              unmarkFolder(aside);
              renameSync(aside, this.outDir);
            }
            throw err;
          }
        }
      }
    } catch (err) {
      if (err instanceof StorefrontError) throw err;
      throw this.error(err);
    } finally {
      this.abort();
    }
    try {
      removeLeftovers(this.outDir, this.key, true);
    } catch (err) {
      throw this.error(err);
    }
  }

  /** Removes the new site's folder: the build failed, and the output stays as it was. */
  abort(): void {
    if (!this.committed) rmSync(this.dir, { recursive: true, force: true });
  }

  /** The system's refusal as the build's problem (SF160), the refusal kept as its cause for --debug. */
  private error(err: unknown): StorefrontError {
    const { path: failed } = err as NodeJS.ErrnoException;
    // The system's own message names the temporary folder; the file is named as the site has it.
    const name =
      failed && isBelow(this.dir, failed)
        ? shortName(path.relative(this.dir, failed).split(path.sep).join('/'))
        : undefined;
    return new StorefrontError(
      refusal(err, name, { file: this.outDir }),
      this.committed
        ? 'The new build is in place; only removing the previous one failed.'
        : 'The output folder was not changed: it holds the previous build, if there was one.',
      { cause: err },
    );
  }
}

/** A file of the site as a message shows it: a name of hundreds of characters cut short, with its length. */
function shortName(file: string): string {
  const bytes = Buffer.byteLength(file);
  return bytes > 120 ? `${[...file].slice(0, 100).join('')}… (${bytes} bytes)` : file;
}

/** What the system's refusal means for the user, by its code, and what to do: each names the file when it is known. */
function refusal(err: unknown, name: string | undefined, place: Place): Problem {
  const { code } = err as NodeJS.ErrnoException;
  switch (code) {
    case 'ENAMETOOLONG':
      return problem('outputNameTooLong', { name }, place);
    case 'ENOSPC':
      return problem('outputDiskFull', { name }, place);
    case 'EDQUOT':
      return problem('outputQuotaUsed', { name }, place);
    case 'EACCES':
      return problem('outputPermissionDenied', { name }, place);
    case 'EROFS':
      return problem('outputDiskReadOnly', {}, place);
    // A mount point (a Docker volume) or a folder of an image's lower layer cannot be renamed.
    case 'EBUSY':
    case 'EXDEV':
      return problem('outputFolderUnmovable', { code }, place);
    default:
      return problem('outputNotWritten', { reason: String((err as Error).message) }, place);
  }
}
