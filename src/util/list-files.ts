import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';

/**
 * Names of the files in a folder with this extension, sorted; hidden files are left out, and
 * so are folders (a folder named `notes.md` is not a post).
 */
export async function listFileNames(dir: string, extension: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(extension) && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}
