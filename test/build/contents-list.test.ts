/**
 * Text pages open with a contents list (issue 33, item 5): built with the real CLI, each text
 * page's first element after the hero is a <nav> headed "Contents" whose ordered list links to
 * every h2 of the body, in order, by an id that is on the page once. Built twice: without a
 * newsletter and with one (its sign-up form adds ids to the footer).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { withHeadingIds } from '../../src/content/markdown.js';
import { outputFile } from '../../src/routes/route-table.js';
import { projectsOfThisFile, repoRoot, runCli } from '../helpers.js';

const env = { SITE_URL: 'https://shop.example.org', CHECKOUT_URL: 'https://pay.example.net', BRAND_NAME: 'Test Brand' };
const builds = {
  'without a newsletter': { ...env, NEWSLETTER_URL: '' },
  'with a newsletter': { ...env, NEWSLETTER_URL: 'https://news.example.net/subscribe' },
};
const TEXT_PAGES = [
  { path: '/term-of-service', source: 'content/pages/terms-of-service.md' },
  { path: '/privacy-policy', source: 'content/pages/privacy-policy.md' },
];

const project = projectsOfThisFile();
const pages = new Map<string, HTMLElement>();

beforeAll(async () => {
  for (const [name, settings] of Object.entries(builds)) {
    const { root } = await project();
    const built = await runCli(['--root', root, 'build'], settings);
    expect(built.code, built.stderr).toBe(0);
    for (const { path: route } of TEXT_PAGES) {
      pages.set(`${name} ${route}`, parseHtml(await readFile(path.join(root, 'dist', outputFile(route)), 'utf8')));
    }
  }
});

/** The elements of `root` in document order. */
const inOrder = (root: HTMLElement) => root.querySelectorAll('*');

/** The first element after `hero`'s last descendant that is not one of `target`'s wrappers. */
function firstAfter(main: HTMLElement, hero: HTMLElement, target: HTMLElement): HTMLElement | undefined {
  const all = inOrder(main);
  const heroInside = new Set([hero, ...inOrder(hero)]);
  const wrappers = new Set<HTMLElement>();
  for (let node = target.parentNode; node && node !== main; node = node.parentNode) wrappers.add(node);
  const afterHero = all.slice(all.findLastIndex((el) => heroInside.has(el)) + 1);
  return afterHero.find((el) => !wrappers.has(el));
}

/** The `## ` headings of a Markdown file; those of `<!-- if newsletter -->` blocks only with one. */
function markdownH2s(source: string, newsletter: boolean): string[] {
  let inBlock = false;
  const out: string[] = [];
  for (const line of source.split('\n')) {
    if (/^<!--\s*if\b/.test(line)) inBlock = true;
    else if (/^<!--\s*end if\s*-->/.test(line)) inBlock = false;
    else if ((newsletter || !inBlock) && /^## /.test(line)) out.push(line.slice(3).trim());
  }
  return out;
}

describe.each(Object.keys(builds))('text pages %s', (name) => {
  describe.each(TEXT_PAGES)('$path', ({ path: route, source }) => {
    const page = () => pages.get(`${name} ${route}`)!;
    const main = () => page().querySelector('main')!;
    const nav = () => main().querySelector('nav.contents')!;

    it('opens with the contents nav, the first thing in <main> after the hero', () => {
      const hero = main().querySelector('section.hero')!;
      expect(hero).toBeTruthy();
      expect(main().childNodes.find((node) => node.nodeType === 1)).toBe(hero);
      expect(nav()).toBeTruthy();
      expect(firstAfter(main(), hero, nav())).toBe(nav());
    });

    it('is a nav labelled by its "Contents" heading, with one ordered list of plain anchors', () => {
      const labelId = nav().getAttribute('aria-labelledby')!;
      expect(labelId).toBeTruthy();
      const label = page().querySelectorAll(`[id="${labelId}"]`);
      expect(label).toHaveLength(1);
      expect(label[0]!.tagName).toBe('H2');
      expect(label[0]!.closest('nav')).toBe(nav());
      expect(label[0]!.text.trim()).toBe('Contents');
      expect(nav().querySelectorAll('ol')).toHaveLength(1);
      expect(nav().querySelectorAll('ul')).toHaveLength(0);
      for (const link of nav().querySelectorAll('a')) {
        expect(link.parentNode?.tagName).toBe('LI');
        expect(link.getAttribute('href')).toMatch(/^#[^#\s]+$/);
        expect(Object.keys(link.attributes)).toEqual(['href']);
      }
    });

    it("lists exactly the body's h2s, in order, each linking to its heading's id", () => {
      const headings = main().querySelectorAll('.prose h2');
      const links = nav().querySelectorAll('ol > li > a');
      expect(headings.length).toBeGreaterThan(3);
      expect(links.map((a) => a.text.trim())).toEqual(headings.map((h) => h.text.trim()));
      expect(links.map((a) => a.getAttribute('href'))).toEqual(headings.map((h) => `#${h.id}`));
      for (const link of links) {
        const id = link.getAttribute('href')!.slice(1);
        expect(page().querySelectorAll(`[id="${id}"]`), id).toHaveLength(1);
      }
    });

    it(
      'takes its entries from the Markdown source: one per "## " line shown in this build, ' + 'the first first',
      async () => {
        const written = markdownH2s(await readFile(path.join(repoRoot, source), 'utf8'), name === 'with a newsletter');
        const listed = nav()
          .querySelectorAll('ol > li > a')
          .map((a) => a.text.trim());
        expect(written.length).toBeGreaterThan(3);
        expect(listed[0]).toBe(written[0]);
        expect(listed).toHaveLength(written.length);
      },
    );

    it('has no id twice on the page', () => {
      const ids = page()
        .querySelectorAll('[id]')
        .map((el) => el.id);
      expect(ids.length).toBeGreaterThan(3);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    });
  });
});

describe('a known heading', () => {
  it(
    '"7. Your right to cancel", written in the terms\' Markdown, is listed, ' + 'its id without the section number',
    async () => {
      const markdown = await readFile(path.join(repoRoot, 'content/pages/terms-of-service.md'), 'utf8');
      expect(markdown).toMatch(/^## 7\. Your right to cancel$/m);
      const terms = pages.get('without a newsletter /term-of-service')!;
      const link = terms.querySelectorAll('nav.contents a').find((a) => a.text.trim() === '7. Your right to cancel');
      expect(link?.getAttribute('href')).toBe('#your-right-to-cancel');
      expect(terms.querySelectorAll('.prose h2[id="your-right-to-cancel"]').map((h) => h.text)).toEqual([
        '7. Your right to cancel',
      ]);
    },
  );
});

describe('withHeadingIds', () => {
  it('slugs each h2 and h3 (a link may name a part), lists the h2s, keeps ids there, makes clashes unique', () => {
    const html =
      '<h2>Contact us</h2><p>x</p><h2 id="kept">Kept &amp; sound</h2><h3>Not listed</h3><h2>Contact <em>us</em>' +
      '</h2><h2>Main</h2><h2>Café’s rules</h2><h2>12. Complaints</h2><h2>2026</h2>';
    const { html: out, headings } = withHeadingIds(html, ['main']);
    expect(headings).toEqual([
      { id: 'contact-us', text: 'Contact us' },
      { id: 'kept', text: 'Kept & sound' },
      { id: 'contact-us-2', text: 'Contact us' },
      { id: 'main-2', text: 'Main' },
      { id: 'cafes-rules', text: 'Café’s rules' },
      { id: 'complaints', text: '12. Complaints' },
      { id: '2026', text: '2026' },
    ]);
    expect(out).toBe(
      '<h2 id="contact-us">Contact us</h2><p>x</p><h2 id="kept">Kept &amp; sound</h2>' +
        '<h3 id="not-listed">Not listed</h3>' +
        '<h2 id="contact-us-2">Contact <em>us</em></h2><h2 id="main-2">Main</h2>' +
        '<h2 id="cafes-rules">Café’s rules</h2><h2 id="complaints">12. Complaints</h2><h2 id="2026">2026</h2>',
    );
  });
});
