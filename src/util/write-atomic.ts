import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

let written = 0;

/**
 * Writes a file beside its place and renames it there, so a crash never leaves half a file.
 * Each write has its own temporary name: two writers of the same file never share one.
 */
export async function writeFileAtomic(file: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}-${++written}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}
