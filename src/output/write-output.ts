import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import type { WrittenFile } from '../cache/output-manifest.js';
import { fileStamp } from '../util/file-stamp.js';
import { isCompressible, precompressed } from './compress.js';

export interface OutputFile {
  /** Path under the output folder, with forward slashes. */
  file: string;
  contents: string | Buffer;
}

/**
 * The output folder is replaced whole, so it must never be the project, its content or its
 * code, nor a folder of something else. Checked before the build does any work.
 */
export function checkOutputFolder(outDir: string, root: string): void {
  const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + path.sep);
  const protectedDirs = ['content', 'src', 'templates', 'bin', 'test', 'node_modules', '.git', '.cache'].map((d) => path.join(root, d));
  let reason: string | undefined;
  if (inside(root, outDir)) reason = 'it is the project folder or holds it';
  else if (protectedDirs.some((d) => inside(outDir, d))) reason = 'it is inside a folder of the project\'s own files';
  else if (existsSync(outDir)) {
    const names = readdirSync(outDir);
    if (names.length > 0 && !names.includes('index.html') && !names.includes('404.html')) {
      reason = 'it holds files that do not look like an earlier build';
    }
  }
  if (reason) {
    throw new StorefrontError({
      code: codes.badFlag,
      file: outDir,
      message: `The build will not write to this folder: ${reason}. The output folder is replaced as a whole.`,
      hint: 'Choose an empty or new folder, e.g. --out dist.',
    });
  }
}

/** A folder that files are written into, and whether each is stamped for the build cache. */
export interface WriteTarget {
  dir: string;
  stamped: boolean;
}

/**
 * Writes files into a folder, making sub-folders as needed. Synchronous on purpose: for
 * thousands of small files one writeFileSync is several times cheaper than fs/promises' open,
 * write and close through the thread pool, and the build has nothing else to do meanwhile.
 * The posts worker writes the pages it renders with its own writer into the same folder.
 */
export class FileWriter {
  /** Folders already made. */
  private readonly dirs = new Set<string>();

  constructor(private readonly target: WriteTarget) {}

  write(file: OutputFile): WrittenFile {
    const absolute = path.join(this.target.dir, file.file);
    const dir = path.dirname(absolute);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(absolute, file.contents);
    // Moving the file into place keeps this stamp: it is what the next build compares.
    if (this.target.stamped) return { file: file.file, ...fileStamp(absolute) };
    return { file: file.file, size: typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length, stamp: '' };
  }

  /** The file and, with `precompress`, its .br and .gz copies (for compressible files). */
  async writeWithCopies(file: OutputFile, precompress: boolean): Promise<WrittenFile[]> {
    const written = [this.write(file)];
    if (precompress && isCompressible(file.file)) for (const copy of await precompressed(file)) written.push(this.write(copy));
    return written;
  }
}

/**
 * The output being written: files go into a fresh staging folder beside the output folder as
 * they are produced (so pages need not all be held in memory), and `commit` puts them in place.
 * A build that fails before the commit calls `abort`, and the previous output stays exactly as
 * it was.
 *
 * - `replace`: the staging folder holds the whole site and is swapped in for the output folder.
 * - `update`: the output folder of the previous build stays; the staging folder holds only the
 *   files that changed, moved in one by one at the commit, and files no longer produced are
 *   removed. A rebuild after a small change touches only what changed.
 */
export class StagedOutput {
  /** Bytes and files written by this build (kept files not counted). */
  bytes = 0;
  files = 0;
  private readonly staging: string;
  private readonly retired: string;
  private readonly writer: FileWriter;
  private readonly written: string[] = [];

  private constructor(
    private readonly outDir: string,
    private readonly mode: 'replace' | 'update',
    /** Whether written files are stamped for the build cache (not with --no-cache). */
    private readonly stamped: boolean,
  ) {
    const stamp = `${process.pid}-${Date.now()}`;
    this.staging = path.join(path.dirname(outDir), `.${path.basename(outDir)}.staging-${stamp}`);
    this.retired = path.join(path.dirname(outDir), `.${path.basename(outDir)}.old-${stamp}`);
    this.writer = new FileWriter(this.target);
  }

  static async open(outDir: string, mode: 'replace' | 'update' = 'replace', stamped = true): Promise<StagedOutput> {
    const output = new StagedOutput(outDir, mode, stamped);
    try {
      await mkdir(output.staging, { recursive: true });
    } catch (err) {
      throw output.error(err);
    }
    return output;
  }

  /** Writes a file into the staging folder, and with `precompress` its .br and .gz copies. */
  async write(file: OutputFile, precompress = false): Promise<WrittenFile[]> {
    try {
      return this.adopt(await this.writer.writeWithCopies(file, precompress));
    } catch (err) {
      throw this.error(err);
    }
  }

  /** Where another thread writes its share of the files (see `adopt`). */
  get target(): WriteTarget {
    return { dir: this.staging, stamped: this.stamped };
  }

  /** Counts files that another thread wrote into the staging folder, as if written here. */
  adopt(files: WrittenFile[]): WrittenFile[] {
    for (const f of files) {
      this.bytes += f.size;
      this.files += 1;
      this.written.push(f.file);
    }
    return files;
  }

  /** Puts the staged files in place; `leftovers` (update mode) are files of the previous build to remove. */
  async commit(leftovers: readonly string[] = []): Promise<void> {
    if (this.mode === 'update') return this.commitUpdate(leftovers);
    try {
      if (existsSync(this.outDir)) await rename(this.outDir, this.retired);
      try {
        await rename(this.staging, this.outDir);
      } catch (err) {
        // Put the earlier output back rather than leave no output at all.
        if (existsSync(this.retired) && !existsSync(this.outDir)) await rename(this.retired, this.outDir);
        throw err;
      }
    } catch (err) {
      await this.abort();
      throw this.error(err);
    }
    await rm(this.retired, { recursive: true, force: true });
  }

  private async commitUpdate(leftovers: readonly string[]): Promise<void> {
    try {
      // Each file is replaced by a rename, so a visitor of a live folder never sees half a file.
      const made = new Set<string>();
      for (const file of this.written) {
        const target = path.join(this.outDir, file);
        const dir = path.dirname(target);
        if (!made.has(dir)) mkdirSync(dir, { recursive: true });
        made.add(dir);
        renameSync(path.join(this.staging, file), target);
      }
      for (const file of leftovers) {
        unlinkSync(path.join(this.outDir, file));
        removeEmptyFolders(path.dirname(path.join(this.outDir, file)), this.outDir);
      }
    } catch (err) {
      await this.abort();
      throw this.error(err);
    }
    await this.abort();
  }

  /** Removes the staging folder (after a failure, or once an update is in place). */
  async abort(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
  }

  /** The error for a file another thread could not write into the staging folder. */
  writeFailed(message: string): StorefrontError {
    return this.error(new Error(message));
  }

  private error(err: unknown): StorefrontError {
    return new StorefrontError(
      {
        code: codes.outputFailed,
        file: this.outDir,
        message: `The output could not be written: ${(err as Error).message}`,
        hint: 'Check that the folder is writable and the disk has space.',
      },
      existsSync(this.outDir) ? 'The previous output folder was left as it was.' : undefined,
    );
  }
}


/** Removes a folder left empty by a removed file, and its parents, up to the output folder. */
function removeEmptyFolders(dir: string, outDir: string): void {
  while (dir !== outDir && dir.startsWith(outDir) && readdirSync(dir).length === 0) {
    rmdirSync(dir);
    dir = path.dirname(dir);
  }
}
