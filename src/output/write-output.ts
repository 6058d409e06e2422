import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import type { WrittenFile } from '../cache/output-manifest.js';
import { fileStamp } from '../util/file-stamp.js';

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
  /** Folders already made. */
  private readonly dirs = new Set<string>();
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

  /**
   * Writes a file into the staging folder. Synchronous on purpose: for thousands of small
   * files one writeFileSync is several times cheaper than fs/promises' open, write and close
   * through the thread pool, and the build has nothing else to do meanwhile.
   */
  write(file: OutputFile): WrittenFile {
    const target = path.join(this.staging, file.file);
    try {
      this.makeDir(path.dirname(target));
      writeFileSync(target, file.contents);
      // Moving the file into place keeps this stamp: it is what the next build compares.
      const { size, stamp } = this.stamped
        ? fileStamp(target)
        : { size: typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length, stamp: '' };
      this.bytes += size;
      this.files += 1;
      this.written.push(file.file);
      return { file: file.file, size, stamp };
    } catch (err) {
      throw this.error(err);
    }
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
      for (const file of this.written) {
        const target = path.join(this.outDir, file);
        mkdirSync(path.dirname(target), { recursive: true });
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

  private makeDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.dirs.add(dir);
  }

  /** Removes the staging folder (after a failure, or once an update is in place). */
  async abort(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
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
