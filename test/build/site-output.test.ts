/**
 * Builds the real content once with the real CLI and checks every output file against the
 * route table, and each page kind's key facts against the catalogue and the specification.
 */
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import { loadContent } from '../../src/content/load-content.js';
import { buildRouteTable, outputFile, type RouteTable } from '../../src/routes/route-table.js';
import { editFile, repoRoot, runCli, tempProject } from '../helpers.js';
import { faqCounts, specPrices, specServicePaths } from './spec-prices.js';
import { builtLine, pageCounts } from '../support/content-counts.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SITE = 'https://shop.example.org';
const CHECKOUT = 'https://pay.example.net';
const env = { SITE_URL: SITE, CHECKOUT_URL: CHECKOUT, BRAND_NAME: 'Test Brand' };

let project: Awaited<ReturnType<typeof tempProject>>;
let out: string;
let table: RouteTable;
let buildOutput: string;
const pages = new Map<string, HTMLElement>();

interface CataloguePackage {
  id: number;
  quantity: number;
  price: number;
  slug: string;
  popular?: { from: string; to: string; orders: number; ofOrders: number };
}
interface CatalogueFile {
  platforms: { name: string; slug: string; sub: { id: number; name: string; packages: CataloguePackage[] }[] }[];
}
const catalogue = parseYaml(await readFile(path.join(repoRoot, 'content/catalogue.yaml'), 'utf8')) as CatalogueFile;
const subById = new Map(
  catalogue.platforms.flatMap((p) =>
    p.sub.map((s) => [s.id, { ...s, platform: p.name, platformSlug: p.slug }] as const),
  ),
);
const pounds = (price: number) => `£${price.toFixed(2)}`;

beforeAll(async () => {
  project = await tempProject();
  out = path.join(project.root, 'dist');
  const result = await runCli(['--root', project.root, 'build'], env);
  expect(result.code, result.stderr).toBe(0);
  buildOutput = result.stdout;
  const config = await loadConfig(project.root, env);
  table = buildRouteTable(await loadContent(project.root, config));
  for (const route of table.routes) {
    pages.set(route.path, parseHtml(await readFile(path.join(out, outputFile(route.path)), 'utf8')));
  }
});

afterAll(async () => {
  await project?.cleanup();
});

const page = (routePath: string) => {
  const html = pages.get(routePath);
  if (!html) throw new Error(`no page ${routePath}`);
  return html;
};
const servicePaths = () => table.routes.filter((r) => r.kind === 'service').map((r) => r.path);

describe('outputs', () => {
  it('prints a summary: pages by kind, files and bytes written, the time of each stage', () => {
    const lines = buildOutput.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${escapeRegExp(builtLine)} ${/and \d+ other files, (\d+ KB|\d+\.\d MB), into .* in \d+\.\d\d s\.$/.source}`,
      ),
    );
    expect(lines[1]).toMatch(
      /^ {2}stages: config \d+\.\d\d s · content \d+\.\d\d s · routes .* · render .* · write \d+\.\d\d s$/,
    );
    expect(lines[2]).toBe('  target: static (the default; --target names a host)');
  });

  it('writes one HTML file per route and nothing unexpected', async () => {
    const files = (await readdir(out, { recursive: true })).map(String).filter((f) => f.endsWith('.html'));
    // One file per route, plus a small redirect page at each old path (for hosts without rules).
    const redirectPages = table.redirects.map((r) => outputFile(r.from)).filter((f) => f !== 'index.html');
    expect(files.sort()).toEqual([...table.routes.map((r) => outputFile(r.path)), ...redirectPages].sort());
    for (const file of redirectPages) {
      const html = await readFile(path.join(out, file), 'utf8');
      const target = table.redirects.find((r) => outputFile(r.from) === file)!.to;
      expect(html).toContain(`<link rel="canonical" href="${SITE}${target}">`);
      expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${target}">`);
      expect(html).toContain('<meta name="robots" content="noindex">');
    }
    expect(table.routes.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/',
        '/about',
        '/contact',
        '/blog',
        '/term-of-service',
        '/privacy-policy',
        ...specServicePaths,
      ]),
    );
    expect(files).toContain('404.html');
  });

  it('sitemap lists every indexable route as an absolute URL and no noindex page', async () => {
    const xml = await readFile(path.join(out, 'sitemap.xml'), 'utf8');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const expected = table.routes.filter((r) => r.indexable).map((r) => SITE + r.path);
    expect(locs.sort()).toEqual(expected.sort());
    for (const noindex of ['/term-of-service', '/privacy-policy', '/404']) expect(locs).not.toContain(SITE + noindex);
    expect(locs.length).toBeGreaterThanOrEqual(17);
  });

  it('robots.txt names the sitemap', async () => {
    const robots = await readFile(path.join(out, 'robots.txt'), 'utf8');
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it('the stylesheet has a content hash in its name and every page links it', async () => {
    const assets = await readdir(path.join(out, 'assets'));
    const css = assets.filter((f) => f.endsWith('.css'));
    expect(css).toHaveLength(1);
    expect(css[0]).toMatch(/^site\.[0-9a-f]{10}\.css$/);
    for (const [, html] of pages)
      expect(html.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe(`/assets/${css[0]}`);
  });
});

describe('every page', () => {
  it('is a complete document with title, description, canonical, Open Graph and Twitter tags', () => {
    for (const route of table.routes) {
      const html = page(route.path);
      expect(html.querySelector('html')?.getAttribute('lang')).toBe('en-GB');
      expect(html.querySelectorAll('title')).toHaveLength(1);
      expect(html.querySelector('title')!.text).toContain('Test Brand');
      expect(html.querySelector('meta[name=description]')?.getAttribute('content')?.length).toBeGreaterThan(20);
      const canonical = html.querySelector('link[rel=canonical]')?.getAttribute('href');
      if (route.kind === 'not-found') {
        // The 404 page is served at every unknown address: it has no canonical URL of its own.
        expect(canonical).toBeUndefined();
        expect(html.querySelector('meta[property="og:url"]')).toBeNull();
      } else {
        expect(canonical).toBe(SITE + route.path);
        // No .html and no trailing slash (the home page's path is just "/").
        expect(new URL(canonical!).pathname).toMatch(/^\/$|^\/.*[^/]$/);
        expect(canonical).not.toMatch(/\.html$/);
        expect(html.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe(canonical);
      }
      expect(html.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBeTruthy();
      expect(html.querySelector('meta[property="og:description"]')?.getAttribute('content')).toBeTruthy();
      expect(html.querySelector('meta[property="og:image"]')?.getAttribute('content')).toMatch(/^https:\/\//);
      expect(html.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary_large_image');
      // One external, deferred script (the browser script); no inline script.
      const scripts = html.querySelectorAll('script:not([type="application/ld+json"])');
      expect(scripts).toHaveLength(1);
      expect(scripts[0]!.getAttribute('src')).toMatch(/^\/assets\/site\.[0-9a-f]{10}\.js$/);
      expect(scripts[0]!.hasAttribute('defer')).toBe(true);
      expect(scripts[0]!.text).toBe('');
      expect(html.querySelectorAll('h1')).toHaveLength(1);
    }
  });

  it('has noindex exactly on terms, privacy and the 404 page', () => {
    for (const route of table.routes) {
      const robots = page(route.path).querySelector('meta[name=robots]')?.getAttribute('content');
      const expected = ['/term-of-service', '/privacy-policy', '/404'].includes(route.path);
      expect(robots === 'noindex', route.path).toBe(expected);
    }
  });

  it('links only to routes and redirects of the site', () => {
    const known = new Set([...table.byPath.keys(), ...table.redirects.map((r) => r.from)]);
    for (const route of table.routes) {
      for (const a of page(route.path).querySelectorAll('a[href]')) {
        const href = a.getAttribute('href')!;
        if (href.startsWith('#')) {
          expect(page(route.path).querySelector(`[id="${href.slice(1)}"]`), `${route.path} ${href}`).toBeTruthy();
          continue;
        }
        if (!href.startsWith('/')) continue;
        expect(known.has(href.split('#')[0]!), `${route.path} links to ${href}`).toBe(true);
      }
    }
  });

  it('has the header with the active item marked and the footer with its parts', () => {
    const about = page('/about');
    expect(about.querySelector('.main-nav a[href="/about"]')?.getAttribute('aria-current')).toBe('page');
    const service = page('/buy-youtube-watch-hours');
    expect(service.querySelector('.mega summary')?.getAttribute('aria-current')).toBe('true');
    expect(service.querySelector('.mega a[href="/buy-youtube-watch-hours"]')?.text).toBe('Watch Time');
    const columns = service.querySelectorAll('.mega-column .mega-heading').map((h) => h.text);
    expect(columns).toEqual(['Instagram', 'TikTok', 'YouTube']);
    const footer = service.querySelector('footer')!;
    // No newsletter endpoint is set (NEWSLETTER_URL): no sign-up form that could only fail.
    expect(footer.querySelector('form')).toBeNull();
    expect(footer.querySelectorAll('.payments svg[role=img]')).toHaveLength(5);
    expect(footer.text).toContain(String(new Date().getUTCFullYear()));
    expect(footer.querySelector('a[href="mailto:support@example.com"]')).toBeTruthy();
    for (const href of ['/about', '/term-of-service', '/privacy-policy', '/contact']) {
      expect(footer.querySelector(`a[href="${href}"]`), href).toBeTruthy();
    }
  });

  it('shows no dollar prices', () => {
    for (const route of table.routes) expect(page(route.path).text).not.toMatch(/\$\s?\d/);
  });
});

describe('service pages', () => {
  it('every grid price equals the catalogue and the specification', () => {
    for (const routePath of servicePaths()) {
      const tiles = page(routePath).querySelectorAll('#packages .package:not(.package-support)');
      const shown = tiles.map((t) => [
        Number(t.querySelector('.package-number')!.text.replace(/,/g, '')),
        t.querySelector('.package-price')!.text.trim(),
      ]);
      const expected = specPrices[routePath]!.map(([q, p]) => [q, pounds(p)]);
      expect(shown, routePath).toEqual(expected);
    }
  });

  it('Buy Now links go to the checkout with the catalogue slug of that package', () => {
    for (const routePath of servicePaths()) {
      const route = table.byPath.get(routePath)!;
      if (route.kind !== 'service') throw new Error('not a service');
      const sub = subById.get(route.page.subCategory)!;
      const hrefs = page(routePath)
        .querySelectorAll('#packages .package:not(.package-support) a')
        .map((a) => a.getAttribute('href'));
      expect(hrefs).toEqual(sub.packages.map((p) => `${CHECKOUT}/product/${p.slug}`));
      for (const p of sub.packages)
        expect(pounds(p.price)).toBe(pounds(specPrices[routePath]!.find(([q]) => q === p.quantity)![1]));
    }
  });

  it('each has the public-account notice, a visible breadcrumb and BreadcrumbList data', () => {
    for (const routePath of servicePaths()) {
      const html = page(routePath);
      // The specification's notice, word for word, then one explanatory line (issue 33).
      expect(html.querySelector('.notice strong')?.text).toBe('Your account should be public!');
      expect(html.querySelector('.notice .notice-text')?.text).toBe('Keep it public until your order is complete.');
      expect(html.querySelector('.notice')?.getAttribute('role')).toBe('note');
      const crumbs = html.querySelectorAll('.breadcrumb a').map((a) => a.getAttribute('href'));
      expect(crumbs).toEqual(['/', routePath]);
      const data = html.querySelectorAll('script[type="application/ld+json"]').map((s) => JSON.parse(s.text));
      const list = data.find((d) => d['@type'] === 'BreadcrumbList');
      expect(list.itemListElement.map((i: { item: string }) => i.item)).toEqual([`${SITE}/`, SITE + routePath]);
    }
  });

  it('FAQs are native <details> with the required counts', () => {
    for (const routePath of servicePaths()) {
      const items = page(routePath).querySelectorAll('#faq details');
      expect(items.length, routePath).toBeGreaterThan(0);
      for (const item of items) {
        expect(item.querySelector('summary')?.text.trim()).toBeTruthy();
        expect(item.hasAttribute('open')).toBe(false);
      }
      if (faqCounts[routePath]) expect(items.length, routePath).toBe(faqCounts[routePath]);
    }
  });

  it('cross-sell cards show the derived starting price, and no rating without a source', () => {
    for (const routePath of servicePaths()) {
      for (const card of page(routePath).querySelectorAll('.service-card')) {
        const target = card.querySelector('a')!.getAttribute('href')!;
        const targetRoute = table.byPath.get(target)!;
        if (targetRoute.kind !== 'service') throw new Error(`${target} is not a service page`);
        const sub = subById.get(targetRoute.page.subCategory)!;
        const lowest = Math.min(...specPrices[target]!.map(([, p]) => p));
        expect(card.querySelector('[data-price]')!.text).toBe(pounds(lowest));
        expect(Math.min(...sub.packages.map((p) => p.price))).toBe(lowest);
        // The specification's typed-in ratings have no source (no content/reviews.yaml): none is shown.
        expect(card.querySelector('.service-card-rating')).toBeNull();
      }
    }
    const cards = (p: string) =>
      page(p)
        .querySelectorAll('.service-card a')
        .map((a) => a.getAttribute('href'));
    expect(cards('/buy-instagram-likes')).toEqual(['/buy-instagram-followers', '/buy-instagram-views']);
    expect(cards('/buy-tiktok-views')).toEqual(['/buy-tiktok-followers', '/buy-tiktok-likes']);
    expect(cards('/buy-youtube-subscribers')).toEqual([
      '/buy-youtube-watch-hours',
      '/buy-youtube-likes',
      '/buy-youtube-views',
    ]);
  });

  it('badges no package: the catalogue keeps no order figures, the source a "Most popular" needs', () => {
    expect([...subById.values()].flatMap((sub) => sub.packages.filter((p) => p.popular !== undefined))).toEqual([]);
    for (const routePath of ['/', ...servicePaths()]) {
      const html = page(routePath);
      expect(
        html.querySelectorAll('.package-popular, .package-badge, .package-popular-source'),
        routePath,
      ).toHaveLength(0);
      expect(html.text, routePath).not.toContain('Most popular');
      expect(html.text, routePath).not.toContain('most popular package');
    }
  });

  it("cards and cross-sells linking to a service page show that platform's mark, taken from the catalogue", () => {
    const markOf = (card: HTMLElement) =>
      card.querySelector('.mark')?.classList.value.find((c) => /^mark-(?!sm$|md$|lg$)/.test(c));
    const expected = (href: string) => {
      const route = table.byPath.get(href)!;
      if (route.kind !== 'service') throw new Error(`${href} is not a service page`);
      return `mark-${subById.get(route.page.subCategory)!.platformSlug}`;
    };
    const cards = [
      ...page('/').querySelectorAll('#services .card'),
      ...servicePaths().flatMap((p) => page(p).querySelectorAll('.service-card')),
    ];
    expect(cards.length).toBeGreaterThan(6);
    for (const card of cards) {
      const href = card.querySelector('h3 a')!.getAttribute('href')!;
      expect(markOf(card), href).toBe(expected(href));
      expect(card.querySelector('.card-icon'), href).toBeNull();
    }
    // The home hero's tiles: a platform's mark, each a link to its first service's panel of the picker.
    const tiles = page('/').querySelectorAll('.hero-visual a');
    expect(tiles.map((tile) => [markOf(tile), tile.getAttribute('href')])).toEqual(
      catalogue.platforms
        .filter((p) => p.sub.some((sub) => sub.packages.length > 0))
        .map((p) => {
          // The tile leads to the service of the lowest price it shows.
          const low = (sub: (typeof p.sub)[number]) => Math.min(...sub.packages.map((k) => k.price));
          const sold = p.sub.filter((sub) => sub.packages.length > 0).sort((a, b) => low(a) - low(b));
          return [`mark-${p.slug}`, `#pick-${sold[0]!.id}`];
        }),
    );
    // A service page's hero is its heading and notice: no tile repeating the packages below it.
    for (const routePath of servicePaths()) expect(page(routePath).querySelector('.hero-visual'), routePath).toBeNull();
  });

  it(
    'Instagram followers: 8 packages, no unsourced rating line, Organization, ' +
      'WebSite and Service with an AggregateOffer and no aggregateRating',
    () => {
      const html = page('/buy-instagram-followers');
      expect(html.querySelectorAll('#packages .package')).toHaveLength(8);
      expect(html.querySelector('.rating-line')).toBeNull();
      expect(html.text).not.toContain('2K+');
      const data = html.querySelectorAll('script[type="application/ld+json"]').map((s) => JSON.parse(s.text));
      const types = data.map((d) => d['@type']);
      expect(types).toEqual(expect.arrayContaining(['BreadcrumbList', 'Organization', 'WebSite', 'Service']));
      const offer = data.find((d) => d['@type'] === 'Service').offers;
      expect(offer).toMatchObject({
        '@type': 'AggregateOffer',
        priceCurrency: 'GBP',
        lowPrice: '1.89',
        highPrice: '160.00',
      });
      expect(JSON.stringify(data)).not.toContain('aggregateRating');
    },
  );

  it(
    'TikTok followers sends orders above its largest package, 5,000, to support; ' +
      'TikTok likes has no question mark',
    () => {
      const followers = page('/buy-tiktok-followers');
      const tile = followers.querySelector('.package-support');
      const largest = followers
        .querySelectorAll('#packages .package:not(.package-support) .package-number')
        .map((n) => Number(n.text.replace(/,/g, '')));
      expect(Math.max(...largest)).toBe(5000);
      expect(tile?.text).toContain('More than 5,000?');
      expect(followers.text).not.toContain('10,000');
      expect(tile?.querySelector('a')?.getAttribute('href')).toBe('/contact');
      expect(page('/buy-tiktok-likes').querySelector('h1')?.text).toBe('Buy TikTok Likes');
    },
  );

  it(
    'YouTube subscribers and likes offer no unpriced Premium upgrade; ' +
      'subscribers has a Buy now to the checkout home',
    () => {
      for (const path of ['/buy-youtube-subscribers', '/buy-youtube-likes']) {
        expect(page(path).text, path).not.toMatch(/upgrade fee|Premium[^.]*at checkout/i);
        expect(page(path).querySelector('.packages-note')?.text, path).toContain('shown above with its full price');
      }
      const cta = page('/buy-youtube-subscribers').querySelector('#how-it-works .section-cta a');
      expect(cta?.getAttribute('href')).toBe(CHECKOUT);
    },
  );
});

describe('other pages', () => {
  it(
    "home: the specification's two buttons, six feature blocks, how to order in three steps, /about, " +
      'picker defaulting to 10',
    () => {
      const home = page('/');
      // The specification's two hero buttons, YouTube subscribers and YouTube views, each with its platform's mark
      // (issue 33).
      expect(home.querySelectorAll('.hero-buttons a').map((a) => a.getAttribute('href'))).toEqual([
        '/buy-youtube-subscribers',
        '/buy-youtube-views',
      ]);
      expect(
        home
          .querySelectorAll('.hero-buttons a .mark')
          .map((m) => m.classList.value.find((c) => c.startsWith('mark-') && c !== 'mark-sm')),
      ).toEqual(['mark-youtube', 'mark-youtube']);
      expect(home.querySelectorAll('#services .card h3 a').map((a) => a.getAttribute('href'))).toEqual([
        '/buy-youtube-subscribers',
        '/buy-youtube-views',
        '/buy-tiktok-followers',
        '/buy-tiktok-likes',
        '/buy-instagram-followers',
        '/buy-instagram-likes',
      ]);
      expect(home.querySelectorAll('#how-to-order .steps > li')).toHaveLength(3);
      expect(home.querySelector('main a[href="/about"]')).toBeTruthy();
      const picker = home.querySelector('[data-picker]')!;
      expect(picker.getAttribute('data-default')).toBe('10');
      expect(picker.querySelector('.picker-default')?.getAttribute('id')).toBe('pick-10');
      // Without script every listed sub-category is reachable: one panel per tab, all in the page.
      const tabs = picker.querySelectorAll('[data-tab]').map((a) => a.getAttribute('href'));
      const panels = picker.querySelectorAll('[data-panel]').map((p) => `#${p.getAttribute('id')}`);
      expect(tabs).toEqual(panels);
      const listed = catalogue.platforms.flatMap((p) => p.sub.filter((s) => s.packages.length > 0));
      expect(panels).toEqual(listed.map((s) => `#pick-${s.id}`));
      for (const sub of listed) {
        const prices = picker.querySelectorAll(`#pick-${sub.id} .package-price`).map((p) => p.text);
        expect(prices).toEqual(sub.packages.map((p) => pounds(p.price)));
      }
      expect(picker.text).not.toContain('Facebook');
    },
  );

  it('contact: channels from the site data, no form; about: the ten services in one list and the contact block', () => {
    const contact = page('/contact');
    expect(contact.querySelectorAll('main form')).toHaveLength(0);
    const site = parseYaml(readFileSync(path.join(repoRoot, 'content/site.yaml'), 'utf8')) as {
      contactChannels: unknown[];
    };
    expect(contact.querySelectorAll('.channel')).toHaveLength(site.contactChannels.length);
    expect(contact.querySelector('.channel a[href="mailto:support@example.com"]')).toBeTruthy();
    const about = page('/about');
    // One compact list grouped by platform, each service with its starting price from the catalogue.
    expect(about.querySelectorAll('#services .card')).toHaveLength(0);
    expect(about.querySelectorAll('#services .service-group h3').map((h) => h.text.trim())).toEqual([
      'Instagram',
      'TikTok',
      'YouTube',
    ]);
    const listed = about.querySelectorAll('#services .service-group li');
    expect(listed).toHaveLength(pageCounts.service);
    for (const item of listed) {
      const href = item.querySelector('a')!.getAttribute('href')!;
      const route = table.byPath.get(href)!;
      if (route.kind !== 'service') throw new Error(`${href} is not a service page`);
      const lowest = Math.min(...subById.get(route.page.subCategory)!.packages.map((p) => p.price));
      expect(item.querySelector('[data-price]')?.text, href).toBe(pounds(lowest));
    }
    expect(about.querySelector('.contact-block h2')?.text).toBe("Let's Get Started Today!");
    expect(about.querySelector('.contact-block a')?.getAttribute('href')).toBe('/contact');
  });

  it('terms and privacy carry the business rules and point to the contact page', () => {
    const terms = page('/term-of-service').text;
    const privacy = page('/privacy-policy').text;
    const both = terms + privacy;
    // Rewritten for UK law (issue 18), last changed on 28 November 2026 (issue 40); every business rule is kept.
    for (const fact of [
      '13',
      'GBP',
      'chargeback',
      'IP address',
      'California',
      'last four digits',
      '28 November 2026',
    ]) {
      expect(both, fact).toContain(fact);
    }
    expect(page('/term-of-service').querySelector('main a[href="/contact"]')).toBeTruthy();
    expect(page('/privacy-policy').querySelector('main a[href="/contact"]')).toBeTruthy();
    expect(both).not.toMatch(/contact (us )?form/i);
  });

  it('blog: list of posts newest first with Read More links; each post page has its body', () => {
    const list = page('/blog');
    const links = list.querySelectorAll('.post-card h2 a').map((a) => a.getAttribute('href'));
    const posts = table.routes.filter((r) => r.kind === 'blog-post');
    expect(links).toHaveLength(posts.length);
    expect(posts.length).toBeGreaterThanOrEqual(3);
    const dates = list.querySelectorAll('.post-card time').map((t) => Date.parse(t.getAttribute('datetime')!));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const href of links) {
      expect(list.querySelector(`a.read-more[href="${href}"]`)).toBeTruthy();
      expect(page(href!).querySelector('article .prose')!.text.length).toBeGreaterThan(500);
    }
  });

  it('404: PAGE NOT FOUND and the message', () => {
    const notFound = page('/404');
    expect(notFound.text).toContain('PAGE NOT FOUND');
    expect(notFound.text).toContain('removed, renamed or be temporarily unavailable');
  });
});

describe('business constants of the specification (sections 1, 5 and 9)', () => {
  const cases: [string, string[]][] = [
    [
      '/buy-instagram-followers',
      ['about 15 minutes', '24 to 48 hours', '30 days', '6 months', '24/7', 'password', 'public', 'a week'],
    ],
    ['/buy-instagram-likes', ['bonus views', 'split']],
    ['/buy-instagram-views', ['Reels', 'Story views']],
    ['/buy-tiktok-followers', ['5,000']],
    ['/buy-youtube-subscribers', ['1,000 subscribers', 'steps of 10']],
    ['/buy-youtube-likes', ['first 48 hours']],
    ['/buy-youtube-views', ['1,000,000', '2,500']],
    [
      '/buy-youtube-watch-hours',
      // The specification's lifetime warranty on watch hours, where other services have 6 months' retention.
      [
        'Lifetime warranty',
        '60 minutes',
        '50 to 200 watch hours a day',
        'Delivered over 20 to 80 days',
        '4,000 watch hours',
      ],
    ],
    [
      '/term-of-service',
      [
        '13',
        'GBP',
        'chargeback',
        'IP address',
        '28 November 2026',
        'right to cancel',
        '14 days',
        'England and Wales',
        'Complaints',
      ],
    ],
    [
      '/privacy-policy',
      [
        'California',
        'one month',
        'last four digits',
        'UK GDPR',
        'Data Protection Act 2018',
        'Wycliffe House',
        'Information Commissioner',
      ],
    ],
  ];
  for (const [routePath, phrases] of cases) {
    it(`${routePath} states ${phrases.join(', ')}`, () => {
      const text = page(routePath).querySelector('main')!.text.replace(/\s+/g, ' ');
      for (const phrase of phrases) expect(text, phrase).toContain(phrase);
    });
  }
  // Claims without a source kept in content are not shown (issue 27): the specification's years
  // in business and customers a day, and the monthly automatic-likes plan, which has no price.
  it('no page states 12+ years, over 1,000 customers a day or an automatic-likes plan', () => {
    for (const route of table.routes) {
      const text = page(route.path).text.replace(/\s+/g, ' ');
      for (const phrase of ['12+ years', '1,000 customers', 'over a decade', 'automatic-likes', 'automatic likes'])
        expect(text, `${route.path}: ${phrase}`).not.toContain(phrase);
    }
  });
});

describe('a package the catalogue marks popular, with its source', () => {
  let sourced: Awaited<ReturnType<typeof tempProject>>;
  const sourcedPages = new Map<string, HTMLElement>();
  const sourcedPage = (routePath: string) => sourcedPages.get(routePath)!;

  beforeAll(async () => {
    sourced = await tempProject();
    await editFile(
      sourced.root,
      'content/catalogue.yaml',
      'slug: 1000-tiktok-followers }',
      'slug: 1000-tiktok-followers, popular: { from: 2026-08-01, to: 2026-10-31, orders: 412, ofOrders: 1030 } }',
    );
    // Across a new year: each day keeps its year.
    await editFile(
      sourced.root,
      'content/catalogue.yaml',
      'slug: 4000-youtube-watch-hours }',
      'slug: 4000-youtube-watch-hours, popular: { from: 2025-12-01, to: 2026-02-28, orders: 37, ofOrders: 90 } }',
    );
    const result = await runCli(['--root', sourced.root, 'build'], env);
    expect(result.code, result.stderr).toBe(0);
    for (const routePath of [
      '/',
      '/buy-tiktok-followers',
      '/buy-youtube-watch-hours',
      '/buy-tiktok-likes',
      '/buy-instagram-followers',
    ]) {
      sourcedPages.set(
        routePath,
        parseHtml(await readFile(path.join(sourced.root, 'dist', outputFile(routePath)), 'utf8')),
      );
    }
  });

  afterAll(async () => {
    await sourced?.cleanup();
  });

  const expected: [string, string, string][] = [
    [
      '/buy-tiktok-followers',
      '1,000',
      'Most popular: 1,000 followers, 412 of 1,030 TikTok followers orders from 1 August to 31 October 2026.',
    ],
    [
      '/buy-youtube-watch-hours',
      '4,000',
      'Most popular: 4,000 watch hours, 37 of 90 YouTube watch hours orders from 1 December 2025 to 28 February 2026.',
    ],
  ];

  for (const [routePath, quantity, sentence] of expected) {
    it(`${routePath}: the badge on the ${quantity} tile only, and its source once, right after the grid`, () => {
      const html = sourcedPage(routePath);
      const badged = html.querySelectorAll('#packages .package-popular');
      expect(badged.map((tile) => tile.querySelector('.package-number')!.text)).toEqual([quantity]);
      expect(html.querySelectorAll('#packages .package-badge').map((badge) => badge.text)).toEqual(['Most popular']);
      expect(badged[0]!.querySelector('.package-badge')).not.toBeNull();
      // The Buy Now's words for a screen reader say it of that package only.
      const labels = html.querySelectorAll('#packages .package .visually-hidden').map((label) => label.text);
      expect(labels.filter((label) => label.endsWith(', our most popular package'))).toHaveLength(1);
      expect(badged[0]!.querySelector('.visually-hidden')!.text).toMatch(
        new RegExp(`^: ${quantity} .* for £[\\d.]+, our most popular package$`),
      );
      const sources = html.querySelectorAll('.package-popular-source');
      expect(sources.map((source) => source.text)).toEqual([sentence]);
      expect(html.querySelector('#packages ul.package-grid')!.nextElementSibling).toBe(sources[0]);
      expect(sources[0]!.tagName).toBe('P');
    });
  }

  it("the home picker's tab of that service shows the same badge and source; other grids none", () => {
    const home = sourcedPage('/');
    expect(home.querySelectorAll('#pick-20 .package-popular .package-number').map((n) => n.text)).toEqual(['1,000']);
    expect(home.querySelectorAll('#pick-20 .package-popular-source').map((p) => p.text)).toEqual([expected[0]![2]]);
    expect(
      home
        .querySelectorAll('.package-popular-source')
        .map((p) => p.text)
        .sort(),
    ).toEqual(expected.map(([, , text]) => text).sort());
    for (const routePath of ['/buy-tiktok-likes', '/buy-instagram-followers']) {
      expect(
        sourcedPage(routePath).querySelectorAll('.package-popular, .package-popular-source'),
        routePath,
      ).toHaveLength(0);
    }
  });
});
