// `storefront dev --host`: the real CLI listening on every interface prints each address it can be
// opened at, and a page opened at a network address of this machine (the loopback one when it has
// none) reaches the dev client and its event stream at that same address, so it updates after an
// edit as it does on 127.0.0.1.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { listening } from '../support/dev-process.js';
import { runCli, startCliServer, tempProject, type CliServer } from '../helpers.js';

const SERVICE_PAGE = '/buy-instagram-followers';
const CATALOGUE = 'content/catalogue.yaml';

let project: Awaited<ReturnType<typeof tempProject>>;
let dev: CliServer | undefined;
let browser: Browser | undefined;

/** This machine's IPv4 addresses other than loopback: what `--host` alone lists. */
const networkAddresses = () =>
  Object.values(networkInterfaces())
    .flatMap((infos) => infos ?? [])
    .filter((info) => !info.internal && info.family === 'IPv4')
    .map((info) => info.address);

beforeAll(async () => {
  project = await tempProject();
  // `--host` alone, then another flag: it listens on every IPv4 interface.
  dev = await startCliServer(['--root', project.root, '--verbose', 'dev', '--host', '--port', '0'], 30_000);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  // Ctrl-C's TERM: dev removes its folder and bundle, and is killed if it does not stop.
  await dev?.stop();
  await project?.cleanup();
});

describe('storefront dev --host', () => {
  it('prints the loopback URL and one URL per network address, and says the site is exposed', async () => {
    const port = Number(new URL(dev!.url).port);
    const network = networkAddresses();
    const expected = [
      'Serving on all IPv4 network interfaces (Ctrl-C to stop):',
      `  Local:   http://127.0.0.1:${port}/`,
      ...(network.length > 0
        ? network.map((address) => `  Network: http://${address}:${port}/`)
        : ['  Network: none (this computer has no network address besides loopback)']),
    ];
    await expect.poll(() => dev!.stdout().trimEnd().split('\n'), { timeout: 5000 }).toEqual(expected);
    await expect
      .poll(dev!.stderr)
      .toContain('note: other devices on the network can open the site too; use --host only on a network you trust.');
  });

  it('serves a page at a network address whose dev client listens and updates it through that address', async () => {
    const port = Number(new URL(dev!.url).port);
    const address = networkAddresses()[0];
    const base = address ? `http://${address}:${port}` : dev!.url;
    const page = await browser!.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      const response = await page.goto(`${base}${SERVICE_PAGE}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('body').innerText()).toContain('£1.89');
      expect(await page.locator('script[src^="/__storefront/dev.js"]').count()).toBe(1);
      await listening(page);
      // The client and its event stream at the page's own address, never a fixed 127.0.0.1.
      const devRequests = requested.filter((url) => url.includes('/__storefront/'));
      expect(devRequests.some((url) => url.startsWith(`${base}/__storefront/dev.js`))).toBe(true);
      expect(devRequests.some((url) => url.startsWith(`${base}/__storefront/events`))).toBe(true);
      expect(devRequests.every((url) => url.startsWith(`${base}/`))).toBe(true);

      const file = path.join(project.root, CATALOGUE);
      const text = await readFile(file, 'utf8');
      await writeFile(
        file,
        text.replace(/\{ id: 1001, quantity: 100, price: [\d.]+,/, '{ id: 1001, quantity: 100, price: 1.42,'),
      );
      await page.waitForFunction(() => document.body?.innerText.includes('£1.42'), undefined, {
        timeout: 5000,
        polling: 50,
      });
    } finally {
      await page.close();
    }
  });
});

it('dev refuses a bad --host before building: SF170, no stack trace', async () => {
  const result = await runCli(['--root', project.root, 'dev', '--host', 'bad_host!', '--port', '0']);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('SF170  --host');
  expect(result.stderr).toContain("argument 'bad_host!' is invalid.");
  expect(result.stderr).not.toMatch(/^\s+at /m);
});

it('dev on an address this machine does not have stops with SF170 and leaves nothing behind', async () => {
  const foreign = '203.0.113.7';
  expect(networkAddresses()).not.toContain(foreign);
  const result = await runCli(['--root', project.root, '--verbose', 'dev', '--host', foreign, '--port', '0']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('SF170  --host');
  expect(result.stderr).toContain(`This computer has no address ${foreign} to listen on.`);
  const folder = /Building into (\S+)/.exec(result.stderr)?.[1];
  expect(folder).toBeTruthy();
  expect(existsSync(folder!)).toBe(false);
}, 30_000);
