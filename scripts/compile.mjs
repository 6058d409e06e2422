// Run by `npm install` (prepare) and `npm run compile`: bundles the CLI and its worker threads
// straight from the TypeScript sources into lib/bundle with esbuild, as plain ES modules (one
// file to load at start-up instead of hundreds: a build starts 0.15 s sooner), and compiles the
// stylesheet, the browser script and the dev client, and traces the share cards' font, into
// lib/assets once, rather than at every build (see src/util/precompiled.ts). esbuild only strips
// the types, so a production install (`npm ci --omit=dev`) needs no TypeScript; `npm test`
// type-checks everything with tsc.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.join(root, 'lib');
const src = (file) => path.join(root, 'src', file);

// The build's own tools are TypeScript too: the bundle options and the asset compilers.
// (Only these folders: a running `storefront dev` keeps its own bundles in lib/dev-bundle-*.)
for (const dir of ['tools', 'bundle', 'assets']) rmSync(path.join(lib, dir), { recursive: true, force: true });
await build({
  entryPoints: {
    'generator-bundle': src('dev/generator-bundle.ts'),
    assets: src('output/assets.ts'),
    'json-schemas': src('content/json-schemas.ts'),
    'share-card-font': src('images/share-card-font.ts'),
    'problem-codes': src('errors/problem-codes-page.ts'),
  },
  outdir: path.join(lib, 'tools'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { generatorBundleOptions } = await import(path.join(lib, 'tools', 'generator-bundle.js'));
const { compileScript, compileStylesheet } = await import(path.join(lib, 'tools', 'assets.js'));

// dev's build worker is an entry of its own (dev-builder.ts starts it by its file), and so is the
// preview server, for scripts/audit.mjs and scripts/screenshots.mjs.
const entries = {
  main: src('cli/main.ts'),
  'build-worker': src('dev/build-worker.ts'),
  'preview-server': src('preview/preview-server.ts'),
};
await build({ ...generatorBundleOptions(entries, path.join(lib, 'bundle')), absWorkingDir: root, logLevel: 'warning' });

mkdirSync(path.join(lib, 'assets'), { recursive: true });
writeFileSync(path.join(lib, 'assets', 'site.css'), await compileStylesheet(root));
writeFileSync(path.join(lib, 'assets', 'site.js'), await compileScript(root));
writeFileSync(path.join(lib, 'assets', 'dev-client.js'), await compileScript(root, 'src/dev/client/dev-client.ts'));
// The share cards' letters, traced from the font once here rather than at every build that draws a card.
const { traceCardFont } = await import(path.join(lib, 'tools', 'share-card-font.js'));
writeFileSync(path.join(lib, 'assets', 'share-card-font.json'), await traceCardFont());

// The JSON Schemas of the content files, for editors (.vscode/settings.json maps them; see
// docs/content-model.md, "Schemas in your editor"), each rewritten only when its text changed.
// A build writes them too, into the project it builds.
const { writeJsonSchemas } = await import(path.join(lib, 'tools', 'json-schemas.js'));
writeJsonSchemas(root, true);

// docs/problem-codes.md, the table of problem codes, from the catalogue (src/errors/catalogue.ts),
// rewritten only when its text changed; test/unit/problem-codes.test.ts fails when it is not current.
const { writeProblemCodesPage } = await import(path.join(lib, 'tools', 'problem-codes.js'));
writeProblemCodesPage(root);
