/**
 * The built site in a real headless Chromium, served by the real preview server: the browser
 * script's behaviours at phone and desktop widths, the site with scripting off, console errors,
 * failed requests, horizontal scrolling, axe-core and the keyboard.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanUp, freePort, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { launchChromium } from '../support/browser.js';
import { NewsletterEndpoint } from '../support/newsletter-endpoint.js';
// The page kinds (one template each): axe checks one page of each fully, and every other page once.
import { KINDS, UNLISTED_ROUTES } from '../support/page-kinds.mjs';

let project: Awaited<ReturnType<typeof tempProject>>;
let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;
let newsletter: NewsletterEndpoint;
let launching: Promise<Browser> | undefined;
let browser: Browser | undefined;
let routes: string[] = [];

const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * Time limits. Every test here takes a few seconds; the limits leave room for a machine several
 * times slower, and a Playwright action that cannot happen fails after ACTION_TIMEOUT with its own
 * message instead of running into the test's limit.
 */
const TEST_TIMEOUT = 60_000;
const ACTION_TIMEOUT = 15_000;
/** expect.poll's limit: the behaviour is immediate, but a busy machine can be slow to show it. */
const POLL = { timeout: 5_000 };

beforeAll(async () => {
  // Chromium starts while the site builds. (A launch that fails is reported below, by `await launching`.)
  launching = launchChromium();
  launching.catch(() => undefined);
  newsletter = await new NewsletterEndpoint().start();
  project = await tempProject();
  const built = await runCli(['--root', project.root, 'build'], {
    NEWSLETTER_URL: newsletter.url,
    NEWSLETTER_EMAIL_FIELD: 'EMAIL',
    SITE_URL: 'https://www.example.com',
  });
  expect(built.code, built.stderr).toBe(0);
  preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
  const sitemap = await readFile(path.join(project.root, 'dist', 'sitemap.xml'), 'utf8');
  routes = [...sitemap.matchAll(/<loc>https:\/\/www\.example\.com([^<]*)<\/loc>/g)].map((m) => m[1]!);
  routes.push(...UNLISTED_ROUTES);
  browser = await launching;
}, TEST_TIMEOUT);

afterAll(
  () =>
    cleanUp(
      async () => (await launching?.catch(() => undefined))?.close(),
      () => preview?.stop(),
      () => newsletter?.stop(),
      () => project?.cleanup(),
    ),
  TEST_TIMEOUT,
);

/** One browser context per viewport and scripting setting, shared by the whole file (no test stores anything in it). */
const contexts = new Map<string, Promise<BrowserContext>>();
function sharedContext(
  viewport: { width: number; height: number },
  javaScriptEnabled: boolean,
): Promise<BrowserContext> {
  const key = `${viewport.width}x${viewport.height} js:${javaScriptEnabled}`;
  let context = contexts.get(key);
  if (!context) {
    context = browser!.newContext({ viewport, javaScriptEnabled }).then((created) => {
      created.setDefaultTimeout(ACTION_TIMEOUT);
      return created;
    });
    contexts.set(key, context);
  }
  return context;
}

/** A new page on `routePath`, loaded; closed when the test ends, passed or failed. */
async function open(routePath: string, viewport = DESKTOP, javaScriptEnabled = true): Promise<{ page: Page }> {
  const page = await (await sharedContext(viewport, javaScriptEnabled)).newPage();
  onTestFinished(() => page.close().catch(() => undefined));
  await page.goto(preview!.url + routePath, { waitUntil: 'load' });
  return { page };
}

/**
 * Runs `check` on each route in turn, in one page that goes from route to route (a new page costs
 * more than a navigation). One page at a time in a context: Chromium hardly runs a tab that is
 * not the newest of its window (a Playwright click on it took over a second), and on two cores
 * pages side by side in separate contexts gained nothing.
 */
async function onEachRoute(
  list: readonly string[],
  viewport: { width: number; height: number },
  javaScriptEnabled: boolean,
  check: (page: Page, routePath: string) => Promise<void>,
): Promise<void> {
  const page = await (await sharedContext(viewport, javaScriptEnabled)).newPage();
  onTestFinished(() => page.close().catch(() => undefined));
  for (const routePath of list) {
    await page.goto(preview!.url + routePath, { waitUntil: 'load' });
    await check(page, routePath);
  }
}

/** axe-core's own script, the copy @axe-core/playwright runs (it is that package's dependency). */
const axeSource: string = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))(
  'axe-core',
).source;
type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/**
 * axe-core's violations on the page as it is now, with axe's full default rule set: what
 * `new AxeBuilder({ page }).analyze()` reports for a page without frames. AxeBuilder injects
 * axe twice per analysis and, by default, also opens a new page for every analysis to merge the
 * results of frames; that was most of the time. Here axe is injected once per page load and
 * axe.run() runs in the page itself.
 */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(
      document,
      { resultTypes: ['violations'] },
    ),
  );
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * One page per viewport for the axe checks, each in a context of its own, kept from test to test
 * and closed after the last one: in a page that has run axe before, injecting and running it
 * again is much quicker than in a new page. `axeOn` loads a route in it with the mouse parked in
 * the top-left corner, away from anything a hover would restyle.
 */
const axePages = new Map<number, Promise<Page>>();
async function axeOn(routePath: string, viewport: { width: number; height: number }): Promise<Page> {
  let opening = axePages.get(viewport.width);
  if (!opening) {
    opening = browser!.newContext({ viewport }).then(async (context) => {
      context.setDefaultTimeout(ACTION_TIMEOUT);
      return context.newPage();
    });
    axePages.set(viewport.width, opening);
  }
  const page = await opening;
  await page.mouse.move(0, 0);
  await page.goto(preview!.url + routePath, { waitUntil: 'load' });
  return page;
}
async function closeAxePages(): Promise<void> {
  await Promise.all(
    [...axePages.values()].map((opening) => opening.then((page) => page.context().close()).catch(() => undefined)),
  );
  axePages.clear();
}

const representative = (kind: (typeof KINDS)[number]) => routes.find(kind.is);

describe('the browser script', { timeout: TEST_TIMEOUT }, () => {
  it('is at most 2 KB gzipped, loaded with defer, and is the only script', async () => {
    const assets = await readdir(path.join(project.root, 'dist', 'assets'));
    const js = assets.filter((f) => f.endsWith('.js'));
    expect(js).toHaveLength(1);
    expect(js[0]).toMatch(/^site\.[0-9a-f]{10}\.js$/);
    const size = gzipSync(await readFile(path.join(project.root, 'dist', 'assets', js[0]!)), { level: 9 }).length;
    console.log(`browser script: ${size} bytes gzipped`);
    expect(size).toBeLessThanOrEqual(2048);
    const html = await readFile(path.join(project.root, 'dist', 'index.html'), 'utf8');
    expect(html).toContain(`<script src="/assets/${js[0]}" defer="">`);
  });

  for (const viewport of [PHONE, DESKTOP]) {
    const at = `at ${viewport.width}px`;

    it(`sticky header from 50 px of scroll ${at}`, async () => {
      const { page } = await open('/buy-instagram-followers', viewport);
      const header = page.locator('[data-header]');
      await expect.poll(() => header.getAttribute('class'), POLL).not.toContain('is-stuck');
      await page.evaluate(() => window.scrollTo(0, 60));
      await expect.poll(() => header.getAttribute('class'), POLL).toContain('is-stuck');
      await page.evaluate(() => window.scrollTo(0, 49));
      await expect.poll(() => header.getAttribute('class'), POLL).not.toContain('is-stuck');
      await page.close();
    });

    it(
      'Services mega menu opens by click and keyboard, ' +
        'not by hover, ' +
        `closes on Escape and outside click ${at}`,
      async () => {
        const { page } = await open('/about', viewport);
        if (viewport === PHONE) await page.click('[data-menu-toggle]');
        const mega = page.locator('[data-mega]');
        const summary = mega.locator('summary');
        await summary.hover();
        expect(await mega.getAttribute('open')).toBeNull();
        await summary.click();
        expect(await mega.getAttribute('open')).not.toBeNull();
        await expect
          .poll(() => page.locator('.mega-panel a[href="/buy-youtube-watch-hours"]').isVisible(), POLL)
          .toBe(true);
        await page.keyboard.press('Escape');
        expect(await mega.getAttribute('open')).toBeNull();
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
        await page.keyboard.press('Enter');
        expect(await mega.getAttribute('open')).not.toBeNull();
        await page.mouse.click(5, 700);
        expect(await mega.getAttribute('open')).toBeNull();
        await page.close();
      },
    );

    it(`FAQ: none open, one at a time, the open one closes ${at}`, async () => {
      const { page } = await open('/buy-youtube-subscribers', viewport);
      const items = page.locator('#faq details');
      expect(await items.count()).toBe(11);
      const openCount = () => page.locator('#faq details[open]').count();
      expect(await openCount()).toBe(0);
      await items.nth(0).locator('summary').click();
      expect(await openCount()).toBe(1);
      await expect.poll(() => items.nth(0).locator('.faq-answer').isVisible(), POLL).toBe(true);
      await items.nth(1).locator('summary').click();
      expect(await openCount()).toBe(1);
      expect(await items.nth(1).getAttribute('open')).not.toBeNull();
      await items.nth(1).locator('summary').click();
      expect(await openCount()).toBe(0);
      await page.close();
    });

    it(`home picker: ARIA tabs with arrows, Home and End, default sub-category 10 ${at}`, async () => {
      const { page } = await open('/', viewport);
      const tabs = page.locator('[role=tab]');
      const count = await tabs.count();
      expect(count).toBeGreaterThan(5);
      expect(await page.locator('[role=tablist]').count()).toBe(1);
      const selected = page.locator('[role=tab][aria-selected=true]');
      expect(await selected.getAttribute('data-tab')).toBe('10');
      const visiblePanels = () => page.locator('[role=tabpanel]:visible').evaluateAll((els) => els.map((e) => e.id));
      expect(await visiblePanels()).toEqual(['pick-10']);
      await selected.focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tab'))).toBe('11');
      expect(await visiblePanels()).toEqual(['pick-11']);
      await page.keyboard.press('End');
      const last = await tabs.nth(count - 1).getAttribute('data-tab');
      expect(await visiblePanels()).toEqual([`pick-${last}`]);
      await page.keyboard.press('ArrowRight');
      expect(await visiblePanels()).toEqual(['pick-10']);
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowLeft');
      expect(await visiblePanels()).toEqual([`pick-${last}`]);
      await tabs.nth(3).click();
      expect(await tabs.nth(3).getAttribute('aria-selected')).toBe('true');
      expect(page.url()).not.toContain('#');
      expect(await page.locator('[role=tab][tabindex="0"]').count()).toBe(1);
      await page.close();
    });

    it(
      'newsletter: a plain form posting to the provider, with its consent line; ' +
        `bad addresses refused by the browser ${at}`,
      async () => {
        const { page } = await open('/contact', viewport);
        const input = page.locator('#newsletter-email');
        expect(await input.getAttribute('aria-describedby')).toBe('newsletter-consent');
        expect(await page.locator('#newsletter-consent').textContent()).toContain('You can unsubscribe at any time');
        expect(await page.locator('#newsletter-consent a[href="/privacy-policy"]').count()).toBe(1);
        const before = newsletter.received.length;
        await input.fill('not-an-address');
        await page.click('.newsletter button');
        expect(await input.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
        expect(newsletter.received.length).toBe(before);

        await input.fill('reader@example.com');
        await Promise.all([page.waitForURL((url) => url.href === newsletter.url), page.click('.newsletter button')]);
        // The field carries the provider's name for it (NEWSLETTER_EMAIL_FIELD), and the provider's page answers.
        expect(newsletter.received.at(-1)).toBe('EMAIL=reader%40example.com');
        expect(await page.locator('p').textContent()).toContain('please confirm your address');
        await page.close();
      },
    );

    it(`footer year is the current year ${at}`, async () => {
      const { page } = await open('/', viewport);
      expect(await page.locator('[data-year]').textContent()).toBe(String(new Date().getFullYear()));
      await page.close();
    });
  }

  it('mobile menu: the toggle opens and closes it, Escape closes it and returns focus; hidden on desktop', async () => {
    const { page } = await open('/', PHONE);
    const button = page.locator('[data-menu-toggle]');
    expect(await button.isVisible()).toBe(true);
    expect(await button.getAttribute('aria-controls')).toBe('site-nav');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#site-nav').isVisible()).toBe(false);
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#site-nav a[href="/about"]').isVisible()).toBe(true);
    await button.click();
    expect(await page.locator('#site-nav').isVisible()).toBe(false);
    await button.click();
    await page.locator('#site-nav a[href="/about"]').focus();
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-menu-toggle'))).toBe(true);
    await page.close();
    const desktop = await open('/', DESKTOP);
    expect(await desktop.page.locator('[data-menu-toggle]').isVisible()).toBe(false);
    expect(await desktop.page.locator('#site-nav a[href="/about"]').isVisible()).toBe(true);
    await desktop.page.close();
  });
});

describe('with JavaScript disabled', { timeout: TEST_TIMEOUT }, () => {
  it('every page keeps its links, prices, FAQ answers and Buy Now links usable', async () => {
    await onEachRoute(routes, PHONE, false, async (page, routePath) => {
      // The navigation is visible without a toggle.
      expect(await page.locator('[data-menu-toggle]').isVisible(), routePath).toBe(false);
      expect(await page.locator('#site-nav a[href="/contact"]').isVisible(), routePath).toBe(true);
      const faq = page.locator('#faq details');
      for (let i = 0; i < (await faq.count()); i++) {
        await faq.nth(i).locator('summary').click();
        expect(await faq.nth(i).locator('.faq-answer').isVisible(), `${routePath} faq ${i}`).toBe(true);
      }
      const buy = page.locator('.section-packages a.button');
      for (let i = 0; i < (await buy.count()); i++) {
        expect(await buy.nth(i).isVisible(), `${routePath} buy ${i}`).toBe(true);
        expect(await buy.nth(i).getAttribute('href'), `${routePath} buy ${i}`).toMatch(
          /^https:\/\/checkout\.example\.com\/product\/|^\/contact$/,
        );
      }
      expect(await page.locator('.section-packages [data-price]:visible').count(), routePath).toBe(
        await page.locator('.section-packages [data-price]').count(),
      );
    });
  });

  it('the home picker still reaches every sub-category through its links', async () => {
    const { page } = await open('/', PHONE, false);
    const links = await page.locator('[data-tab]').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    expect(await page.locator('#pick-10').isVisible()).toBe(true);
    for (const href of links) {
      await page.click(`[data-tab][href="${href}"]`);
      expect(await page.locator(href).isVisible(), href).toBe(true);
      expect(await page.locator(`${href} .button`).first().getAttribute('href')).toMatch(/\/product\//);
    }
    await page.close();
  });

  it('the Services menu opens without script', async () => {
    const { page } = await open('/', DESKTOP, false);
    await page.click('[data-mega] summary');
    expect(await page.locator('.mega-panel a[href="/buy-tiktok-views"]').isVisible()).toBe(true);
    await page.close();
  });
});

describe('every route', { timeout: TEST_TIMEOUT }, () => {
  afterAll(closeAxePages);

  it('has no console errors, no failed requests and no horizontal scrolling at 320 px', async () => {
    for (const routePath of routes) {
      // A context of its own for each route: nothing cached from another page.
      const context = await browser!.newContext({ viewport: { width: 320, height: 700 } });
      onTestFinished(() => context.close().catch(() => undefined));
      context.setDefaultTimeout(ACTION_TIMEOUT);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (msg) => {
        // The 404 page is itself answered with status 404, which Chromium logs; nothing else may.
        const own404 = routePath === '/no-such-page' && msg.location().url === preview!.url + routePath;
        if (msg.type() === 'error' && !own404) problems.push(`console: ${msg.text()} (${msg.location().url})`);
      });
      page.on('pageerror', (error) => problems.push(`error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
      page.on('response', (response) => {
        if (response.status() >= 400 && response.url() !== preview!.url + routePath)
          problems.push(`${response.status()}: ${response.url()}`);
      });
      await page.goto(preview!.url + routePath, { waitUntil: 'load' });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, routePath).toBe(0);
      if (routePath === '/') {
        await page.click('[data-menu-toggle]');
        const openOverflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(openOverflow, 'menu open').toBe(0);
      }
      expect(problems, routePath).toEqual([]);
      await context.close();
    }
  });

  it('is of one of the page kinds below, each of which has a page', () => {
    expect(routes.filter((r) => !KINDS.some((k) => k.is(r)))).toEqual([]);
    for (const kind of KINDS) expect(representative(kind), kind.kind).toBeDefined();
  });

  // The full check on one page of each kind: phone and desktop, the menus closed and open.
  for (const kind of KINDS) {
    it(`has zero axe-core violations, with the menus closed and open, on phone and desktop: ${kind.kind}`, async () => {
      const routePath = representative(kind)!;
      for (const viewport of [PHONE, DESKTOP]) {
        const page = await axeOn(routePath, viewport);
        expect(await axeViolations(page), `${routePath} ${viewport.width}`).toEqual([]);
        if (viewport === PHONE) await page.click('[data-menu-toggle]');
        await page.click('[data-mega] summary');
        expect(await axeViolations(page), `${routePath} ${viewport.width} menu open`).toEqual([]);
      }
    });
  }

  // Every other page shares its template with one checked above; its own content is checked here.
  it('has zero axe-core violations on every other page too, at 375 px with the menus closed', async () => {
    const others = routes.filter((r) => !KINDS.some((k) => representative(k) === r));
    expect(others.length).toBeGreaterThan(0);
    for (const routePath of others) {
      const page = await axeOn(routePath, PHONE);
      expect(await axeViolations(page), `${routePath} ${PHONE.width}`).toEqual([]);
    }
  });

  it('the keyboard alone reaches every control, and focus is always visible', async () => {
    for (const routePath of ['/', '/buy-instagram-followers', '/contact', '/blog']) {
      for (const viewport of [PHONE, DESKTOP]) {
        const { page } = await open(routePath, viewport);
        const controls = await page.evaluate(
          () =>
            [...document.querySelectorAll<HTMLElement>('a[href], button, summary, input, [tabindex="0"]')].filter(
              (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
            ).length,
        );
        const reached = new Set<string>();
        for (let i = 0; i < controls + 5; i++) {
          await page.keyboard.press('Tab');
          const focus = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            const style = getComputedStyle(el);
            const visible =
              (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
            const target = el.getAttribute('href') ?? el.id ?? '';
            const place = [...el.parentElement!.children].indexOf(el);
            const key = `${el.tagName}:${target}:${place}:${el.textContent?.slice(0, 20)}`;
            return { key, visible, tag: el.tagName, text: el.textContent?.slice(0, 30) };
          });
          if (!focus) continue;
          expect(focus.visible, `${routePath} ${viewport.width}: focus not visible on ${focus.tag} ${focus.text}`).toBe(
            true,
          );
          reached.add(focus.key);
        }
        // Skip link, header controls, page controls and footer: the walk went through the page.
        expect(reached.size, `${routePath} ${viewport.width}`).toBeGreaterThanOrEqual(Math.min(controls, 15));
        await page.close();
      }
    }
  });
});
