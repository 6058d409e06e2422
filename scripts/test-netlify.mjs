#!/usr/bin/env node
/**
 * `npm run test:netlify`: the site built with `--target netlify`, served by the real
 * `netlify dev` (Netlify's redirect and header rules, its 404 handling), checked over HTTP.
 * Not part of `npm test`: netlify-cli is about 420 MB. It is installed on first use into
 * .cache/netlify-cli/ (git-ignored) and reused afterwards.
 *
 * netlify dev runs offline (--offline: no site linking, no API, no login), with no framework
 * detection (--framework '#static' serves --dir as it is), no edge functions (they need Deno,
 * downloaded on first use), no telemetry (CI=true, and telemetryDisabled in its global config),
 * and its config and state in a temporary folder. Prints one line per check and
 * `N passed, N failed`; exits 1 on any failure. netlify dev is always stopped (its whole
 * process group).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The newest netlify-cli whose `engines` admit Node 20 (`>=20.12.2`); 27.0.0 and later need
 * Node >=22.13.0. Some of its dependencies' newest versions ask for Node 22 (npm warns EBADENGINE).
 */
const NETLIFY_CLI_VERSION = '26.2.0';
const SITE = 'https://www.example.com';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installDir = path.join(repoRoot, '.cache', 'netlify-cli');
const netlifyBin = path.join(installDir, 'node_modules', 'netlify-cli', 'bin', 'run.js');

function installedVersion() {
  const pkg = path.join(installDir, 'node_modules', 'netlify-cli', 'package.json');
  return existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A raw GET: no redirect following, no decompression. */
function get(base, p) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path: p, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('timeout', function () {
        this.destroy(new Error(`GET ${p} timed out`));
      })
      .on('error', reject)
      .end();
  });
}

let passed = 0;
let failed = 0;
function check(ok, line) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
}
/** What netlify dev does where it is known to differ from Netlify itself: shown, not counted. */
function note(line) {
  console.log(`note ${line}`);
}

async function main() {
  if (installedVersion() !== NETLIFY_CLI_VERSION) {
    console.log(`Installing netlify-cli@${NETLIFY_CLI_VERSION} into .cache/netlify-cli/ (first use, about 420 MB)…`);
    await mkdir(installDir, { recursive: true });
    // --ignore-scripts: netlify-cli's postinstall only writes shell completion into ~/.config/netlify
    // and prints a banner; the native binaries it needs come as platform packages.
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        installDir,
        `netlify-cli@${NETLIFY_CLI_VERSION}`,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
      ],
      {
        stdio: 'inherit',
      },
    );
  }
  console.log(`netlify-cli ${installedVersion()}, Node ${process.versions.node}`);

  // The same compiled CLI the tests run.
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'compile.mjs')], { stdio: 'inherit' });

  const work = await mkdtemp(path.join(tmpdir(), 'storefront-netlify-'));
  let child;
  const stopNetlify = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    // Whatever it started and left in its group.
    signal('SIGKILL');
  };
  const onSignal = () => {
    stopNetlify().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // A throwaway project: a copy of content/, as tempProject() in test/helpers.ts makes.
    const root = path.join(work, 'project');
    await mkdir(root);
    await cp(path.join(repoRoot, 'content'), path.join(root, 'content'), { recursive: true });
    const build = spawn(
      process.execPath,
      [path.join(repoRoot, 'bin', 'storefront.js'), '--root', root, 'build', '--target', 'netlify'],
      {
        env: { ...process.env, NO_COLOR: '1', SITE_URL: SITE },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let buildOutput = '';
    build.stdout.on('data', (c) => (buildOutput += c));
    build.stderr.on('data', (c) => (buildOutput += c));
    const code = await new Promise((resolve) => build.once('exit', resolve));
    check(code === 0, `build --target netlify exited ${code}`);
    if (code !== 0) {
      console.log(buildOutput);
      return;
    }
    const dist = path.join(root, 'dist');

    // netlify dev's own state: global config (telemetry off), caches, .netlify/ of the project.
    const home = path.join(work, 'home');
    await mkdir(path.join(home, '.config', 'netlify'), { recursive: true });
    await writeFile(path.join(home, '.config', 'netlify', 'config.json'), JSON.stringify({ telemetryDisabled: true }));
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('NETLIFY_')) delete env[name];
    Object.assign(env, {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      CI: 'true',
      BROWSER: 'none',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    });
    const port = await freePort();
    const args = [
      netlifyBin,
      'dev',
      '--offline',
      '--internal-disable-edge-functions',
      '--framework',
      '#static',
      '--dir',
      dist,
      '--port',
      String(port),
      '--staticServerPort',
      String(await freePort()),
      '--functions-port',
      String(await freePort()),
      '--geo',
      'mock',
      '--country',
      'GB',
      '--no-open',
      '--skip-gitignore',
    ];
    child = spawn(process.execPath, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    let ready = false;
    while (!ready) {
      if (child.exitCode !== null) break;
      if (Date.now() - started > 120_000) break;
      try {
        await get(base, '/');
        ready = true;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    check(ready, `netlify dev answered on ${base} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!ready) {
      console.log(output);
      return;
    }

    const redirects = parse(await readFile(path.join(repoRoot, 'content', 'redirects.yaml'), 'utf8'));
    for (const { from, to } of redirects) {
      const r = await get(base, from);
      const location = r.headers.location;
      const target = location === undefined ? undefined : new URL(location, base);
      check(
        r.status === 301 && target?.origin === new URL(base).origin && target.pathname === to,
        `${from} → ${r.status} Location: ${location ?? '(none)'} (want 301 ${to})`,
      );
    }

    const notFound = await readFile(path.join(dist, '404.html'));
    const missing = await get(base, '/no-such-page');
    check(
      missing.status === 404 && missing.body.equals(notFound),
      `/no-such-page → ${missing.status}, ` +
        `${missing.body.equals(notFound) ? 'the content of 404.html' : `not 404.html (${missing.body.length} bytes)`}`,
    );

    const security = {
      'content-security-policy': (v) =>
        typeof v === 'string' && v.includes("script-src 'self'") && v.includes("frame-ancestors 'none'"),
      'x-content-type-options': (v) => v === 'nosniff',
      'x-frame-options': (v) => v === 'DENY',
      'referrer-policy': (v) => v === 'strict-origin-when-cross-origin',
      'permissions-policy': (v) => typeof v === 'string' && v.length > 0,
      'strict-transport-security': (v) => v === 'max-age=31536000',
    };
    const asset = (await readdir(path.join(dist, 'assets'))).find((f) => f.endsWith('.css'));
    for (const [p, cache] of [
      ['/about', REVALIDATE],
      ['/', REVALIDATE],
      ['/blog', REVALIDATE],
      ['/blog/tiktok-growth-routine', REVALIDATE],
      [`/assets/${asset}`, IMMUTABLE],
    ]) {
      const r = await get(base, p);
      const bad = Object.entries(security)
        .filter(([name, ok]) => !ok(r.headers[name]))
        .map(([name]) => name);
      check(
        r.status === 200 && bad.length === 0,
        `${p} → ${r.status}, security headers ${bad.length ? `missing or wrong: ${bad.join(', ')}` : 'all sent'}`,
      );
      // netlify dev sets the _headers values, then writes the response head with its static
      // server's own headers, whose Cache-Control (@fastify/send: `public, max-age=0`) wins.
      // Netlify itself sends the _headers value (test/hosts/netlify-parsers.test.ts checks the rules).
      // Pages get no Cache-Control from _headers: Netlify's own default (REVALIDATE) applies.
      const from = cache === IMMUTABLE ? `_headers says ${cache}` : `Netlify's default is ${cache}`;
      if (r.headers['cache-control'] === cache) check(true, `${p} Cache-Control: ${cache}`);
      else note(`${p} Cache-Control: ${r.headers['cache-control']} from netlify dev's static server (${from})`);
    }

    // Clean URLs: a page, or a redirect to the clean address; shown as netlify dev answers.
    for (const [p, file] of [
      ['/about/', 'about.html'],
      ['/about.html', 'about.html'],
      ['/blog/', 'blog.html'],
      ['/index.html', 'index.html'],
    ]) {
      const r = await get(base, p);
      const same = r.body.equals(await readFile(path.join(dist, file)));
      const clean =
        r.headers.location !== undefined &&
        new URL(r.headers.location, base).pathname === p.replace(/(\.html|\/)$/, '').replace(/^\/index$/, '/');
      check(
        (r.status === 200 && same) || ([301, 308].includes(r.status) && clean),
        `${p} → ${r.status}${r.headers.location ? ` Location: ${r.headers.location}` : ''}${same ? ` (${file})` : ''}`,
      );
    }
    for (const p of ['/_redirects', '/_headers']) {
      const r = await get(base, p);
      const theFile = r.body.includes('Written by storefront build');
      if (!theFile) check(true, `${p} → ${r.status}, not the file`);
      else note(`${p} → ${r.status}: netlify dev's static server serves the file itself`);
    }
  } finally {
    await stopNetlify();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await rm(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main().catch((error) => {
  check(false, `error: ${error instanceof Error ? error.stack : String(error)}`);
});
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
