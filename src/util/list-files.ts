import { existsSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

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

/**
 * Every file under a folder, by its path there with forward slashes; none for a folder that
 * does not exist. Listing costs a call per folder where stamping costs one per file.
 */
export function listFolder(dir: string): Set<string> {
  const files = new Set<string>();
  const walk = (absolute: string, relative: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${absolute}${path.sep}${entry.name}`, `${relative}${entry.name}/`);
      else files.add(relative + entry.name);
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return files;
}
