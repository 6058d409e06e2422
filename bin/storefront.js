#!/usr/bin/env node
// The CLI runs the JavaScript that `npm install` (or `npm run compile`) compiles into lib/, so
// start-up does not pay for transpiling TypeScript.

// React's development build validates every element and is several times slower; the
// generator renders for production unless told otherwise.
process.env.NODE_ENV ??= 'production';

let main;
try {
  ({ main } = await import('../lib/bundle/main.js'));
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('lib/bundle/main.js')) throw err;
  console.error('storefront is not compiled yet: run `npm install` (or `npm run compile`) in the project folder.');
  process.exit(1);
}
await main(process.argv);
