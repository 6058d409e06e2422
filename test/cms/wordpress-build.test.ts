/**
 * The blog from a WordPress site: the real CLI builds against a real HTTP server that answers
 * like WordPress's REST API, with 250 posts.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempProject } from '../helpers.js';
import { FakeWordPress } from '../support/fake-wordpress.js';

const SITE = 'https://www.example.com';
let wp: FakeWordPress;
let project: Awaited<ReturnType<typeof tempProject>>;
let result: Awaited<ReturnType<typeof runCli>>;
const out = () => path.join(project.root, 'dist');
const read = (file: string) => readFile(path.join(out(), file), 'utf8');

beforeAll(async () => {
  wp = await new FakeWordPress().start();
  project = await tempProject();
  result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl]);
  expect(result.code, result.stderr).toBe(0);
  // The figures for the note: fetch and build time of 250 posts.
  console.log(result.stdout.trim());
});

afterAll(async () => {
  await wp?.stop();
  await project?.cleanup();
});

describe('a build against WordPress with 250 posts', () => {
  it('fetches every page with per_page=100 and _embed, and prints progress and the fetch time', () => {
    const postRequests = wp.requests.filter((r) => r.url.startsWith('/wp-json/wp/v2/posts'));
    expect(postRequests.map((r) => r.url).sort()).toEqual([
      '/wp-json/wp/v2/posts?per_page=100&page=1&_embed',
      '/wp-json/wp/v2/posts?per_page=100&page=2&_embed',
      '/wp-json/wp/v2/posts?per_page=100&page=3&_embed',
    ]);
    expect(result.stderr).toContain('Fetching posts: page 3 of 3');
    expect(result.stdout).toMatch(/250 posts fetched in \d+\.\d\d s/);
  });

  it('writes 250 post pages, 21 list pages and the feed', async () => {
    const blogFiles = (await readdir(path.join(out(), 'blog'), { recursive: true })).map(String);
    expect(blogFiles.filter((f) => /^growth-note-\d+\.html$/.test(f))).toHaveLength(250);
    expect(blogFiles.filter((f) => /^page\/\d+\.html$/.test(f))).toHaveLength(20);
    expect(blogFiles).not.toContain('page/22.html');
    expect(await read('blog.html')).toContain('Page 1 of 21');
    const feed = await read('blog/feed.xml');
    expect(feed.match(/<entry>/g)).toHaveLength(20);
    expect(feed).toContain(`<id>${SITE}/blog/growth-note-250</id>`);
  });

  it('lists newest first, 12 a page, with previous and next links', async () => {
    const first = parseHtml(await read('blog.html'));
    const hrefs = first.querySelectorAll('.post-card h2 a').map((a) => a.getAttribute('href'));
    expect(hrefs).toHaveLength(12);
    expect(hrefs[0]).toBe('/blog/growth-note-250');
    expect(hrefs[11]).toBe('/blog/growth-note-239');
    expect(first.querySelector('a[rel=next]')?.getAttribute('href')).toBe('/blog/page/2');
    expect(first.querySelector('a[rel=prev]')).toBeNull();
    const middle = parseHtml(await read('blog/page/2.html'));
    expect(middle.querySelector('a[rel=prev]')?.getAttribute('href')).toBe('/blog');
    expect(middle.querySelector('a[rel=next]')?.getAttribute('href')).toBe('/blog/page/3');
    const last = parseHtml(await read('blog/page/21.html'));
    expect(last.querySelectorAll('.post-card')).toHaveLength(250 - 20 * 12);
    expect(last.querySelector('a[rel=next]')).toBeNull();
    expect(last.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(`${SITE}/blog/page/21`);
  });

  it('cards: featured image with width and height, lazy below the first row, title, excerpt, Read More', async () => {
    const cards = parseHtml(await read('blog.html')).querySelectorAll('.post-card');
    const withImage = cards.filter((c) => c.querySelector('img'));
    expect(withImage.length).toBe(6);
    for (const card of withImage) {
      const img = card.querySelector('img')!;
      // Downloaded and made by the image stage: served by the site, at the file's own size.
      expect(img.getAttribute('width')).toBe('120');
      expect(img.getAttribute('height')).toBe('80');
      expect(img.getAttribute('src')).toMatch(/^\/assets\/img\/[0-9a-f]{16}-120\.jpg$/);
      expect(card.querySelectorAll('picture source').map((s) => s.getAttribute('type'))).toEqual([
        'image/avif',
        'image/webp',
      ]);
      expect(img.getAttribute('alt')).toMatch(/^Illustration \d+$/);
    }
    expect(cards[0]!.querySelector('img')!.getAttribute('loading')).toBe('eager');
    expect(cards[4]!.querySelector('img')!.getAttribute('loading')).toBe('lazy');
    expect(cards[0]!.querySelector('.post-excerpt')!.text).toContain('creators & businesses');
    expect(cards[0]!.querySelector('a.read-more')?.getAttribute('href')).toBe('/blog/growth-note-250');
  });

  it(
    'a post page: title with entities as characters, date, image, body, canonical, Open Graph image, ' + 'BlogPosting',
    async () => {
      const html = await read('blog/growth-note-250.html');
      const page = parseHtml(html);
      expect(page.querySelector('h1')!.text).toBe('Growth note 250: what works – and what doesn’t');
      expect(html).not.toContain('&amp;#8217;');
      expect(page.querySelector('title')!.text).toBe('Growth note 250: what works – and what doesn’t | Storefront');
      expect(page.querySelector('article time')?.getAttribute('datetime')).toBe('2025-01-11T18:00:00.000Z');
      expect(page.querySelector('article .prose h2')?.text).toBe('Why it matters');
      expect(page.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(`${SITE}/blog/growth-note-250`);
      // Link previews and the structured data show its featured image, cut to 1200 x 630.
      const ogImage = page.querySelector('meta[property="og:image"]')?.getAttribute('content');
      expect(ogImage).toMatch(new RegExp(`^${SITE}/assets/img/[0-9a-f]{16}-share\\.jpg$`));
      const image = ogImage;
      const data = page.querySelectorAll('script[type="application/ld+json"]').map((s) => JSON.parse(s.text));
      const posting = data.find((d) => d['@type'] === 'BlogPosting');
      expect(posting).toMatchObject({
        headline: 'Growth note 250: what works – and what doesn’t',
        datePublished: '2025-01-11T18:00:00.000Z',
        dateModified: '2025-01-12T18:00:00.000Z',
        image,
        url: `${SITE}/blog/growth-note-250`,
      });
    },
  );

  it('the sitemap lists every post with lastmod from modified', async () => {
    const sitemap = await read('sitemap.xml');
    const posts = [
      ...sitemap.matchAll(/<url><loc>[^<]+\/blog\/growth-note-(\d+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g),
    ];
    expect(posts).toHaveLength(250);
    const note7 = posts.find((m) => m[1] === '7')!;
    expect(note7[2]).toBe('2025-01-02T15:00:00.000Z');
    expect(sitemap).toContain(`<loc>${SITE}/blog/page/21</loc>`);
  });

  it(
    'saves the fetch under .cache/cms/, without credentials, and keeps only it, ' +
      'the images and the share cards made between builds',
    async () => {
      expect((await readdir(path.join(project.root, '.cache'))).sort()).toEqual(['cms', 'images', 'share']);
      const files = (await readdir(path.join(project.root, '.cache', 'cms'))).filter((name) => name !== 'images');
      expect(files).toHaveLength(1);
      // The 125 featured images, downloaded once, each with the ETag and Last-Modified to ask next time.
      const downloads = await readdir(path.join(project.root, '.cache', 'cms', 'images'));
      expect(downloads.filter((name) => !name.endsWith('.json'))).toHaveLength(125);
      expect(downloads.filter((name) => name.endsWith('.json'))).toHaveLength(125);
      const cached = JSON.parse(await readFile(path.join(project.root, '.cache', 'cms', files[0]!), 'utf8'));
      expect(cached.items).toHaveLength(250);
      expect(cached.apiUrl).toBe(wp.apiUrl);
    },
  );
});
