// Screenshots of the built site at phone (375 px) and desktop (1280 px) widths, for a person to
// look at the design. `npm run screenshots` compiles, builds dist/ and runs this:
//   node scripts/screenshots.mjs [--out DIR] [--screens N] [path ...]
// By default one full-page picture of every page kind (test/support/page-kinds.mjs, the pages the
// layout test checks: the blog post is the first one /blog links to) into .cache/screenshots/,
// which git ignores. --out DIR writes elsewhere; --screens N takes N viewport-sized pictures down
// each page instead of one full-page one; paths name the pages instead of the page kinds.
// Serves dist/ with the real preview server; Chromium is $CHROMIUM_PATH, else Debian's /usr/bin/chromium.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startPreview } from '../lib/bundle/preview-server.js';
import { firstBlogPost, LAYOUT_PAGES, routeFileName } from '../test/support/page-kinds.mjs';
import { chromiumLaunchOptions } from '../test/support/test-tools.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outDir = path.resolve(outIndex >= 0 ? args.splice(outIndex, 2)[1] : path.join(root, '.cache', 'screenshots'));
const screensIndex = args.indexOf('--screens');
const screens = screensIndex >= 0 ? Number(args.splice(screensIndex, 2)[1]) : 0;
const HEIGHT = 800;
mkdirSync(outDir, { recursive: true });

const preview = await startPreview(path.resolve('dist'), 0);
let browser;
try {
  browser = await chromium.launch(chromiumLaunchOptions());
  let paths = args;
  if (!paths.length) {
    const page = await browser.newPage();
    const blogPost = await firstBlogPost(page, preview.url);
    await page.close();
    paths = LAYOUT_PAGES.map(({ route }) => route ?? blogPost);
  }
  console.log(`Screenshots in ${outDir}:`);
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
    for (const p of paths) {
      await page.goto(preview.url + p, { waitUntil: 'load' });
      // Lazy images load before the picture is taken.
      await page.evaluate(async () => {
        const images = [...document.images];
        for (const img of images) if (img.loading === 'lazy') img.loading = 'eager';
        await Promise.race([
          Promise.all(images.map((img) => img.decode().catch(() => undefined))),
          new Promise((resolve) => setTimeout(resolve, 10_000)),
        ]);
      });
      const base = `${width}-${routeFileName(p)}`;
      const names = [];
      if (!screens) {
        names.push(`${base}.png`);
        await page.screenshot({ path: path.join(outDir, names[0]), fullPage: true });
      }
      for (let i = 0; i < screens; i++) {
        // Instantly: the site scrolls smoothly, and the picture would catch it half-way.
        await page.evaluate((y) => window.scrollTo({ left: 0, top: y, behavior: 'instant' }), i * HEIGHT);
        names.push(`${base}-${i}.png`);
        await page.screenshot({ path: path.join(outDir, names.at(-1)) });
      }
      console.log(`  ${names.join(' ')}  (${p} at ${width} px)`);
    }
    await page.close();
  }
} finally {
  await browser?.close();
  await preview.close();
}
