import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A file that `npm run compile` leaves made in lib/assets/ (scripts/compile.mjs), so that a
 * build does not make it again: read when it is newer than every one of its sources, made by
 * `make` otherwise (a source changed since, or no compile yet).
 */
export async function precompiled(
  generatorRoot: string,
  name: string,
  sources: string[],
  make: () => Promise<string>,
): Promise<string> {
  const file = path.join(generatorRoot, 'lib', 'assets', name);
  if (existsSync(file)) {
    const built = (await stat(file)).mtimeMs;
    const newest = Math.max(...(await Promise.all(sources.map(async (s) => (await stat(s)).mtimeMs))));
    if (built >= newest) return readFile(file, 'utf8');
  }
  return make();
}
