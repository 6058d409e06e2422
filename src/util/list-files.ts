import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';

/** Names of the files in a folder with this extension, sorted; hidden files are left out. */
export async function listFileNames(dir: string, extension: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir)).filter((name) => name.endsWith(extension) && !name.startsWith('.')).sort();
}
