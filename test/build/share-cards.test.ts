/**
 * Share cards made by the build (issue 27): every indexable page that is not a post has as its
 * og:image its own 1200 x 630 PNG showing the brand, the page's heading and, on a service page,
 * its starting price (the blog's list pages share the blog's); the same content draws the same
 * bytes, and a warm build draws none. A post shows its own image cut to 1200 x 630, or the blog's
 * card without one (issue 34), so no card is drawn per post. Words are composed (NFC) before they
 * are drawn, and a character the font lacks is named in a warning, never dropped in silence
 * (issue 35). Through the real CLI on a copy of the real content, with 24 posts more, none with
 * an image.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { traceCardFont, type CardFont } from '../../src/images/share-card-font.js';
import { editFile, hashTree, projectsOfThisFile, repoRoot, runCli } from '../helpers.js';
import { pageCounts } from '../support/content-counts.js';

const project = projectsOfThisFile();
const SITE = 'https://www.example.com';

/**
 * The cards a build draws: one for each page (home, about, contact), service page and text page,
 * and the blog's first list page. The 404 page shows the home page's, the other list pages and the
 * posts without an image the blog's.
 */
const CARDS = pageCounts.page + pageCounts.service + pageCounts.text + 1;
/** The posts added to the real content's three (which have an image each): 27 make three list pages. */
const ADDED_POSTS = 24;
/** A card as an earlier version drew it for a post (a name of the cards' kind), left in .cache/share/. */
const STALE_CARD = `${'ab'.repeat(32)}.png`;

let root: string;
/** The first (cold) build's --verbose output. */
let firstBuild: string;
/** Each sitemap URL's page and the two text pages (noindex, so outside the sitemap), by its path. */
const pages = new Map<string, HTMLElement>();

const dist = (...parts: string[]) => path.join(root, 'dist', ...parts);
const fileOf = (pathname: string) => (pathname === '/' ? 'index.html' : `${decodeURI(pathname).slice(1)}.html`);
/** A post's page, not a list page. */
const isPost = (pathname: string) => /^\/blog\/(?!page\/)./.test(pathname);
/** The sitemap's pages but the posts. */
const nonPostPages = () => [...pages].filter(([pathname]) => !isPost(pathname));
const meta = (page: HTMLElement, key: string) =>
  page.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content');
/** What --verbose says the cards stage did: cards published, cards drawn. */
const cardsStage = (output: string) => {
  const match = /(\d+) share cards?, (\d+) drawn/.exec(output);
  if (!match) throw new Error(`no cards stage in the output:\n${output}`);
  return { files: Number(match[1]), drawn: Number(match[2]) };
};
/**
 * How much the right margin of a card on the flat background varies (the largest standard
 * deviation of a channel): 0 when no word runs into it.
 */
const rightMargin = (file: string) => variation(file, 1200 - 72, 72);
/** The largest standard deviation of a channel in a full-height strip of a picture. */
const variation = async (file: string, left: number, width: number) => {
  // Cut out first: stats() looks at the whole input, whatever the pipeline does.
  const strip = await sharp(file).extract({ left, top: 0, width, height: 630 }).toBuffer();
  const { channels } = await sharp(strip).stats();
  return Math.max(...channels.map((channel) => channel.stdev));
};
const build = async () => {
  const result = await runCli(['--root', root, 'build', '--verbose']);
  expect(result.code, result.stderr).toBe(0);
  return result.stderr;
};

beforeAll(async () => {
  ({ root } = await project());
  for (let n = 1; n <= ADDED_POSTS; n++) {
    const day = String(n).padStart(2, '0');
    await writeFile(
      path.join(root, 'content', 'blog', `growth-note-${n}.md`),
      `---\ntitle: Growth note ${n}\ndate: 2025-01-${day}T09:00:00Z\nexcerpt: A short note on steady growth.\n` +
        '---\nPost steadily, and answer the comments.\n',
    );
  }
  await mkdir(path.join(root, '.cache', 'share'), { recursive: true });
  await writeFile(path.join(root, '.cache', 'share', STALE_CARD), 'a card of a post');
  firstBuild = await build();
  const sitemap = await readFile(dist('sitemap.xml'), 'utf8');
  for (const [, url] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const pathname = new URL(url!).pathname;
    pages.set(pathname, parseHtml(await readFile(dist(fileOf(pathname)), 'utf8')));
  }
  for (const pathname of ['/privacy-policy', '/term-of-service'])
    pages.set(pathname, parseHtml(await readFile(dist(fileOf(pathname)), 'utf8')));
}, 60_000);

describe('share cards', () => {
  it(
    "every page but the posts has its own 1200 x 630 PNG og:image (the list pages the blog's), " + 'and none is blank',
    async () => {
      expect([...pages.keys()].filter(isPost)).toHaveLength(3 + ADDED_POSTS);
      const seen = new Map<string, string>();
      for (const [pathname, page] of nonPostPages()) {
        const url = meta(page, 'og:image')!;
        expect(url, pathname).toMatch(new RegExp(`^${SITE}/assets/share/[0-9a-f]{16}\\.png$`));
        if (pathname.startsWith('/blog/page/')) expect(url, pathname).toBe(meta(pages.get('/blog')!, 'og:image'));
        else {
          expect(seen.get(url), `${pathname} shares its card with ${seen.get(url)}`).toBeUndefined();
          seen.set(url, pathname);
        }
        expect(meta(page, 'twitter:image'), pathname).toBe(url);
        expect(meta(page, 'twitter:card'), pathname).toBe('summary_large_image');
        expect([meta(page, 'og:image:width'), meta(page, 'og:image:height')], pathname).toEqual(['1200', '630']);
        const image = sharp(await readFile(dist(new URL(url).pathname)));
        const { format, width, height } = await image.metadata();
        expect([format, width, height], pathname).toEqual(['png', 1200, 630]);
        // Drawn, not a flat colour: every channel varies across the picture.
        for (const [i, channel] of (await image.stats()).channels.entries())
          expect(channel.stdev, `${pathname}, channel ${i}`).toBeGreaterThan(10);
        // No word runs into the margin.
        expect(await rightMargin(dist(new URL(url).pathname)), pathname).toBe(0);
      }
      expect(seen.size).toBe(CARDS);
      expect(pages.has('/blog/page/3')).toBe(true);
      // The flat picture every page shared before is gone.
      await expect(readFile(dist('assets', 'og-image.png'))).rejects.toThrow();
    },
  );

  it(
    "says in og:image:alt what it shows: the page's heading, " +
      "and a service page's starting price from the catalogue",
    async () => {
      // The starting price, worked out here from the catalogue itself: its cheapest package, in pounds and pence.
      const catalogue = parseYaml(await readFile(path.join(root, 'content', 'catalogue.yaml'), 'utf8')) as {
        platforms: { sub: { id: number; packages: { price: number }[] }[] }[];
      };
      const cheapest = new Map(
        catalogue.platforms.flatMap((p) =>
          p.sub.map((sub) => [sub.id, Math.min(...sub.packages.map((pkg) => pkg.price))] as const),
        ),
      );
      const services = new Map<string, number>();
      for (const file of await readdir(path.join(root, 'content', 'services'))) {
        const service = parseYaml(await readFile(path.join(root, 'content', 'services', file), 'utf8')) as {
          path: string;
          subCategory: number;
        };
        services.set(service.path, service.subCategory);
      }
      expect(services.size).toBeGreaterThan(5);
      for (const [pathname, page] of nonPostPages()) {
        const heading = page.querySelector('h1')!.text.trim();
        const alt = meta(page, 'og:image:alt');
        const sub = services.get(pathname);
        if (sub === undefined) expect(alt, pathname).toBe(heading);
        else expect(alt, pathname).toBe(`${heading} – from £${cheapest.get(sub)!.toFixed(2)}`);
        expect(meta(page, 'twitter:image:alt'), pathname).toBe(alt);
      }
      expect(meta(pages.get('/buy-instagram-followers')!, 'og:image:alt')).toBe('Buy Instagram Followers – from £1.89');
      expect(meta(pages.get('/blog/page/2')!, 'og:image:alt')).toBe('The growth blog');
    },
  );

  it('shows as the og:image of a post with a featured image that image cut to 1200 x 630, with its alt', async () => {
    const alts = new Map([
      ['/blog/tiktok-growth-routine', 'A weekly planner grid with highlighted posting days'],
      ['/blog/get-your-instagram-profile-ready', 'An abstract profile card with a round avatar'],
      ['/blog/youtube-monetisation-thresholds-explained', 'A rising bar chart with a growth line'],
    ]);
    const crops = new Set<string>();
    for (const [pathname, alt] of alts) {
      const page = pages.get(pathname)!;
      const url = meta(page, 'og:image')!;
      expect(url, pathname).toMatch(new RegExp(`^${SITE}/assets/img/[0-9a-f]{16}-share\\.jpg$`));
      crops.add(url);
      // The structured data names the same picture.
      const posting = page
        .querySelectorAll('script[type="application/ld+json"]')
        .map((s) => JSON.parse(s.textContent))
        .find((d) => d['@type'] === 'BlogPosting');
      expect(posting.image, pathname).toBe(url);
      expect(meta(page, 'twitter:image'), pathname).toBe(url);
      expect([meta(page, 'og:image:alt'), meta(page, 'twitter:image:alt')], pathname).toEqual([alt, alt]);
      expect([meta(page, 'og:image:width'), meta(page, 'og:image:height')], pathname).toEqual(['1200', '630']);
      const { format, width, height } = await sharp(await readFile(dist(new URL(url).pathname))).metadata();
      expect([format, width, height], pathname).toEqual(['jpeg', 1200, 630]);
    }
    expect(crops.size).toBe(3);
  });

  it("shows as the og:image of a post without a featured image the blog's card", async () => {
    const blogCard = meta(pages.get('/blog')!, 'og:image')!;
    expect(blogCard).toMatch(new RegExp(`^${SITE}/assets/share/[0-9a-f]{16}\\.png$`));
    for (let n = 1; n <= ADDED_POSTS; n++) {
      const pathname = `/blog/growth-note-${n}`;
      const page = pages.get(pathname)!;
      expect([meta(page, 'og:image'), meta(page, 'twitter:image')], pathname).toEqual([blogCard, blogCard]);
      expect([meta(page, 'og:image:alt'), meta(page, 'twitter:image:alt')], pathname).toEqual([
        'The growth blog',
        'The growth blog',
      ]);
      expect([meta(page, 'og:image:width'), meta(page, 'og:image:height')], pathname).toEqual(['1200', '630']);
    }
  });

  it(
    'keeps in .cache/share/ only the cards it shows: ' + "a post's card of an earlier version goes at the next build",
    async () => {
      const kept = await readdir(path.join(root, '.cache', 'share'));
      expect(kept).not.toContain(STALE_CARD);
      expect(kept).toHaveLength(CARDS);
    },
  );

  it("gives the 404 page, which is not indexable, the home page's card", async () => {
    const notFound = parseHtml(await readFile(dist('404.html'), 'utf8'));
    expect(meta(notFound, 'og:image')).toBe(meta(pages.get('/')!, 'og:image'));
  });

  it('draws every card in a cold build, none in a warm one, and the same bytes from the same content', async () => {
    const cards = await hashTree(dist('assets', 'share'));
    const cold = cardsStage(firstBuild);
    // One per page but the posts and the blog's list pages after the first (and the 404 page,
    // which shows the home page's), and the folder holds nothing else.
    expect((await readdir(dist('assets', 'share'))).length).toBe(CARDS);
    expect(cold).toEqual({ files: CARDS, drawn: CARDS });
    // Warm: every card is read from .cache/share/.
    expect(cardsStage(await build())).toEqual({ files: cold.files, drawn: 0 });
    expect(await hashTree(dist('assets', 'share'))).toBe(cards);
    // Cold again: drawn anew, byte for byte the same.
    await rm(path.join(root, '.cache', 'share'), { recursive: true, force: true });
    expect(cardsStage(await build())).toEqual(cold);
    expect(await hashTree(dist('assets', 'share'))).toBe(cards);
  }, 60_000);

  it('draws its words from the font traced by `npm run compile`, ' +
    'which has every letter of the headings and prices', async () => {
    const compiled = await readFile(path.join(repoRoot, 'lib', 'assets', 'share-card-font.json'), 'utf8');
    // What a build traces for itself when lib/assets/ has no font, or an older one.
    expect(compiled).toBe(await traceCardFont());
    const font = JSON.parse(compiled) as CardFont;
    const words = nonPostPages()
      .map(([, page]) => meta(page, 'og:image:alt'))
      .join('');
    for (const char of new Set(words.replace(/\s/g, '')))
      expect(font.glyphs[char]?.[1], `the outline of ${char}`).toMatch(/^M/);
    expect(font.glyphs['£']![0]).toBeGreaterThan(0);
    // A build looks at the font only for words beyond printable ASCII: the font has all of it.
    for (let code = 0x20; code <= 0x7e; code++)
      expect(font.glyphs[String.fromCharCode(code)], `U+${code.toString(16)}`).toBeDefined();
    // Inter's Cyrillic and Greek subsets are traced too.
    for (const char of 'ЖжЩщΩωάΐ') expect(font.glyphs[char]?.[1], `the outline of ${char}`).toMatch(/^M/);
    // Kerning as opentype.js reads it: Inter's pairs listed one by one, such as a quote before a
    // comma (not its kerning by classes of letters, which opentype.js 2.0 leaves out).
    expect(font.kerning['",']).toBeLessThan(0);
  }, 30_000);

  it('cuts a word too wide for the card, in the title or the brand, with an ellipsis', async () => {
    const long = await project();
    await editFile(
      long.root,
      'content/pages/about.yaml',
      'heading: About us',
      'heading: About Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch-and-more',
    );
    await editFile(
      long.root,
      'content/config.yaml',
      'brandName: Storefront',
      'brandName: Supercalifragilisticexpialidocious-Social-Growth',
    );
    const built = await runCli(['--root', long.root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    const about = parseHtml(await readFile(path.join(long.root, 'dist', 'about.html'), 'utf8'));
    // The alt keeps every word; the picture shows what fits.
    expect(meta(about, 'og:image:alt')).toBe(
      'About Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch-and-more',
    );
    const card = path.join(long.root, 'dist', new URL(meta(about, 'og:image')!).pathname);
    expect(await rightMargin(card)).toBe(0);
    // The words reach the margin's edge: cut to fit, not left out.
    expect(await variation(card, 1200 - 72 - 160, 160)).toBeGreaterThan(10);
  }, 60_000);

  it('draws headings in Cyrillic and Greek, accents typed apart as the accented letter and "ﬁ" as "fi"; ' +
    'names the page and each character it cannot draw', async () => {
    const scripts = await project();
    const at = (...parts: string[]) => path.join(scripts.root, ...parts);
    const ogImage = async (file: string) => meta(parseHtml(await readFile(at('dist', file), 'utf8')), 'og:image')!;
    // Decomposed (NFD): e and a combining acute, e and a combining grave.
    const decomposed = 'Cafe\u0301 cre\u0300me';
    expect(decomposed).toHaveLength(12);
    await editFile(
      scripts.root,
      'content/pages/home.yaml',
      'heading: Grow your audience on YouTube, TikTok and Instagram',
      'heading: Рост Ελλάδα',
    );
    await editFile(scripts.root, 'content/pages/about.yaml', 'heading: About us', `heading: ${decomposed}`);
    await editFile(scripts.root, 'content/pages/contact.yaml', 'heading: Contact us', 'heading: Our ﬁnance notes');
    await editFile(
      scripts.root,
      'content/pages/privacy-policy.md',
      'heading: Privacy policy',
      'heading: Our finance notes',
    );
    await editFile(
      scripts.root,
      'content/pages/terms-of-service.md',
      'heading: Terms of service',
      'heading: شروط الخدمة',
    );
    await editFile(scripts.root, 'content/site.yaml', 'heading: The growth blog', 'heading: 增长博客 Growth 🚀');
    await editFile(scripts.root, 'content/config.yaml', 'brandName: Storefront ', 'brandName: Storefront商店');
    const cannotDraw = (output: string) =>
      output.split('\n').filter((line) => line.includes('The share card cannot draw'));
    const expected = [
      'warning: content/config.yaml › brandName (every card)  The share card cannot draw "商" (U+5546), ' +
        '"店" (U+5E97): its font, Inter Bold, has no such letter, so the picture leaves them out (og:image:alt ' +
        'keeps every word). Inter draws Latin, Greek and Cyrillic letters: for a card that shows every word, ' +
        'write them in those.',
      'warning: content/pages/terms-of-service.md › heading (the card of /term-of-service)  The share card ' +
        'cannot draw "ش" (U+0634), "ر" (U+0631), "و" (U+0648), "ط" (U+0637), "ا" (U+0627), "ل" (U+0644), ' +
        '"خ" (U+062E), "د" (U+062F), "م" (U+0645), "ة" (U+0629): its font, Inter Bold, has no such letter, ' +
        'so the picture leaves them out (og:image:alt keeps every word). Inter draws Latin, ' +
        'Greek and Cyrillic letters: for a card that shows every word, write them in those.',
      'warning: content/site.yaml › blog.heading (the card of /blog)  The share card cannot draw "增" (U+589E), ' +
        '"长" (U+957F), "博" (U+535A), "客" (U+5BA2), "🚀" (U+1F680): its font, Inter Bold, has no such letter, ' +
        'so the picture leaves them out (og:image:alt keeps every word). Inter draws Latin, ' +
        'Greek and Cyrillic letters: for a card that shows every word, write them in those.',
    ];
    const cold = await runCli(['--root', scripts.root, 'build', '--verbose']);
    expect(cold.code, cold.stderr).toBe(0);
    // Nothing else is named: Cyrillic, Greek, the decomposed accents and "ﬁ" are drawn.
    expect(cannotDraw(cold.stderr).sort()).toEqual(expected);
    expect(cardsStage(cold.stderr)).toEqual({ files: CARDS, drawn: CARDS });
    // A warm build draws no card, and says it all the same.
    const warm = await runCli(['--root', scripts.root, 'build', '--verbose']);
    expect(warm.code, warm.stderr).toBe(0);
    expect(cardsStage(warm.stderr)).toEqual({ files: CARDS, drawn: 0 });
    expect(cannotDraw(warm.stderr).sort()).toEqual(expected);

    // The Cyrillic and Greek heading is drawn: the room of the title is not a flat colour.
    const home = await sharp(at('dist', new URL(await ogImage('index.html')).pathname))
      .extract({ left: 80, top: 190, width: 1040, height: 360 })
      .toBuffer();
    for (const [i, channel] of (await sharp(home).stats()).channels.entries())
      expect(channel.stdev, `channel ${i}`).toBeGreaterThan(10);
    // "ﬁ" is drawn as "fi": the card of "Our ﬁnance notes" is the picture of "Our finance notes", byte for byte.
    const [ligature, letters] = [await ogImage('contact.html'), await ogImage('privacy-policy.html')];
    expect(ligature).not.toBe(letters);
    expect(await readFile(at('dist', new URL(ligature).pathname))).toEqual(
      await readFile(at('dist', new URL(letters).pathname)),
    );
    // The decomposed heading is the card of the composed one: the same address, and drawn anew
    // from the composed words, the same bytes.
    const decomposedCard = await ogImage('about.html');
    const decomposedBytes = await readFile(at('dist', new URL(decomposedCard).pathname));
    await editFile(scripts.root, 'content/pages/about.yaml', `heading: ${decomposed}`, 'heading: Café crème');
    await rm(at('.cache', 'share'), { recursive: true });
    const composed = await runCli(['--root', scripts.root, 'build']);
    expect(composed.code, composed.stderr).toBe(0);
    expect(await ogImage('about.html')).toBe(decomposedCard);
    expect(await readFile(at('dist', new URL(decomposedCard).pathname))).toEqual(decomposedBytes);
    expect(meta(parseHtml(await readFile(at('dist', 'about.html'), 'utf8')), 'og:image:alt')).toBe('Café crème');
  }, 60_000);
});
