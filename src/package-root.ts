import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The generator's own folder (package.json, templates/). Distinct from the project root given
 * to a build, which only has to hold content/. Works from src/ under a TS runner and from lib/.
 */
export function packageRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const parts = here.split(path.sep);
  const lib = parts.lastIndexOf('lib');
  return lib >= 0 ? parts.slice(0, lib).join(path.sep) : path.resolve(here, '..');
}

/** The generator's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
