// The tests' fake WordPress (test/support/fake-wordpress.ts), for the benchmarks: compiled from its
// TypeScript into lib/tools/ (where its packages resolve) under a file name of the caller's, so
// that two benchmarks running at once do not overwrite each other's, then imported.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The fake's module: `FakeWordPress`, `makePosts` and the rest of what it exports. */
export async function importFakeWordPress(fileName) {
  const outfile = path.join(root, 'lib', 'tools', fileName);
  await build({
    entryPoints: [path.join(root, 'test/support/fake-wordpress.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return import(outfile);
}
