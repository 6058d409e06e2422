/**
 * The layout of every page kind, checked in a real headless Chromium at phone and desktop widths,
 * the real preview server serving a real build: no horizontal scrolling; no grid row holding one
 * card where another row of the same grid holds three or more; no image of one flat colour (the
 * page's og:image too); no text overflowing its box or sticking out of its card or section.
 * Each test collects every problem of its page and width in one list, so a failure shows them all.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanUp, freePort, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { launchChromium } from '../support/browser.js';
import { firstBlogPost, KINDS, LAYOUT_PAGES } from '../support/page-kinds.mjs';

const WIDTHS = [375, 1280] as const;
const HEIGHT = 800;
/**
 * Every test here takes a few seconds; a Playwright action that cannot happen fails after ACTION_TIMEOUT with its
 * own message.
 */
const TEST_TIMEOUT = 60_000;
const ACTION_TIMEOUT = 15_000;
/** Images this size or smaller (either side, CSS pixels) are not checked for flatness: icons, the logo. */
const MIN_IMAGE = 32;
/**
 * A picture whose every colour channel has a standard deviation (0–255) at or below this is one
 * flat colour. A box of one colour gives 0, an invisible image over a section's gradient about 1;
 * the site's pictures give 30 to 80, an icon on a plain background over 10.
 */
const FLAT_STDEV = 4;

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;
let launching: Promise<Browser> | undefined;
let browser: Browser | undefined;
/** LAYOUT_PAGES' routes, the blog post's found from /blog. */
const routes = new Map<string, string>();

beforeAll(async () => {
  // Chromium starts while the site builds. (A launch that fails is reported below, by `await launching`.)
  launching = launchChromium();
  launching.catch(() => undefined);
  project = await tempProject();
  const built = await runCli(['--root', project.root, 'build'], { SITE_URL: 'https://www.example.com' });
  expect(built.code, built.stderr).toBe(0);
  preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
  browser = await launching;
  const page = await (await context(WIDTHS[1])).newPage();
  try {
    for (const { name, route } of LAYOUT_PAGES) routes.set(name, route ?? (await firstBlogPost(page, preview.url)));
  } finally {
    await page.close();
  }
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

/** One browser context per width, shared by the whole file (no test stores anything in it). */
const contexts = new Map<number, Promise<BrowserContext>>();
function context(width: number): Promise<BrowserContext> {
  let opening = contexts.get(width);
  if (!opening) {
    opening = browser!.newContext({ viewport: { width, height: HEIGHT } }).then((created) => {
      created.setDefaultTimeout(ACTION_TIMEOUT);
      return created;
    });
    contexts.set(width, opening);
  }
  return opening;
}

/** An image's box in the page (CSS pixels from the document's top-left corner), and what it is. */
interface ImageBox {
  what: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Runs in the page: the problems with its layout that the DOM alone shows (scrolling, grid rows,
 * text), and the boxes of the images to check for flatness in a screenshot. Self-contained: it is
 * sent to the browser as source text.
 */
function inspectLayout(minImage: number): { problems: string[]; images: ImageBox[]; coveredTop: number } {
  const problems: string[] = [];
  const style = (el: Element) => getComputedStyle(el);
  const rectOf = (el: Element) => el.getBoundingClientRect();
  /** A short selector naming the element: up to four levels, from the nearest id. */
  const nameOf = (el: Element): string => {
    const parts: string[] = [];
    for (let at: Element | null = el; at && at !== document.body && parts.length < 4; at = at.parentElement) {
      if (at.id) {
        parts.unshift(`${at.tagName.toLowerCase()}#${at.id}`);
        break;
      }
      const classes = [...at.classList]
        .slice(0, 2)
        .map((c) => `.${c}`)
        .join('');
      parts.unshift(at.tagName.toLowerCase() + classes);
    }
    return parts.join(' > ');
  };
  const snippet = (el: Element) => {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  };
  /** Rendered, not in a closed menu or panel (display none, visibility hidden, closed <details>). */
  const shown = (el: Element) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const r = rectOf(el);
    return r.width > 0 && r.height > 0;
  };
  /** Hidden to the eye but kept for screen readers (.visually-hidden, a clip), or the skip link. */
  const offScreenOnPurpose = (el: Element) => {
    if (el.closest('.visually-hidden, .skip-link')) return true;
    for (let at: Element | null = el; at; at = at.parentElement) {
      const s = style(at);
      if ((s.position === 'absolute' || s.position === 'fixed') && s.clip !== 'auto') return true;
      if (s.clipPath.startsWith('inset(50%')) return true;
    }
    return false;
  };

  // a. No horizontal scrolling; and if there is some, the outermost elements that stick out.
  const scroller = document.scrollingElement!;
  if (scroller.scrollWidth > innerWidth) {
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => shown(el) && !offScreenOnPurpose(el) && rectOf(el).right > innerWidth + 1)
      .filter((el, _, all) => !all.some((other) => other !== el && other.contains(el)))
      .slice(0, 5)
      .map((el) => `${nameOf(el)} (right edge ${Math.round(rectOf(el).right)})`);
    problems.push(
      `horizontal scroll: the page is ${scroller.scrollWidth} px wide in a ${innerWidth} px window; ` +
        `sticking out: ${culprits.join(', ') || 'nothing visible'}`,
    );
  }

  // b. No row holding one card where another row of the same grid holds three or more.
  /** A grid's or flex container's items: its children, those of `display: contents` ones in their place. */
  const itemsOf = (el: Element): Element[] =>
    [...el.children].flatMap((child) => (style(child).display === 'contents' ? itemsOf(child) : [child]));
  for (const el of document.body.querySelectorAll('*')) {
    const s = style(el);
    const grid = s.display === 'grid' || s.display === 'inline-grid';
    const wrapping =
      (s.display === 'flex' || s.display === 'inline-flex') &&
      s.flexWrap !== 'nowrap' &&
      s.flexDirection.startsWith('row');
    if ((!grid && !wrapping) || !shown(el)) continue;
    const items = itemsOf(el)
      .filter((item) => shown(item) && !['absolute', 'fixed'].includes(style(item).position))
      .map((item) => ({ item, rect: rectOf(item) }))
      .sort((a, b) => a.rect.top - b.rect.top);
    if (items.length < 2) continue;
    // A row: the items that start above the bottom of the row's tallest item so far.
    const rows: { items: Element[]; bottom: number }[] = [];
    for (const { item, rect } of items) {
      const row = rows.at(-1);
      if (row && rect.top < row.bottom - 1) {
        row.items.push(item);
        row.bottom = Math.max(row.bottom, rect.bottom);
      } else rows.push({ items: [item], bottom: rect.bottom });
    }
    const counts = rows.map((row) => row.items.length);
    if (!counts.some((n) => n >= 3)) continue;
    for (const row of rows.filter((r) => r.items.length === 1)) {
      const lone = row.items[0]!;
      // An item a grid spans over all its columns on purpose (grid-column: 1 / -1) is not alone.
      const content =
        rectOf(el).width -
        parseFloat(s.paddingLeft) -
        parseFloat(s.paddingRight) -
        parseFloat(s.borderLeftWidth) -
        parseFloat(s.borderRightWidth);
      if (grid && rectOf(lone).width >= content - 2) continue;
      const heading = el.closest('section')?.querySelector('h2, h1');
      const where = heading ? ` in the section "${snippet(heading)}"` : '';
      problems.push(
        `grid: ${nameOf(el)}${where} has rows of ${counts.join(' + ')}: "${snippet(lone)}" is alone on its row`,
      );
    }
  }

  // d. No text overflowing its box, or sticking out of its card, package or section container.
  const CONTAINERS = '.card, [class*="-card"], .package, .faq-item, .notice, .mega-panel, .container';
  /** From `from` up to `until` (not included), an element whose overflow-x is one of `kinds`. */
  const overflowBetween = (from: Element | null, until: Element | null, kinds: RegExp) => {
    for (let at = from; at && at !== until; at = at.parentElement) if (kinds.test(style(at).overflowX)) return true;
    return false;
  };
  const reported = new Set<Element>();
  const hasReportedAncestor = (el: Element) => {
    for (let at = el.parentElement; at; at = at.parentElement) if (reported.has(at)) return true;
    return false;
  };
  for (const el of document.body.querySelectorAll('h1, h2, h3, p, a, button, li, span, td')) {
    if (!(el.textContent ?? '').trim() || !shown(el) || offScreenOnPurpose(el) || hasReportedAncestor(el)) continue;
    const s = style(el);
    const r = rectOf(el);
    const found: string[] = [];
    const block = s.display !== 'inline';
    // Text cut off by its own box. (Not when it is cut with an ellipsis: a design that shortens
    // text on purpose, and shows that it does.)
    if (block && s.overflowX !== 'visible' && s.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
      found.push(`is ${el.scrollWidth} px wide in a ${el.clientWidth} px box (overflow-x: ${s.overflowX})`);
    }
    // Text spilling out of its own box, which lets it show (overflow: visible). Text inside a box
    // that clips or scrolls is that box's own: looked at above when it is one of these elements.
    if (block && s.overflowX === 'visible') {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let spill = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement!;
        if (
          !node.textContent!.trim() ||
          !shown(parent) ||
          offScreenOnPurpose(parent) ||
          overflowBetween(parent, el, /hidden|clip|auto|scroll/)
        )
          continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const line of range.getClientRects()) spill = Math.max(spill, line.right - r.right, r.left - line.left);
      }
      if (spill > 1)
        found.push(`runs ${Math.round(spill)} px past the edge of its own box (${Math.round(r.width)} px wide)`);
    }
    // The box sticking out of the card, package or section around it (unless a box between them
    // scrolls sideways: what sticks out of that one can be scrolled to).
    const container = el.parentElement?.closest(CONTAINERS);
    if (container && !overflowBetween(el.parentElement, container, /auto|scroll/)) {
      const c = rectOf(container);
      const out = Math.max(r.right - c.right, c.left - r.left);
      if (out > 1)
        found.push(
          `sticks out ${Math.round(out)} px from ${nameOf(container)} ` +
            `(${Math.round(c.left)}–${Math.round(c.right)} px, the text ` +
            `${Math.round(r.left)}–${Math.round(r.right)} px)`,
        );
    }
    if (found.length) {
      reported.add(el);
      problems.push(`text: ${nameOf(el)} "${snippet(el)}" ${found.join('; ')}`);
    }
  }

  // c. The images to check for flatness (in a screenshot, outside this function).
  const images: ImageBox[] = [];
  const pictures = [...document.querySelectorAll('img, svg')].filter(
    (el) => !(el.tagName.toLowerCase() === 'svg' && el.parentElement?.closest('svg')),
  );
  for (const el of pictures) {
    if (!shown(el) || offScreenOnPurpose(el)) continue;
    const r = rectOf(el);
    if (r.width <= minImage || r.height <= minImage) continue;
    const what = el instanceof HTMLImageElement ? `img ${nameOf(el)} (${el.getAttribute('src')})` : `svg ${nameOf(el)}`;
    if (el instanceof HTMLImageElement && el.naturalWidth === 0) {
      problems.push(`image: ${what} did not load`);
      continue;
    }
    images.push({ what, x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height });
  }
  // What stays at the top of the window when it scrolls (the sticky header) covers down to here.
  let coveredTop = 0;
  for (const el of document.body.querySelectorAll('*')) {
    const position = style(el).position;
    if ((position === 'sticky' || position === 'fixed') && shown(el) && rectOf(el).top <= 1)
      coveredTop = Math.max(coveredTop, rectOf(el).bottom);
  }
  return { problems, images, coveredTop: Math.ceil(coveredTop) + 1 };
}

/** Raw pixels, RGB, for measuring regions of them. */
interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

async function pixelsOf(input: Buffer | string): Promise<Pixels> {
  const { data, info } = await sharp(input)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** The largest standard deviation among the colour channels of a region (the whole picture by default). */
function colourSpread(pixels: Pixels, region = { x: 0, y: 0, width: pixels.width, height: pixels.height }): number {
  const { x, y, width, height } = region;
  const sums = [0, 0, 0];
  const squares = [0, 0, 0];
  for (let row = y; row < y + height; row++) {
    for (let col = x; col < x + width; col++) {
      const at = (row * pixels.width + col) * pixels.channels;
      for (let c = 0; c < 3; c++) {
        const v = pixels.data[at + Math.min(c, pixels.channels - 1)]!;
        sums[c]! += v;
        squares[c]! += v * v;
      }
    }
  }
  const n = width * height;
  return Math.max(...sums.map((sum, c) => Math.sqrt(Math.max(0, squares[c]! / n - (sum / n) ** 2))));
}

/**
 * Lazy images load now, and every image and font is ready before anything is measured or
 * photographed.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) if (img.loading === 'lazy') img.loading = 'eager';
    const loaded = Promise.all(images.map((img) => img.decode().catch(() => undefined)));
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await document.fonts.ready;
  });
}

/** Every problem with the layout of the page loaded in `page`, as readable lines. */
async function layoutProblems(page: Page): Promise<string[]> {
  await settle(page);
  const { problems, images, coveredTop } = await page.evaluate(inspectLayout, MIN_IMAGE);
  const { height } = page.viewportSize()!;

  // c. Each image's box, cut from a screenshot of the window, less a pixel on each side
  // (anti-aliased edges blend in what is around it). The window is scrolled to put the highest
  // image not yet looked at just below what stays at its top (the sticky header); every image
  // wholly in the window is looked at in that screenshot.
  const pending = [...images].sort((a, b) => a.y - b.y);
  while (pending.length) {
    const first = pending[0]!;
    const scrolled = await page.evaluate(
      (top) => {
        window.scrollTo({ left: 0, top, behavior: 'instant' });
        return scrollY;
      },
      Math.max(0, first.y - coveredTop),
    );
    const shot = await pixelsOf(await page.screenshot({ caret: 'hide' }));
    const inView = pending.filter(
      (image, i) =>
        i === 0 ||
        (image.y >= scrolled + Math.min(coveredTop, first.y - scrolled) && image.y + image.height <= scrolled + height),
    );
    for (const image of inView) {
      pending.splice(pending.indexOf(image), 1);
      const left = Math.max(0, Math.ceil(image.x) + 1);
      const top = Math.max(0, Math.ceil(image.y - scrolled) + 1);
      const right = Math.min(shot.width, Math.floor(image.x + image.width) - 1);
      const bottom = Math.min(shot.height, Math.floor(image.y - scrolled + image.height) - 1);
      if (right <= left || bottom <= top) {
        problems.push(`image: ${image.what} could not be brought into the window to look at it`);
        continue;
      }
      const spread = colourSpread(shot, { x: left, y: top, width: right - left, height: bottom - top });
      if (spread <= FLAT_STDEV) {
        problems.push(
          `image: ${image.what}, ${Math.round(image.width)}×${Math.round(image.height)} px, ` +
            `is one flat colour (standard deviation ${spread.toFixed(2)})`,
        );
      }
    }
  }

  // c. The page's og:image, from the build output (most pages share one: it is looked at once).
  const ogImage = await page.evaluate(
    () => document.querySelector('meta[property="og:image"]')?.getAttribute('content') ?? null,
  );
  if (ogImage) {
    const file = path.join(project!.root, 'dist', decodeURIComponent(new URL(ogImage, preview!.url).pathname));
    let spread = ogSpreads.get(file);
    if (!spread) {
      spread = readFile(file)
        .then(pixelsOf)
        .then(colourSpread, () => undefined);
      ogSpreads.set(file, spread);
    }
    const found = await spread;
    if (found === undefined)
      problems.push(`og:image: ${ogImage} is not in the build output (${path.relative(project!.root, file)})`);
    else if (found <= FLAT_STDEV)
      problems.push(`og:image: ${ogImage} is one flat colour (standard deviation ${found.toFixed(2)})`);
  }
  return problems;
}
const ogSpreads = new Map<string, Promise<number | undefined>>();

/**
 * A page made to have each problem the checks look for, and things that are fine beside them:
 * the checks must find the first and only those (a check gone blind would pass every page).
 */
const FAULTY_PAGE = `<!doctype html><html><head><style>
  body { margin: 0; font: 16px/1.4 sans-serif; }
  .container { width: 300px; padding: 0 10px; }
  .grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 4px; margin: 0; padding: 0; list-style: none; }
  .grid > li { height: 30px; background: #eee; }
  .grid > .all { grid-column: 1 / -1; }
  .card { width: 120px; padding: 4px; border: 1px solid #999; }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
  .skip-link { position: absolute; left: 1rem; top: -4rem; white-space: nowrap; }
</style></head><body>
  <a class="skip-link" href="#main">Skip to the content of this page, which is long</a>
  <main id="main" class="container">
    <ul class="grid" id="lone"><li>1</li><li>2</li><li>3</li><li>4</li><li>5</li><li>6</li><li>Seven</li></ul>
    <ul class="grid" id="three-and-two"><li>1</li><li>2</li><li>3</li><li>4</li><li>5</li></ul>
    <ul class="grid" id="spanning"><li>1</li><li>2</li><li>3</li><li class="all">All columns</li></ul>
    <p id="clipped" style="width: 80px; overflow: hidden; white-space: nowrap">A sentence far too long for its box</p>
    <div class="card"><p id="spilling" style="white-space: nowrap">Text wider than the card</p></div>
    <div class="card"><span id="sticking"
      style="display: inline-block; width: 200px">A box wider than the card</span></div>
    <div class="card"><p>Text that wraps inside the card as it should.</p></div>
    <ol class="card" style="display: flex; white-space: nowrap; padding: 0; list-style: none"><li>Home</li><li
      style="min-width: 0"><a href="#" style="display: block; overflow: hidden; text-overflow: ellipsis"
      >Shortened with an ellipsis, on purpose</a></li></ol>
    <svg id="flat" width="60" height="60"><rect width="60" height="60" fill="#4338ca"/></svg>
    <svg id="drawn" width="60" height="60"><circle cx="30" cy="30" r="20" fill="#4338ca"/></svg>
    <span class="visually-hidden">Words for screen readers only, far too long for one pixel</span>
    <details><summary>More</summary><p
      style="white-space: nowrap">Closed away, and far too wide for the window at all</p></details>
  </main>
  <div style="width: 500px; height: 10px"></div>
</body></html>`;

describe('the layout in Chromium', { timeout: TEST_TIMEOUT }, () => {
  it('the checks find every problem in a page made to have them, and nothing else', async () => {
    const page = await (await context(WIDTHS[0])).newPage();
    onTestFinished(() => page.close().catch(() => undefined));
    await page.setContent(FAULTY_PAGE);
    expect(await layoutProblems(page)).toEqual([
      expect.stringMatching(
        /^horizontal scroll: the page is 500 px wide in a 375 px window; sticking out: div \(right edge 500\)$/,
      ),
      expect.stringMatching(/^grid: ul#lone has rows of 3 \+ 3 \+ 1: "Seven" is alone on its row$/),
      expect.stringMatching(
        /^text: p#clipped "A sentence far too long for its box" is \d+ px wide in a 80 px box \(overflow-x: hidden\)$/,
      ),
      expect.stringMatching(/^text: p#spilling "Text wider than the card" runs \d+ px past the edge of its own box/),
      expect.stringMatching(
        /^text: span#sticking "A box wider than the card" sticks out \d+ px from main#main > div\.card/,
      ),
      expect.stringMatching(/^image: svg svg#flat, 60×60 px, is one flat colour \(standard deviation 0\.00\)$/),
    ]);
  });

  it('looks at a page of every page kind', () => {
    const looked = [...routes.values()];
    expect(KINDS.filter((kind) => !looked.some(kind.is)).map((kind) => kind.kind)).toEqual([]);
  });

  for (const { name } of LAYOUT_PAGES) {
    for (const width of WIDTHS) {
      it(
        `${name} at ${width}px: no horizontal scroll, no lone card on a grid row, no flat image, ` +
          'no overflowing text',
        async () => {
          const route = routes.get(name)!;
          const page = await (await context(width)).newPage();
          onTestFinished(() => page.close().catch(() => undefined));
          await page.goto(preview!.url + route, { waitUntil: 'load' });
          expect(await layoutProblems(page), `${name} (${route}) at ${width}px`).toEqual([]);
        },
      );
    }
  }
});
