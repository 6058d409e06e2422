import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
 * Writes every file into a fresh temporary folder beside the output folder, then swaps it in.
 * A build that fails before the swap leaves the previous output exactly as it was.
 */
export async function writeOutput(outDir: string, files: readonly OutputFile[]): Promise<number> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const staging = path.join(parent, `.${base}.staging-${process.pid}-${Date.now()}`);
  const retired = path.join(parent, `.${base}.old-${process.pid}-${Date.now()}`);
  let bytes = 0;
  try {
    await mkdir(staging, { recursive: true });
    const dirs = new Set(files.map((f) => path.dirname(path.join(staging, f.file))));
    for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
    await Promise.all(
      files.map((f) => {
        bytes += typeof f.contents === 'string' ? Buffer.byteLength(f.contents) : f.contents.length;
        return writeFile(path.join(staging, f.file), f.contents);
      }),
    );
    if (existsSync(outDir)) await rename(outDir, retired);
    try {
      await rename(staging, outDir);
    } catch (err) {
      // Put the earlier output back rather than leave no output at all.
      if (existsSync(retired) && !existsSync(outDir)) await rename(retired, outDir);
      throw err;
    }
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw new StorefrontError(
      {
        code: codes.outputFailed,
        file: outDir,
        message: `The output could not be written: ${(err as Error).message}`,
        hint: 'Check that the folder is writable and the disk has space.',
      },
      existsSync(outDir) ? 'The previous output folder was left as it was.' : undefined,
    );
  }
  await rm(retired, { recursive: true, force: true });
  return bytes;
}
