// Bundles the compiled CLI (lib/src) into lib/bundle with esbuild: one file to load at start-up
// instead of hundreds of modules, and React's production build selected at bundle time. Run by
// `npm run compile` after tsc; bin/storefront.js uses the bundle when it is there. Also compiles
// the stylesheet, the browser script and the dev client into lib/assets.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
      // What `storefront dev` runs builds in when the sources are not at hand.
      'build-worker': path.join(root, 'lib/src/dev/build-worker.js'),
    },
    outdir,
  ),
  logLevel: 'warning',
});

// The stylesheet and the scripts, compiled once here rather than at every build.
const { compileScript, compileStylesheet } = await import(path.join(root, 'lib/src/output/assets.js'));
mkdirSync(path.join(root, 'lib', 'assets'), { recursive: true });
writeFileSync(path.join(root, 'lib', 'assets', 'site.css'), await compileStylesheet(root));
writeFileSync(path.join(root, 'lib', 'assets', 'site.js'), await compileScript(root));
writeFileSync(path.join(root, 'lib', 'assets', 'dev-client.js'), await compileScript(root, 'src/dev/client/dev-client.ts'));
