// The image stage's figures (issue 19), for a developer to read:
//   node scripts/bench-images.mjs [--generator DIR] [--posts N] [--latency MS]
// Builds a WordPress blog (the test's FakeWordPress on 127.0.0.1: N posts, half with a distinct
// 1200 x 800 featured image) cold and warm, and the real site cold and warm, printing each time;
// then serves the blog with the preview server and, in Debian's Chromium as a 375 px phone (2x),
// sums the image bytes of the blog list and of a post page, at load and scrolled to the end.
// Each build's time is printed with its peak memory.
// --generator runs another checkout's CLI (for the figures before the image stage: a worktree of
// an older commit, with its own `npm run compile`). --latency delays each answer of WordPress
// (posts and media) by MS milliseconds, as a WordPress across the internet does. It reports, it
// does not judge.
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../test/support/test-tools.mjs';
import { importFakeWordPress } from './fake-wordpress.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const generator = path.resolve(option('--generator', here));
const postCount = Number(option('--posts', '40'));
const work = mkdtempSync(path.join(tmpdir(), 'bench-images-'));

// The fake WordPress is the tests' own (see scripts/fake-wordpress.mjs).
const { FakeWordPress, makePosts } = await importFakeWordPress('bench-fake-wordpress.mjs');

// Run asynchronously: the fake WordPress answers from this process meanwhile.
const cli = async (root, ...rest) => {
  const started = performance.now();
  // GNU time reports the peak memory (resident set) of the build.
  const { stdout: out, stderr } = await promisify(execFile)(
    '/usr/bin/time',
    [
      '-f',
      'peak-rss-kb %M',
      process.execPath,
      path.join(generator, 'bin/storefront.js'),
      '--root',
      root,
      'build',
      ...rest,
    ],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  const stages = /stages: (.*)/.exec(out)?.[1] ?? '';
  const rssMb = Math.round(Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? 0) / 1024);
  return `${((performance.now() - started) / 1000).toFixed(2)} s, peak ${rssMb} MB  (${stages})`;
};

const wp = await new FakeWordPress(makePosts(postCount)).start();
wp.faults.slowMs = Number(option('--latency', '0'));
wp.mediaScale = 1;
wp.sameMedia = false;
let preview;
let browser;
try {
  const blog = path.join(work, 'blog');
  cpSync(path.join(generator, 'content'), path.join(blog, 'content'), { recursive: true });
  console.log(`generator: ${generator}`);
  console.log(
    `WordPress blog, ${postCount} posts, ${postCount / 2} featured images of 1200 x 800, ` +
      `${wp.faults.slowMs} ms a request:`,
  );
  console.log(`  cold build: ${await cli(blog, '--cms', wp.apiUrl)}`);
  console.log(`  warm build: ${await cli(blog, '--cms', wp.apiUrl)}`);
  const site = path.join(work, 'site');
  cpSync(path.join(generator, 'content'), path.join(site, 'content'), { recursive: true });
  console.log('The real site (local blog):');
  console.log(`  cold build: ${await cli(site)}`);
  console.log(`  warm build: ${await cli(site)}`);

  preview = spawn(
    process.execPath,
    [path.join(generator, 'bin/storefront.js'), '--root', blog, 'preview', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise((resolve, reject) => {
    let text = '';
    preview.stdout.on('data', (chunk) => {
      text += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
      if (found) resolve(found[0]);
    });
    preview.once('exit', (code) => reject(new Error(`preview stopped with ${code}: ${text}`)));
  });
  browser = await chromium.launch(chromiumLaunchOptions());
  console.log('Image bytes in Chromium, 375 x 812 px at 2x (a phone):');
  for (const address of ['/blog', `/blog/growth-note-${postCount}`]) {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
    const tab = await context.newPage();
    const bytes = { total: 0, count: 0 };
    tab.on('response', async (response) => {
      if (response.request().resourceType() !== 'image') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      bytes.total += body.length;
      bytes.count += 1;
    });
    await tab.goto(url + address, { waitUntil: 'networkidle' });
    const atLoad = { ...bytes };
    for (const img of await tab.locator('img').all()) {
      await img.scrollIntoViewIfNeeded();
      await tab.waitForTimeout(100);
    }
    await tab.waitForLoadState('networkidle');
    console.log(
      `  ${address.padEnd(24)} at load ${(atLoad.total / 1024).toFixed(1)} KB in ${atLoad.count} images; ` +
        `scrolled to the end ${(bytes.total / 1024).toFixed(1)} KB in ${bytes.count}`,
    );
    await context.close();
  }
} finally {
  await browser?.close();
  preview?.kill();
  await wp.stop();
  rmSync(work, { recursive: true, force: true });
}
