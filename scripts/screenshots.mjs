// Screenshots of built pages at phone and desktop widths, for looking at the design:
//   node scripts/screenshots.mjs [--out DIR] [path ...]   (default: a few page kinds)
// Serves dist/ with the real preview server and uses Debian's Chromium.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startPreview } from '../lib/bundle/preview-server.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outDir = outIndex >= 0 ? args.splice(outIndex, 2)[1] : '/tmp/storefront-shots';
// --screens N: N viewport-sized shots down the page instead of one full-page shot.
const screensIndex = args.indexOf('--screens');
const screens = screensIndex >= 0 ? Number(args.splice(screensIndex, 2)[1]) : 0;
const paths = args.length ? args : ['/', '/buy-instagram-followers', '/about', '/contact', '/blog', '/nope'];
mkdirSync(outDir, { recursive: true });

const preview = await startPreview(path.resolve('dist'), 0);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    for (const p of paths) {
      await page.goto(preview.url + p);
      const base = `${width}-${p === '/' ? 'home' : p.slice(1).replace(/\//g, '_')}`;
      if (!screens) {
        await page.screenshot({ path: path.join(outDir, `${base}.png`), fullPage: true });
        console.log(path.join(outDir, `${base}.png`));
      }
      for (let i = 0; i < screens; i++) {
        await page.evaluate((y) => window.scrollTo(0, y), i * 800);
        await page.screenshot({ path: path.join(outDir, `${base}-${i}.png`) });
        console.log(path.join(outDir, `${base}-${i}.png`));
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  await preview.close();
}
