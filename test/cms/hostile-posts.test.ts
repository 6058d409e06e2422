/**
 * Posts a WordPress site should not be trusted with: script, event handlers, javascript: links,
 * a title that tries to close the JSON-LD script, entities, non-ASCII, duplicate and unsafe
 * slugs, a password-protected post. The hostile page is opened in a real Chromium.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { FakeWordPress, makePosts, type FakePost } from '../support/fake-wordpress.js';

const base = makePosts(3)[0]!;
const post = (id: number, fields: Partial<FakePost>): FakePost => ({
  ...base,
  id,
  slug: `post-${id}`,
  date_gmt: `2026-0${(id % 9) + 1}-01T10:00:00`,
  modified_gmt: `2026-0${(id % 9) + 1}-02T10:00:00`,
  featuredMedia: undefined,
  ...fields,
});

/** The hostile post; its allowed images are on `cdn`, an image host of the site's own (IMAGE_HOSTS). */
const hostilePost = (cdn: string) =>
  post(1, {
    slug: 'hostile',
    title: 'Bad </script><script>window.__pwned = "title"</script> title',
    excerpt: '<p onmouseover="window.__pwned = 1">Hover <img src=x onerror="window.__pwned = \'excerpt\'"></p>',
    content: [
      '<p>Safe paragraph.</p>',
      '<script>window.__pwned = "script"</script>',
      '<style>body { display: none }</style>',
      '<img src="x" onerror="window.__pwned = \'onerror\'" alt="broken">',
      '<a href="javascript:window.__pwned = \'link\'">click</a>',
      '<a href="data:text/html,<script>alert(1)</script>">data</a>',
      '<a href="https://example.org/ok" onclick="window.__pwned = \'click\'">fine link</a>',
      '<iframe src="https://evil.example/frame"></iframe>',
      '<iframe src="https://www.youtube.com/embed/abc123" width="560" height="315" title="Video"></iframe>',
      '<svg onload="window.__pwned = \'svg\'"><circle r="1"/></svg>',
      `<img src="${cdn}/media/1.jpg" alt="kept" width="10" height="20" style="position:fixed" class="x">`,
      '<h2 id="main">An id the page uses</h2><p><a id="back" href="#main">back to it</a>' +
        `<img id="pic" src="${cdn}/media/2.jpg" alt="with an id" width="1" height="1"></p>`,
      `<picture><source srcset="https://tracker.example.net/a.webp 1x, ${cdn}/media/4.jpg 2x">` +
        `<img src="${cdn}/media/3.jpg" alt="in a picture" width="1" height="1"></picture>`,
      '<img src="https://tracker.example.net/pixel.gif" alt="from a host not allowed" width="1" height="1">',
    ].join('\n'),
  });
const entities = post(2, { slug: 'entities', title: 'Don&#8217;t &amp; won&#8217;t: &#8220;quotes&#8221; &lt;b&gt;' });
const nonAscii = post(3, {
  // WordPress stores non-ASCII slugs percent-encoded, lowercase: "привет-мир".
  slug: '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80',
  title: 'Привет, мир',
});
const locked = post(4, { slug: 'members-only', title: 'Members only', protected: true });

let wp: FakeWordPress;
/** Another host serving images, as a CDN would. */
let cdn: FakeWordPress;
let project: Awaited<ReturnType<typeof tempProject>>;
const read = (file: string) => readFile(path.join(project.root, 'dist', file), 'utf8');

beforeAll(async () => {
  cdn = await new FakeWordPress([]).start();
  wp = await new FakeWordPress([
    hostilePost(cdn.origin),
    entities,
    nonAscii,
    locked,
    ...makePosts(2).map((p) => ({ ...p, id: p.id + 100 })),
  ]).start();
  project = await tempProject();
  // Images may come from the site, the CMS and this host only; they are downloaded and served by the site itself.
  const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl], { IMAGE_HOSTS: cdn.origin });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain('1 password-protected post(s) left out');
  // The tracker's pixel, and the hostile post's `<img src="x">`, which names no allowed host either.
  expect(result.stderr).toContain('2 image(s) from hosts the site does not allow images from were left out');
});

afterAll(async () => {
  await wp?.stop();
  await cdn?.stop();
  await project?.cleanup();
});

describe('hostile and unusual posts', () => {
  it('are sanitised: no script, style, handlers, javascript: or data: links, foreign iframes', async () => {
    const html = await read('blog/hostile.html');
    const article = parseHtml(html).querySelector('article')!;
    expect(article.querySelectorAll('script, style')).toHaveLength(0);
    expect(article.innerHTML).not.toMatch(/\son[a-z]+=/i);
    expect(article.innerHTML).not.toMatch(/javascript:|data:text/i);
    const iframes = article.querySelectorAll('iframe').map((f) => f.getAttribute('src'));
    expect(iframes).toEqual(['https://www.youtube.com/embed/abc123']);
    // Allowed images are downloaded and served from the site, at their own size.
    const kept = article.querySelector('img[alt="kept"]')!;
    expect(kept.getAttribute('src')).toMatch(/^\/assets\/img\/[0-9a-f]{16}-120\.jpg$/);
    expect(kept.getAttribute('width')).toBe('120');
    expect(kept.getAttribute('height')).toBe('80');
    expect(kept.getAttribute('style')).toBeUndefined();
    expect(kept.getAttribute('class')).toBeUndefined();
    expect(article.querySelector('img[alt="from a host not allowed"]')).toBeNull();
    // The title cannot close the JSON-LD script element.
    for (const script of parseHtml(html).querySelectorAll('script[type="application/ld+json"]'))
      JSON.parse(script.text);
    expect(html.match(/<\/script>/g)).toHaveLength(parseHtml(html).querySelectorAll('script').length);
    const list = await read('blog.html');
    expect(list).not.toMatch(/onerror|onmouseover/);
    // The post's ids are prefixed, and so are its links to them: none clashes with the page's own.
    expect(article.querySelector('#post-main')!.text).toBe('An id the page uses');
    expect(article.querySelector('a[href="#post-main"]')!.id).toBe('post-back');
    expect(article.querySelector('img[alt="with an id"]')!.id).toBe('post-pic');
    // The post's own <picture> and <source> (one from a tracker) are not kept: the image stage
    // makes each image's picture from its <img>, with sources of the site's own.
    const sources = article.querySelectorAll('source').map((s) => s.getAttribute('srcset')!);
    expect(sources.length).toBeGreaterThan(0);
    for (const srcset of sources) expect(srcset).toMatch(/^\/assets\/img\//);
    expect(article.innerHTML).not.toContain('tracker.example.net');
    expect(article.querySelector('picture picture')).toBeNull();
    expect(article.querySelector('img[alt="in a picture"]')!.getAttribute('src')).toMatch(
      /^\/assets\/img\/[0-9a-f]{16}-120\.jpg$/,
    );
    const ids = parseHtml(html)
      .querySelectorAll('[id]')
      .map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('entity titles display as characters, escaped once', async () => {
    const page = parseHtml(await read('blog/entities.html'));
    expect(page.querySelector('h1')!.text).toBe('Don’t & won’t: “quotes” <b>');
    expect(page.querySelector('title')!.text).toBe('Don’t & won’t: “quotes” <b> | Storefront');
    expect(page.querySelector('h1')!.querySelectorAll('b')).toHaveLength(0);
  });

  it('a non-ASCII slug gets the page WordPress would give it, served by preview', async () => {
    const html = await read('blog/привет-мир.html');
    const canonical = parseHtml(html).querySelector('link[rel=canonical]')!.getAttribute('href')!;
    expect(canonical.toLowerCase()).toBe(`https://www.example.com/blog/${nonAscii.slug}`);
    const list = parseHtml(await read('blog.html'));
    const href = list
      .querySelectorAll('.post-card h2 a')
      .map((a) => a.getAttribute('href')!)
      .find((h) => h.includes('%D0'))!;
    expect(href.toLowerCase()).toBe(`/blog/${nonAscii.slug}`);
    const preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
    try {
      for (const url of [href, `/blog/${nonAscii.slug}`]) {
        const response = await fetch(preview.url + url);
        expect(response.status, url).toBe(200);
        expect(await response.text()).toContain('Привет, мир');
      }
      const missing = await fetch(`${preview.url}/blog/no-such-post`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('PAGE NOT FOUND');
    } finally {
      await preview.stop();
    }
  });

  it('the password-protected post is left out', async () => {
    expect(await read('sitemap.xml')).not.toContain('members-only');
    await expect(read('blog/members-only.html')).rejects.toThrow();
  });

  it('the hostile page runs no script in Chromium', async () => {
    const preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      // Only the preview server is reachable; anything else would hang on the closed network.
      await page.route(
        (url) => !url.href.startsWith(preview.url),
        (route) => route.abort(),
      );
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      for (const url of ['/blog/hostile', '/blog']) {
        await page.goto(preview.url + url, { waitUntil: 'load' });
        await page.mouse.move(200, 300);
        for (const link of await page.locator('article a').all())
          await link.click({ timeout: 1000, noWaitAfter: true }).catch(() => undefined);
        expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      }
      expect(dialogs).toEqual([]);
    } finally {
      await browser?.close();
      await preview.stop();
    }
  });
});

describe('posts that cannot be published', () => {
  const failing = async (posts: FakePost[], ...fragments: string[]) => {
    const server = await new FakeWordPress(posts).start();
    const temp = await tempProject();
    try {
      const result = await runCli(['--root', temp.root, 'build', '--cms', server.apiUrl]);
      expect(result.code).toBe(1);
      for (const fragment of fragments) expect(result.stderr).toContain(fragment);
    } finally {
      await server.stop();
      await temp.cleanup();
    }
  };

  it('two posts with the same slug fail the build', () =>
    failing([post(1, { slug: 'same' }), post(2, { slug: 'same' })], 'SF205', 'both have the slug "same"'));

  it('a slug that is not one safe path segment fails the build', async () => {
    await failing([post(1, { slug: '..%2f..%2fetc' })], 'SF124', 'cannot be a page address', '/wp/v2/posts/1');
    await failing([post(1, { slug: '' })], 'SF124', 'it is empty');
    await failing([post(1, { slug: 'a%0ab' })], 'SF124', 'control character');
    await failing([post(1, { slug: 'abc%e2%80%aegpj.exe' })], 'SF124', 'text-direction');
  });

  it(
    'a post whose title is nothing once its HTML is removed fails the build, by name; ' +
      'with --stale-ok it is left out with a warning',
    async () => {
      const untitled = post(1, { slug: 'untitled', title: '<b> </b><img src=x>' });
      await failing([untitled, post(2, {})], 'SF204', 'post 1 (untitled) has no title', '/wp/v2/posts/1');
      const server = await new FakeWordPress([untitled, post(2, {})]).start();
      const temp = await tempProject();
      try {
        const result = await runCli(['--root', temp.root, 'build', '--cms', server.apiUrl, '--stale-ok']);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toContain('WARNING: SF204');
        expect(result.stderr).toContain('The post is left out (--stale-ok)');
        expect(result.stdout).toContain('1 post fetched');
      } finally {
        await server.stop();
        await temp.cleanup();
      }
    },
  );
});
