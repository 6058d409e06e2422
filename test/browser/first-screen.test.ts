/**
 * What a visitor sees first, in a real headless Chromium at a phone's first screen (375 x 667,
 * an iPhone SE) and a laptop's (1280 x 800), on every service page and the home page, served by
 * the real preview server from a real build:
 * 1. the specification's words: the notice 'Your account should be public!' styled as a warning
 *    that passes contrast AA, a why-choose section, the home hero's two YouTube buttons;
 * 2. the first package's price and Buy Now on the first screen (the whole first row on a laptop),
 *    with only the breadcrumb, the heading and the notice above them; tiles of one grid of one
 *    height with their buttons at one place; the support tile's button on one line;
 * 3. above the packages, in body-size text on the first screen, the platform's rules naming the
 *    platform and the worst that may happen (linked to the page's full answer, which opens), and
 *    how delivery goes; under them how VAT stands (from content/trader.yaml) and the right to
 *    cancel (linked to the terms); each tile's price per 1,000;
 * 4. the same wherever a price and a Buy Now are shown: every panel of the home page's picker,
 *    whose rules line names its own platform and links to its service page's answer;
 * 5. the home page's first screen on a phone leads to every platform: a tile each, linking to
 *    its packages in the picker.
 * On a phone no gap between two sections is over 96 px. The positions measured are printed.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, freePort, repoRoot, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { launchChromium } from '../support/browser.js';

const SCREENS = [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
] as const;
const TEST_TIMEOUT = 60_000;
const NOTICE = 'Your account should be public!';
/** The most space between two sections' contents on a phone. */
const MAX_GAP = 96;

interface Catalogue {
  platforms: { name: string; sub: { id: number; packages: { price: number }[] }[] }[];
}

/** The content files' YAML, as written (not as built). */
async function readContent<T>(...file: string[]): Promise<T> {
  return parseYaml(await readFile(path.join(repoRoot, 'content', ...file), 'utf8')) as T;
}

/** The service pages' paths, sub-categories and the platform each sells on, from the content files. */
async function servicePages(): Promise<{ path: string; platform: string; subCategory: number }[]> {
  const catalogue = await readContent<Catalogue>('catalogue.yaml');
  const platformOf = (id: number) => catalogue.platforms.find((p) => p.sub.some((sub) => sub.id === id))!.name;
  const files = (await readdir(path.join(repoRoot, 'content', 'services'))).filter((n) => n.endsWith('.yaml')).sort();
  return Promise.all(
    files.map(async (name) => {
      const page = await readContent<{ path: string; subCategory: number }>('services', name);
      return { path: page.path, platform: platformOf(page.subCategory), subCategory: page.subCategory };
    }),
  );
}

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;
let launching: Promise<Browser> | undefined;
let services: { path: string; platform: string; subCategory: number }[] = [];
/**
 * The platforms sold, each with its sub-categories that have packages, from content/catalogue.yaml,
 * and the one with the platform's lowest price (where its hero tile leads).
 */
let platforms: { name: string; subs: number[]; cheapest: number }[] = [];
/** What the VAT line must say: content/trader.yaml has a vatNumber or not. */
let vatLine = '';
const contexts = new Map<number, Promise<BrowserContext>>();

beforeAll(async () => {
  launching = launchChromium();
  launching.catch(() => undefined);
  services = await servicePages();
  const low = (sub: Catalogue['platforms'][number]['sub'][number]) => Math.min(...sub.packages.map((k) => k.price));
  platforms = (await readContent<Catalogue>('catalogue.yaml')).platforms
    .map((p) => {
      const sold = p.sub.filter((sub) => sub.packages.length > 0);
      const cheapest = [...sold].sort((a, b) => low(a) - low(b))[0];
      return { name: p.name, subs: sold.map((sub) => sub.id), cheapest: cheapest?.id ?? 0 };
    })
    .filter((p) => p.subs.length > 0);
  const trader = parseYaml(await readFile(path.join(repoRoot, 'content', 'trader.yaml'), 'utf8')) as {
    vatNumber?: string;
  };
  vatLine = trader.vatNumber ? 'Prices include VAT.' : 'No VAT is charged.';
  project = await tempProject();
  const built = await runCli(['--root', project.root, 'build'], { SITE_URL: 'https://www.example.com' });
  expect(built.code, built.stderr).toBe(0);
  preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
  await launching;
}, TEST_TIMEOUT);

afterAll(
  () =>
    cleanUp(
      async () => (await launching?.catch(() => undefined))?.close(),
      () => preview?.stop(),
      () => project?.cleanup(),
    ),
  TEST_TIMEOUT,
);

function context(screen: (typeof SCREENS)[number]): Promise<BrowserContext> {
  let opening = contexts.get(screen.width);
  if (!opening) {
    opening = launching!.then((browser) => browser.newContext({ viewport: screen }));
    contexts.set(screen.width, opening);
  }
  return opening;
}

async function open(screen: (typeof SCREENS)[number], route: string): Promise<Page> {
  const page = await (await context(screen)).newPage();
  const answer = await page.goto(preview!.url + route, { waitUntil: 'load' });
  expect(answer?.status(), route).toBe(200);
  return page;
}

/** Everything measured on a service page's first screen, scrolled to the top. Runs in the page. */
function measureServicePage() {
  const box = (el: Element | null) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {
      top: Math.round(r.top),
      bottom: Math.round(r.bottom),
      left: Math.round(r.left),
      height: Math.round(r.height),
    };
  };
  const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  /** WCAG's relative luminance of a computed rgb() colour, and the contrast of two. */
  const luminance = (colour: string) => {
    const [r, g, b] = colour
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };

  const notice = document.querySelector('.hero .notice');
  const noticeStyle = notice && getComputedStyle(notice);
  const tiles = [...document.querySelectorAll('#packages .package:not(.package-support)')];
  const first = tiles[0] ?? null;
  const firstRowTop = first ? first.getBoundingClientRect().top : 0;
  const facts = document.querySelector('#packages .before-you-buy');
  const rules = document.querySelector('#packages .package-rules');
  const delivery = document.querySelector('#packages .package-delivery-line');
  const whyChoose = [...document.querySelectorAll('main h2')].find((h) => /^Why choose\b/.test(text(h))) ?? null;
  const support = document.querySelector('#packages .package-support .button');
  return {
    heights: { window: innerHeight, scrollY },
    breadcrumb: box(document.querySelector('.hero .breadcrumb')),
    heading: box(document.querySelector('.hero h1')),
    notice: box(notice),
    noticeText: text(notice?.querySelector('strong') ?? null),
    noticeContrast: noticeStyle ? contrast(noticeStyle.color, noticeStyle.backgroundColor) : 0,
    noticeBorder: noticeStyle?.borderLeftColor ?? '',
    heroHasIntro: !!document.querySelector('.hero .hero-intro'),
    price: box(first?.querySelector('.package-price') ?? null),
    priceText: text(first?.querySelector('.package-price') ?? null),
    buy: box(first?.querySelector('a.button') ?? null),
    buyText: text(first?.querySelector('a.button') ?? null).replace(/:.*/, ''),
    firstRow: tiles.filter((t) => Math.abs(t.getBoundingClientRect().top - firstRowTop) < 2).map((t) => box(t)!),
    tiles: tiles.map((t) => ({
      height: Math.round(t.getBoundingClientRect().height),
      button: Math.round(t.querySelector('a.button')!.getBoundingClientRect().top - t.getBoundingClientRect().top),
    })),
    support: support && {
      height: Math.round(support.getBoundingClientRect().height),
      lineHeight: parseFloat(getComputedStyle(support).lineHeight),
      overflows: support.scrollWidth > support.clientWidth,
    },
    factsAfterGrid: facts?.previousElementSibling?.matches('ul.package-grid') ?? false,
    facts: [...(facts?.children ?? [])].map((li) => ({
      text: text(li),
      links: [...li.querySelectorAll('a')].map((a) => a.getAttribute('href')),
    })),
    rules: rules && {
      ...box(rules)!,
      text: text(rules),
      links: [...rules.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      fontSize: parseFloat(getComputedStyle(rules.querySelector('p') ?? rules).fontSize),
    },
    bodyFontSize: parseFloat(getComputedStyle(document.body).fontSize),
    deliveryText: text(delivery),
    factsOrder:
      !!rules &&
      rules.nextElementSibling === delivery &&
      !!delivery?.nextElementSibling?.matches('ul.package-grid') &&
      !!rules.previousElementSibling?.matches('h2'),
    perThousand: tiles.map((t) => text(t.querySelector('.package-detail'))),
    rulesAnswerInFaq: !!document.querySelector('#faq details #platform-rules'),
    packagesBottom: box(document.querySelector('#packages'))!.bottom,
    whyChoose: whyChoose && {
      top: Math.round(whyChoose.getBoundingClientRect().top),
      text: text(whyChoose),
      intro: text(whyChoose.closest('section')?.querySelector('.section-intro') ?? null),
    },
  };
}

/** The largest space between the contents of two adjacent sections of <main>. Runs in the page. */
function largestSectionGap(): { gap: number; between: string } {
  const sections = [...document.querySelectorAll('main > section, main > div > section')].filter(
    (s) => s.getBoundingClientRect().height > 0,
  );
  /** The outermost boxes holding content: the children of the section's container. */
  const contents = (s: Element) =>
    [...(s.querySelector('.container') ?? s).children].filter((c) => c.getBoundingClientRect().height > 0);
  let worst = { gap: 0, between: '' };
  for (let i = 1; i < sections.length; i++) {
    const above = contents(sections[i - 1]!).at(-1);
    const below = contents(sections[i]!)[0];
    if (!above || !below) continue;
    const gap = Math.round(below.getBoundingClientRect().top - above.getBoundingClientRect().bottom);
    if (gap > worst.gap) worst = { gap, between: `#${sections[i - 1]!.id || i - 1} and #${sections[i]!.id || i}` };
  }
  return worst;
}

const positions: string[] = [];

describe.each(SCREENS)('at $width x $height', (screen) => {
  it(
    'every service page shows the notice, the first package and the facts beside it on the first screen',
    async () => {
      const problems: string[] = [];
      for (const { path: route, platform } of services) {
        const page = await open(screen, route);
        try {
          const m = await page.evaluate(measureServicePage);
          const at = `${route} at ${screen.width}`;
          if (m.heights.scrollY !== 0) problems.push(`${at}: the page opened scrolled to ${m.heights.scrollY}`);
          // 1. The specification's notice, as a warning that passes contrast AA.
          if (m.noticeText !== NOTICE) problems.push(`${at}: the notice reads "${m.noticeText}"`);
          if (m.noticeContrast < 4.5) problems.push(`${at}: the notice's contrast is ${m.noticeContrast.toFixed(2)}`);
          if (!/^rgb\((1[5-9]\d|2\d\d), (\d{2}|1\d\d), (\d|[1-9]\d)\)$/.test(m.noticeBorder))
            problems.push(`${at}: the notice's border ${m.noticeBorder} is no warning colour (amber to red)`);
          if (!m.whyChoose) problems.push(`${at}: no "Why choose" heading`);
          else {
            if (m.whyChoose.top < m.packagesBottom) problems.push(`${at}: "${m.whyChoose.text}" is above the packages`);
            if (!m.whyChoose.intro) problems.push(`${at}: the why-choose section has no introduction`);
          }
          // 2. The first screen sells: breadcrumb, heading, notice, then the packages.
          const order = [m.breadcrumb, m.heading, m.notice, m.price];
          if (order.some((b) => !b)) problems.push(`${at}: missing breadcrumb, heading, notice or package`);
          else
            for (let i = 1; i < order.length; i++)
              if (order[i]!.top < order[i - 1]!.bottom) problems.push(`${at}: the first screen is out of order (${i})`);
          if (m.heroHasIntro) problems.push(`${at}: the introduction is still above the packages`);
          if (!m.price || !m.buy || m.price.bottom > m.heights.window || m.buy.bottom > m.heights.window)
            problems.push(
              `${at}: the first price ends at ${m.price?.bottom} px and its Buy Now at ${m.buy?.bottom} px, ` +
                `in a ${m.heights.window} px window`,
            );
          if (m.buyText !== 'Buy Now') problems.push(`${at}: the first button reads "${m.buyText}"`);
          if (screen.width >= 1280 && m.firstRow.some((tile) => tile.bottom > m.heights.window))
            problems.push(
              `${at}: the first row of packages ends at ${Math.max(...m.firstRow.map((t) => t.bottom))} px`,
            );
          const heights = new Set(m.tiles.map((t) => t.height));
          const buttons = new Set(m.tiles.map((t) => t.button));
          if (Math.max(...heights) - Math.min(...heights) > 1)
            problems.push(`${at}: the package tiles' heights differ: ${[...heights].join(', ')}`);
          if (Math.max(...buttons) - Math.min(...buttons) > 1)
            problems.push(`${at}: the Buy Now buttons sit at ${[...buttons].join(', ')} px in their tiles`);
          if (m.support && (m.support.height > 2 * m.support.lineHeight || m.support.overflows))
            problems.push(`${at}: "Contact support" wraps or overflows`);
          // 3. Above the packages, on the first screen: the platform's rules and how delivery goes.
          if (!m.factsOrder) problems.push(`${at}: the rules and delivery lines are not between heading and grid`);
          const expected = new RegExp(`^${platform}'s rules forbid\\b`);
          if (
            !m.rules ||
            !expected.test(m.rules.text) ||
            !/remove/.test(m.rules.text) ||
            !/reach/.test(m.rules.text) ||
            !/restrict or close/.test(m.rules.text) ||
            !m.rules.links.includes('#platform-rules')
          )
            problems.push(`${at}: the platform's rules line is "${m.rules?.text}" linking to ${m.rules?.links}`);
          else {
            if (m.rules.bottom > m.heights.window)
              problems.push(`${at}: the rules line ends at ${m.rules.bottom} px, below the first screen`);
            if (m.rules.fontSize < m.bodyFontSize)
              problems.push(`${at}: the rules line is ${m.rules.fontSize} px, under the body's ${m.bodyFontSize} px`);
          }
          if (!/^Delivery starts within .+\.$/.test(m.deliveryText))
            problems.push(`${at}: the delivery line reads "${m.deliveryText}"`);
          const perThousand = m.perThousand.filter((line) => !/^£\d+\.\d\d per 1,000(?!\d)/.test(line));
          if (perThousand.length) problems.push(`${at}: tiles without a price per 1,000: ${perThousand.join(' | ')}`);
          if (!m.rulesAnswerInFaq) problems.push(`${at}: no FAQ answer with id platform-rules`);
          // Under them: how VAT stands and the right to cancel, each linked.
          if (!m.factsAfterGrid) problems.push(`${at}: the terms of buying are not right after the package grid`);
          const [vat, cancel] = m.facts;
          if (m.facts.length !== 2) problems.push(`${at}: ${m.facts.length} terms under the packages`);
          if (!vat?.text.startsWith(vatLine) || !vat.links.some((href) => href?.startsWith('/term-of-service#')))
            problems.push(`${at}: the VAT line reads "${vat?.text}", linking to ${vat?.links}, not "${vatLine}"`);
          if (
            !cancel ||
            !/14 days/.test(cancel.text) ||
            !cancel.links.some((href) => href?.startsWith('/term-of-service#'))
          )
            problems.push(`${at}: the cancellation line is "${cancel?.text}" linking to ${cancel?.links}`);
          positions.push(
            `${at} x ${screen.height}: price ${m.price?.top}–${m.price?.bottom} px, ` +
              `Buy Now ${m.buy?.top}–${m.buy?.bottom} px`,
          );
          if (screen.width === 375) {
            const gap = await page.evaluate(largestSectionGap);
            if (gap.gap > MAX_GAP) problems.push(`${at}: ${gap.gap} px between ${gap.between}`);
          }
        } finally {
          await page.close();
        }
      }
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "every panel of the home picker has its platform's rules above its packages and the terms under them",
    async () => {
      const page = await open(screen, '/');
      const problems: string[] = [];
      try {
        const tabs = await page.$$eval('[data-picker] [data-tab]', (links) =>
          links.map((a) => a.getAttribute('data-tab')!),
        );
        expect(tabs.map(Number).sort()).toEqual(platforms.flatMap((p) => p.subs).sort());
        for (const tab of tabs) {
          await page.click(`[data-tab="${tab}"]`);
          const m = await page.evaluate((id) => {
            const panel = document.getElementById(`pick-${id}`)!;
            // The panel's top just under the sticky header, as a reader scrolls to it.
            const header = document.querySelector('.site-header')!.getBoundingClientRect().height;
            scrollTo({ top: panel.getBoundingClientRect().top + scrollY - header, behavior: 'instant' });
            const rules = panel.querySelector('.package-rules');
            const buy = panel.querySelector('.package a.button');
            const terms = document.querySelector('[data-picker] .before-you-buy');
            const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
            return {
              hidden: panel.hidden || getComputedStyle(panel).display === 'none',
              rules: text(rules),
              rulesLink: rules?.querySelector('a')?.getAttribute('href'),
              rulesAboveGrid: !!rules?.nextElementSibling?.nextElementSibling?.matches('ul.package-grid'),
              rulesFont: rules ? parseFloat(getComputedStyle(rules.querySelector('p') ?? rules).fontSize) : 0,
              bodyFont: parseFloat(getComputedStyle(document.body).fontSize),
              rulesTop: rules ? rules.getBoundingClientRect().top - header : -1,
              buyBottom: buy ? buy.getBoundingClientRect().bottom : Infinity,
              window: innerHeight,
              price: text(panel.querySelector('.package-price')),
              terms: [...(terms?.children ?? [])].map((li) => text(li)),
              termsVisible: !!terms && terms.getBoundingClientRect().height > 0,
            };
          }, tab);
          const at = `the picker's panel ${tab} at ${screen.width}`;
          const platform = platforms.find((p) => p.subs.includes(Number(tab)))!.name;
          const servicePath = services.find((sv) => sv.subCategory === Number(tab))?.path;
          if (m.hidden) problems.push(`${at}: hidden after its tab was chosen`);
          if (!new RegExp(`^${platform}'s rules forbid\\b.*restrict or close`).test(m.rules))
            problems.push(`${at}: the rules line reads "${m.rules}"`);
          if (m.rulesLink !== `${servicePath}#platform-rules`)
            problems.push(`${at}: the rules line links to ${m.rulesLink}, not ${servicePath}#platform-rules`);
          if (!m.rulesAboveGrid) problems.push(`${at}: the rules line is not above the packages`);
          if (m.rulesFont < m.bodyFont) problems.push(`${at}: the rules line is ${m.rulesFont} px, not body size`);
          if (m.rulesTop < 0 || m.buyBottom > m.window)
            problems.push(`${at}: the rules line and the first Buy Now do not share a screen (${m.buyBottom} px)`);
          if (!/^£\d/.test(m.price)) problems.push(`${at}: the first tile's price reads "${m.price}"`);
          if (!m.termsVisible || !m.terms[0]?.startsWith(vatLine) || !/14 days/.test(m.terms[1] ?? ''))
            problems.push(`${at}: the terms under the picker read ${JSON.stringify(m.terms)}`);
        }
      } finally {
        await page.close();
      }
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "the home hero has the specification's two buttons, to YouTube subscribers and YouTube views",
    async () => {
      const page = await open(screen, '/');
      try {
        const buttons = await page.$$eval('.hero .hero-buttons a', (links) =>
          links.map((a) => ({ href: a.getAttribute('href'), bottom: a.getBoundingClientRect().bottom })),
        );
        expect(buttons.map((b) => b.href)).toEqual(['/buy-youtube-subscribers', '/buy-youtube-views']);
        expect(Math.max(...buttons.map((b) => b.bottom))).toBeLessThanOrEqual(screen.height);
        // A way to every platform on the first screen: its tile, a link to its first panel of the picker.
        const tiles = await page.$$eval('.hero .hero-visual a', (links) =>
          links.map((a) => ({
            href: a.getAttribute('href')!,
            name: a.querySelector('.hero-tile-name')?.textContent,
            bottom: a.getBoundingClientRect().bottom,
          })),
        );
        expect(tiles.map((t) => [t.name, t.href])).toEqual(platforms.map((p) => [p.name, `#pick-${p.cheapest}`]));
        expect(Math.max(...tiles.map((t) => t.bottom))).toBeLessThanOrEqual(screen.height);
        const last = tiles.at(-1)!;
        const shown = () =>
          page.evaluate((id) => {
            const panel = document.getElementById(id)!;
            const top = panel.getBoundingClientRect().top;
            return !panel.hidden && top >= 0 && top < innerHeight;
          }, last.href.slice(1));
        await page.click(`.hero .hero-visual a[href="${last.href}"]`);
        await expect.poll(shown).toBe(true);
        // Another tab chosen, then the same tile again (the address already names its panel).
        await page.click(`[data-tab="${tiles[0]!.href.slice('#pick-'.length)}"]`);
        await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
        await page.click(`.hero .hero-visual a[href="${last.href}"]`);
        await expect.poll(shown).toBe(true);
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );
});

describe('the links beside the packages', () => {
  it(
    "open the service page's answer on the platform's rules when followed from another page",
    async () => {
      const page = await open(SCREENS[0], `${services[0]!.path}#platform-rules`);
      try {
        await expect
          .poll(() =>
            page.evaluate(
              () => (document.querySelector('#platform-rules')?.closest('details') as HTMLDetailsElement | null)?.open,
            ),
          )
          .toBe(true);
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );

  it(
    "open the page's answer on the platform's rules, and reach the terms' cancellation section",
    async () => {
      const page = await open(SCREENS[0], services[0]!.path);
      try {
        await page.click('#packages .package-rules a[href="#platform-rules"]');
        await expect
          .poll(() =>
            page.evaluate(
              () => (document.querySelector('#platform-rules')?.closest('details') as HTMLDetailsElement | null)?.open,
            ),
          )
          .toBe(true);
        // The page scrolls smoothly to the answer, which ends on the screen, below the sticky header.
        const top = () => page.evaluate(() => document.querySelector('#platform-rules')!.getBoundingClientRect().top);
        await expect.poll(top, { timeout: 5_000 }).toBeLessThan(SCREENS[0].height / 2);
        expect(await top()).toBeGreaterThan(0);
        const terms = await page.getAttribute('.before-you-buy li:nth-child(2) a[href^="/term-of-service#"]', 'href');
        await page.goto(preview!.url + terms!, { waitUntil: 'load' });
        const target = await page.evaluate(
          (id) => document.getElementById(id)?.textContent ?? null,
          terms!.split('#')[1]!,
        );
        expect(target).toMatch(/cancel/i);
      } finally {
        await page.close();
      }
      console.log(`First price and Buy Now, top to bottom in the first screen:\n  ${positions.join('\n  ')}`);
    },
    TEST_TIMEOUT,
  );
});
