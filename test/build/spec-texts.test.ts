/**
 * The specification's quoted texts that the product decisions keep, held word for word on the
 * built pages, so that a redesign cannot drift from them again. Each expected text is typed here,
 * from the specification (or from the decision that changed it), never read from the content.
 * Every other heading is in sentence case.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject } from '../helpers.js';
import { specServicePaths } from './spec-prices.js';

let project: Awaited<ReturnType<typeof builtProject>> | undefined;
const pages = new Map<string, HTMLElement>();
const page = (route: string) => pages.get(route)!;
const text = (el: HTMLElement | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  project = await builtProject();
  for (const route of ['/', '/about', '/contact', '/term-of-service', '/privacy-policy', ...specServicePaths]) {
    const file = route === '/' ? 'index.html' : `${route.slice(1)}.html`;
    pages.set(route, parseHtml(await readFile(path.join(project.root, 'dist', file), 'utf8')));
  }
  pages.set('404', parseHtml(await readFile(path.join(project.root, 'dist', '404.html'), 'utf8')));
}, 60_000);

afterAll(() => project?.cleanup());

describe("the specification's quoted texts", () => {
  it(
    "every service page: the notice 'Your account should be public!', Buy Now on every package, " +
      'a why-choose section',
    () => {
      for (const route of specServicePaths) {
        expect(text(page(route).querySelector('.notice strong')), route).toBe('Your account should be public!');
        const buttons = page(route).querySelectorAll('#packages .package:not(.package-support) a.button');
        expect(buttons.length, route).toBeGreaterThan(0);
        for (const button of buttons) expect(text(button.childNodes[0] as HTMLElement), route).toBe('Buy Now');
        expect(
          page(route)
            .querySelectorAll('main h2')
            .some((h) => /^Why choose us for /.test(text(h))),
          route,
        ).toBe(true);
      }
    },
  );

  it('the home hero: buttons to the YouTube subscribers and YouTube views pages', () => {
    expect(
      page('/')
        .querySelectorAll('.hero .hero-buttons a')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/buy-youtube-subscribers', '/buy-youtube-views']);
  });

  it(
    "the contact block: 'Contact Us', " +
      "\"Let's Get Started Today!\" (the decisions' spelling) and 'Contact us' to /contact",
    () => {
      const blocks = [...pages.values()].flatMap((html) => html.querySelectorAll('.contact-block'));
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) {
        expect(text(block.querySelector('.eyebrow'))).toBe('Contact Us');
        expect(text(block.querySelector('h2'))).toBe("Let's Get Started Today!");
        const button = block.querySelector('a.button')!;
        expect([text(button), button.getAttribute('href')]).toEqual(['Contact us', '/contact']);
      }
    },
  );

  it("the navigation labels watch hours 'Watch Time'; the footer's useful links are the spec's", () => {
    const menu = page('/').querySelector('header a[href="/buy-youtube-watch-hours"]');
    expect(text(menu)).toBe('Watch Time');
    const useful = page('/')
      .querySelectorAll('footer a')
      .map((a) => a.getAttribute('href'));
    for (const href of ['/about', '/term-of-service', '/privacy-policy', '/contact']) expect(useful).toContain(href);
  });

  it(
    "the service pages' words: 'More Instagram Services', 'Buy TikTok Likes' (no question mark), " +
      'Home > Buy YouTube views',
    () => {
      for (const route of ['/buy-instagram-likes', '/buy-instagram-views'])
        expect(text(page(route).querySelector('#more-services-heading')), route).toBe('More Instagram Services');
      expect(text(page('/buy-tiktok-likes').querySelector('h1'))).toBe('Buy TikTok Likes');
      expect(page('/buy-youtube-views').querySelectorAll('.breadcrumb li').map(text)).toEqual([
        'Home',
        'Buy YouTube views',
      ]);
    },
  );

  it('the 404 page says PAGE NOT FOUND and that the page may have been removed, renamed or be unavailable', () => {
    expect(text(page('404').querySelector('main'))).toContain('PAGE NOT FOUND');
    expect(text(page('404').querySelector('main'))).toMatch(/removed, renamed or be temporarily unavailable/);
  });

  it('the legal pages were first published on 26 June 2022', () => {
    for (const route of ['/term-of-service', '/privacy-policy'])
      expect(text(page(route).querySelector('main')), route).toContain('26 June 2022');
  });
});

/** Words a sentence-case heading may capitalise after its first: names, and the spec's quoted headings. */
const PROPER = new Set([
  'Instagram',
  'TikTok',
  'YouTube',
  'UK',
  'VAT',
  'GBP',
  'PayPal',
  'Apple',
  'Google',
  'Pay',
  'WhatsApp',
  'ICO',
  'England',
  'Wales',
  'Scotland',
  'Northern',
  'Ireland',
  'Citizens',
  'Advice',
  'Consumer',
  'Contracts',
  'Regulations',
  'Rights',
  'Act',
  'GDPR',
  'California',
  'Reels',
  'Shorts',
  'Stories',
  'Story',
  'Storefront',
  'I',
  'FAQ',
  'EU',
  'EEA',
  'Partner',
  'Program',
  'Programme',
  'Studio',
]);
const QUOTED = [
  /^Buy (Instagram|TikTok|YouTube) [A-Z][a-z]+( [A-Z][a-z]+)?$/,
  /^More (Instagram|TikTok|YouTube) Services$/,
  /^Let's Get Started Today!$/,
  /^PAGE NOT FOUND$/,
];

describe('headings', () => {
  it('are in sentence case, but for names and the headings the specification quotes', () => {
    const wrong: string[] = [];
    for (const [route, html] of pages) {
      for (const heading of html.querySelectorAll('main h1, main h2, main h3, main summary')) {
        const words = text(heading)
          .replace(/^\d+(\.\d+)*\.?\s+/, '')
          .split(/\s+/);
        if (QUOTED.some((quote) => quote.test(text(heading)))) continue;
        const capitalised = words
          .slice(1)
          .filter(
            (word) => /^[A-Z][a-z]/.test(word) && !PROPER.has(word.replace(/[^A-Za-z]+$/, '').replace(/'s$/, '')),
          );
        if (capitalised.length) wrong.push(`${route}: "${text(heading)}" (${capitalised.join(', ')})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
