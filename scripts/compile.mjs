// Run by `npm run compile` after tsc: bundles the compiled CLI (lib/src) into lib/bundle with
// esbuild, as plain ES modules (one file to load at start-up instead of hundreds: a build starts
// 0.15 s sooner), and compiles the stylesheet, the browser script and the dev client into
// lib/assets once, rather than at every build (see src/output/assets.ts).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.join(root, 'lib');
const { generatorBundleOptions } = await import(path.join(lib, 'src/dev/generator-bundle.js'));
rmSync(path.join(lib, 'bundle'), { recursive: true, force: true });
// The parse worker sits beside the code that starts it: parse-pool.ts finds it as './parse-worker.js'.
const entries = { main: path.join(lib, 'src/cli/main.js'), 'parse-worker': path.join(lib, 'src/content/parse-worker.js') };
await build({ ...generatorBundleOptions(entries, path.join(lib, 'bundle')), logLevel: 'warning' });

const { compileScript, compileStylesheet } = await import(path.join(lib, 'src/output/assets.js'));
mkdirSync(path.join(lib, 'assets'), { recursive: true });
writeFileSync(path.join(lib, 'assets', 'site.css'), await compileStylesheet(root));
writeFileSync(path.join(lib, 'assets', 'site.js'), await compileScript(root));
writeFileSync(path.join(lib, 'assets', 'dev-client.js'), await compileScript(root, 'src/dev/client/dev-client.ts'));
