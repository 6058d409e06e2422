#!/usr/bin/env node
// The CLI runs precompiled JavaScript (lib/, written by `npm install` or `npm run compile`), so
// start-up does not pay for transpiling TypeScript.
import { existsSync } from 'node:fs';

// React's development build validates every element and is several times slower; the
// generator renders for production unless told otherwise.
process.env.NODE_ENV ??= 'production';

// The bundle (scripts/bundle-cli.mjs) starts faster; the plain compiled modules also work.
const bundle = new URL('../lib/bundle/main.js', import.meta.url);
const entry = existsSync(bundle) ? bundle : new URL('../lib/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('storefront is not compiled yet: run `npm install` (or `npm run compile`) in the project folder.');
  process.exit(1);
}
const { main } = await import(entry.href);
await main(process.argv);
