import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';

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
 * they are produced (so pages need not all be held in memory), and `commit` swaps it in. A
 * build that fails before the commit calls `abort`, and the previous output stays exactly as
 * it was.
 */
export class StagedOutput {
  bytes = 0;
  files = 0;
  private readonly staging: string;
  private readonly retired: string;
  /** Folders already made. */
  private readonly dirs = new Set<string>();

  private constructor(private readonly outDir: string) {
    const stamp = `${process.pid}-${Date.now()}`;
    this.staging = path.join(path.dirname(outDir), `.${path.basename(outDir)}.staging-${stamp}`);
    this.retired = path.join(path.dirname(outDir), `.${path.basename(outDir)}.old-${stamp}`);
  }

  static async open(outDir: string): Promise<StagedOutput> {
    const output = new StagedOutput(outDir);
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
  async write(file: OutputFile): Promise<void> {
    this.bytes += typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length;
    this.files += 1;
    const target = path.join(this.staging, file.file);
    const dir = path.dirname(target);
    try {
      if (!this.dirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        this.dirs.add(dir);
      }
      writeFileSync(target, file.contents);
    } catch (err) {
      throw this.error(err);
    }
  }

  /** Waits for every write, then swaps the staging folder in for the output folder. */
  async commit(): Promise<void> {
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

