#!/usr/bin/env node
// The CLI runs precompiled JavaScript (lib/, written by `npm install` or `npm run compile`), so
// start-up does not pay for transpiling TypeScript. This file is CommonJS (see package.json
// here): Node starts a CommonJS entry ~8 ms sooner than an ES module, a fifth of a rebuild's
// start-up.
'use strict';
const { existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

// React's development build validates every element and is several times slower; the
// generator renders for production unless told otherwise.
process.env.NODE_ENV ??= 'production';

loadMain()
  .then((main) => main(process.argv))
  .catch((err) => {
    // main reports every error it expects itself; this is a bug or a broken install.
    console.error(err);
    process.exitCode = 1;
  });

/**
 * The CLI's code: the CommonJS bundle compiled with a V8 code cache when it is there (a third of
 * the start-up of a rebuild is parsing code otherwise; Node 20 caches no ES module code), else
 * the ES bundle, else the plain compiled modules.
 */
async function loadMain() {
  const bundle = path.join(__dirname, '../lib/bundle/main.cjs');
  if (existsSync(bundle)) return withCodeCache(bundle).main;
  for (const entry of ['../lib/bundle/main.js', '../lib/src/cli/main.js']) {
    const file = path.join(__dirname, entry);
    if (existsSync(file)) return (await import(pathToFileURL(file).href)).main;
  }
  console.error('storefront is not compiled yet: run `npm install` (or `npm run compile`) in the project folder.');
  process.exit(1);
}

/**
 * Runs a CommonJS file as Node's loader would, with V8's cache of its compiled code, kept
 * beside it as FILE.<stamp>.v8-cache. The cache is written after the first run (or when V8 rejects it,
 * after an upgrade) at exit, so it holds the functions that run used; a folder that cannot be
 * written to simply runs without one.
 */
function withCodeCache(file) {
  // Named by the bundle's size and modification time: V8 checks cached code against the
  // source's length only, so a rebuilt bundle of the same length must not find the old cache.
  const { size, mtimeMs } = statSync(file);
  const cacheFile = `${file}.${size}-${Math.round(mtimeMs)}.v8-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        const temporary = `${cacheFile}.${process.pid}`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      } catch {
        // A read-only install: no cache, the same code.
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return module.exports;
}
