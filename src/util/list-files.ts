import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';

/**
 * Names of the files in a folder with this extension, sorted; hidden files are left out, and
 * so are folders (a folder named `notes.md` is not a post). A named pipe, a socket or a device
 * with such a name is listed, for its reader to refuse by name (see read-bounded.ts) rather
 * than leave out without a word.
 */
export async function listFileNames(dir: string, extension: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => !entry.isDirectory() && entry.name.endsWith(extension) && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}
