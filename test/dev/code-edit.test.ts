// `storefront dev` after an edit of the generator's own code: a template saved with a change,
// then saved half-written (it does not compile: the overlay names the file and line, and dev
// keeps serving the last good build), then fixed; then the stylesheet edited, which reloads the
// page (a template edit changes the open page in place). The real CLI runs from a copy of the generator
// (bin, lib, src, templates) so that the repository's own templates are never touched.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { listening, startDevProcess } from '../support/dev-process.js';
import { repoRoot } from '../helpers.js';

const SERVICE_PAGE = '/buy-instagram-followers';
const FOOTER_TAG = '<footer className="site-footer">';

let generator: string;
let dev: ChildProcess;
let url: string;
let devOutput: () => string;
let outDir: string;
let browser: Browser;

/** Replaces the footer's opening tag in the copy's template (the edit a developer saves). */
async function saveFooter(tag: string): Promise<void> {
  const file = path.join(generator, 'templates', 'Footer.tsx');
  const text = await readFile(file, 'utf8');
  const current = /<footer className="site-footer"[^\n]*/.exec(text)?.[0];
  if (!current) throw new Error(`templates/Footer.tsx has no ${FOOTER_TAG} any more: update this test`);
  await writeFile(file, text.replace(current, tag));
}

/** Stops dev with Ctrl-C, or kills it if it does not stop; resolves with its exit code. */
function stopDev(): Promise<number | null> {
  if (dev.exitCode !== null || dev.signalCode !== null) return Promise.resolve(dev.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => dev.kill('SIGKILL'), 10_000);
    dev.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    dev.kill('SIGINT');
  });
}

beforeAll(async () => {
  generator = await mkdtemp(path.join(tmpdir(), 'storefront-generator-'));
  for (const part of [
    'bin',
    'src',
    'templates',
    'content',
    'lib/bundle',
    'lib/assets',
    'package.json',
    'tsconfig.json',
  ]) {
    await cp(path.join(repoRoot, part), path.join(generator, part), { recursive: true });
  }
  // The packages, shared: esbuild, React and the rest resolve from the copy as from the repository.
  await symlink(path.join(repoRoot, 'node_modules'), path.join(generator, 'node_modules'), 'dir');
  ({
    child: dev,
    url,
    output: devOutput,
  } = await startDevProcess(path.join(generator, 'bin', 'storefront.js'), generator, 30_000));
  outDir = /Building into (\S+)/.exec(devOutput())![1]!;
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  if (dev) await stopDev();
  if (generator) await rm(generator, { recursive: true, force: true });
});

it(
  'shows an edited template in the open page, shows a template that does not compile, recovers when it is fixed, ' +
    'and reloads the page for an edited stylesheet',
  async () => {
    const page = await browser.newPage();
    // The dev client, its event stream and the overlay must live within the site's CSP.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
    });
    try {
      await page.goto(`${url}${SERVICE_PAGE}`);
      await listening(page);
      let loads = 0;
      page.on('load', () => loads++);
      const started = Date.now();
      await saveFooter('<footer className="site-footer" data-dev-edit="one">');
      await page.waitForSelector('footer[data-dev-edit="one"]', { timeout: 10_000 });
      const ms = Date.now() - started;
      console.log(
        `dev: template edit visible in the open page after ${ms} ms; ` +
          `${/Rebuilt after templates[^\n]*/.exec(devOutput())?.[0]}`,
      );
      expect(devOutput()).toMatch(
        /Rebuilt after templates\/Footer\.tsx changed \(code reloaded in [\d.]+ s\): (\d+) of \1 pages rendered/,
      );

      // Saved half-written: esbuild cannot compile it.
      await saveFooter('<footer className="site-footer" data-dev-edit="two"');
      const overlay = page.locator('#__storefront-dev-overlay');
      await overlay.waitFor({ state: 'visible', timeout: 10_000 });
      const text = await overlay.innerText();
      expect(text).toContain('SF150');
      expect(text).toMatch(/templates\/Footer\.tsx:\d+/);
      expect(devOutput()).toMatch(/SF150 +templates\/Footer\.tsx:\d+/);
      expect(dev.exitCode).toBeNull();
      // Still served: the last good build.
      const served = await fetch(`${url}${SERVICE_PAGE}`);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('data-dev-edit="one"');

      await saveFooter('<footer className="site-footer" data-dev-edit="two">');
      await page.waitForSelector('footer[data-dev-edit="two"]', { timeout: 10_000 });
      expect(await overlay.count()).toBe(0);
      // Attributes only: the page was changed in place each time, never reloaded.
      expect(loads).toBe(0);

      // A new stylesheet (its address names its contents) is loaded by reloading the page: the
      // site's script runs once, on the page it loaded with, so a changed asset is never patched in.
      const stylesheet = () => page.locator('link[rel="stylesheet"]').getAttribute('href');
      const before = await stylesheet();
      const reloaded = page.waitForEvent('load', { timeout: 10_000 });
      const css = path.join(generator, 'templates', 'styles.css');
      await writeFile(css, `${await readFile(css, 'utf8')}\n.site-footer { outline: 1px solid transparent; }\n`);
      await reloaded;
      expect(await stylesheet()).toMatch(/^\/assets\/site\.[0-9a-f]+\.css$/);
      expect(await stylesheet()).not.toBe(before);
      expect(refused).toEqual([]);
    } finally {
      await page.close();
    }
  },
);

it('stops cleanly on Ctrl-C after code edits: exit code 0, output folder and every dev bundle removed', async () => {
  expect(await stopDev()).toBe(0);
  expect(existsSync(outDir)).toBe(false);
  expect((await readdir(path.join(generator, 'lib'))).filter((name) => name.startsWith('dev-bundle-'))).toEqual([]);
});
