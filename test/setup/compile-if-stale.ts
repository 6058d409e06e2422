/**
 * Before any test file runs: the CLI the tests start (bin/storefront.js, which runs lib/) is
 * compiled from the sources as they are now. `npm test` compiles first, so this does nothing
 * there; after an edit, a targeted `vitest run test/...` compiles instead of testing the copy
 * last compiled (scripts/compile.mjs, a few seconds).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** What lib/ is compiled from. */
const SOURCES = ['src', 'templates', 'scripts/compile.mjs'];

/** The newest modification time under a file or folder; 0 when it is not there. */
function newest(at: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(at);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(at).map((name) => newest(path.join(at, name))));
}

export default function compileIfStale(): void {
  const sources = Math.max(...SOURCES.map((at) => newest(path.join(root, at))));
  if (newest(path.join(root, 'lib', 'bundle')) >= sources) return;
  console.log('The sources changed since lib/ was compiled: compiling first (scripts/compile.mjs).');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'compile.mjs')], { cwd: root, stdio: 'inherit' });
}
