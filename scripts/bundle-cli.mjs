// Bundles the compiled CLI (lib/src) into lib/bundle with esbuild: one file to load at start-up
// instead of hundreds of modules, and React's production build selected at bundle time. Run by
// `npm run compile` after tsc; bin/storefront.js uses the bundle when it is there. Also compiles
// the stylesheet and the browser script into lib/assets.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'lib', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(root, 'lib/src/cli/main.js'),
    // Must sit beside the code that starts it: load-posts resolves './posts-worker.js'.
    'posts-worker': path.join(root, 'lib/src/content/posts-worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Loaded only by the commands that need them, or shipping files of their own.
  external: ['esbuild', 'linkinator', 'undici', 'sanitize-html', 'playwright-core'],
  // CommonJS packages inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The stylesheet and the browser script, compiled once here rather than at every build.
const { compileScript, compileStylesheet } = await import(path.join(root, 'lib/src/output/assets.js'));
mkdirSync(path.join(root, 'lib', 'assets'), { recursive: true });
writeFileSync(path.join(root, 'lib', 'assets', 'site.css'), await compileStylesheet(root));
writeFileSync(path.join(root, 'lib', 'assets', 'site.js'), await compileScript(root));
