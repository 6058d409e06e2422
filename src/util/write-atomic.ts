import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

let written = 0;

/**
 * Writes a file beside its place and renames it there, so a crash never leaves half a file.
 * Each write has its own temporary name: two writers of the same file never share one. The
 * temporary file is created afresh ('wx': never through a link or a file planted at its name),
 * and removed when the write or the rename fails.
 */
export async function writeFileAtomic(file: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}-${++written}.tmp`;
  try {
    await writeFile(temporary, contents, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    // Only a file this call made: with 'wx' refusing, what stands at the name is someone else's.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
