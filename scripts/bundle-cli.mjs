// Bundles the compiled CLI (lib/src) into lib/bundle with esbuild: one file to load at start-up
// instead of hundreds of modules, and React's production build selected at bundle time. Run by
// `npm run compile` after tsc; bin/storefront.js uses the bundle when it is there. Also compiles
// the stylesheet, the browser script and the dev client into lib/assets.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'lib', 'bundle');
const { generatorBundleOptions } = await import(path.join(root, 'lib/src/dev/generator-bundle.js'));
rmSync(outdir, { recursive: true, force: true });
await build({
  ...generatorBundleOptions(
    {
      main: path.join(root, 'lib/src/cli/main.js'),
      // Must sit beside the code that starts it: load-posts resolves './posts-worker.js'.
      'posts-worker': path.join(root, 'lib/src/content/posts-worker.js'),
      // Likewise cache/stamp-thread resolves './stamp-worker.js'.
      'stamp-worker': path.join(root, 'lib/src/cache/stamp-worker.js'),
      // What `storefront dev` runs builds in when the sources are not at hand.
      'build-worker': path.join(root, 'lib/src/dev/build-worker.js'),
    },
    outdir,
  ),
  logLevel: 'warning',
});

// The CLI once more as one CommonJS file, which bin/storefront.js compiles with a V8 code cache
// (Node 20 has none for ES modules): start-up then skips most of parsing the code. It sits
// beside the ES chunks so that './posts-worker.js' still resolves to the worker's entry.
const esm = generatorBundleOptions({}, outdir);
await build({
  ...esm,
  entryPoints: { main: path.join(root, 'lib/src/cli/main.js') },
  format: 'cjs',
  splitting: false,
  outExtension: { '.js': '.cjs' },
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { ...esm.define, 'import.meta.url': '__import_meta_url' },
  // import() of a package left outside (esbuild, in dev) becomes require(): a script compiled
  // with a code cache has no loader for import().
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
});

// The stylesheet and the scripts, compiled once here rather than at every build.
const { compileScript, compileStylesheet } = await import(path.join(root, 'lib/src/output/assets.js'));
mkdirSync(path.join(root, 'lib', 'assets'), { recursive: true });
writeFileSync(path.join(root, 'lib', 'assets', 'site.css'), await compileStylesheet(root));
writeFileSync(path.join(root, 'lib', 'assets', 'site.js'), await compileScript(root));
writeFileSync(path.join(root, 'lib', 'assets', 'dev-client.js'), await compileScript(root, 'src/dev/client/dev-client.ts'));

// One build of the project's own content, thrown away, so that the V8 code cache written at its
// exit (see bin/storefront.js) holds the functions a build runs, not only the start-up's.
const scratch = mkdtempSync(path.join(tmpdir(), 'storefront-warm-up-'));
spawnSync(process.execPath, [path.join(root, 'bin', 'storefront.js'), '--root', root, '--quiet', 'build', '--no-cache', '--out', path.join(scratch, 'site')], { stdio: 'ignore' });
rmSync(scratch, { recursive: true, force: true });
