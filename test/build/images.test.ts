/**
 * The image stage (issue 19): a post's images made into AVIF, WebP and their own format in
 * several widths, shown with <picture>, srcset, sizes and their intrinsic size; a raster share
 * image; broken, oversized and missing images refused by name. Through the real CLI, the real
 * preview server and Chromium: a phone loads the small file, a desktop a larger one.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, freePort, runCli, startPreviewProcess, projectsOfThisFile } from '../helpers.js';
import { launchChromium } from '../support/browser.js';
import { FakeWordPress, makePosts, mediaImage } from '../support/fake-wordpress.js';

const project = projectsOfThisFile();

const page = async (root: string, file: string): Promise<HTMLElement> =>
  parseHtml(await readFile(path.join(root, 'dist', file), 'utf8'));

/** The TikTok post with a 1600 x 1000 photo as its image and another in its body. */
async function withPhoto(root: string): Promise<void> {
  await writeFile(path.join(root, 'content/images/photo.jpg'), await mediaImage(7, 1600, 1000));
  await editFile(
    root,
    'content/blog/tiktok-growth-routine.md',
    /image:\n(\s+.*\n){4}/,
    'image:\n  src: /images/photo.jpg\n  alt: A studio desk\n  width: 1600\n  height: 1000\n',
  );
  await editFile(
    root,
    'content/blog/tiktok-growth-routine.md',
    /\n---\n/,
    '\n---\n![A planner on the desk](/images/photo.jpg)\n\n',
  );
}

describe('a local photo', () => {
  let root: string;
  let browser: Browser | undefined;
  let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;
  beforeAll(async () => {
    ({ root } = await project());
    await withPhoto(root);
    const built = await runCli(['--root', root, 'build', '--target', 'cloudflare']);
    expect(built.code, built.stderr).toBe(0);
  });
  afterAll(async () => {
    await browser?.close();
    await preview?.stop();
  });

  it(
    'is made into AVIF, WebP and JPEG at 360 to 1440 px, hashed under /assets/img, ' + 'shown with its intrinsic size',
    async () => {
      const post = await page(root, 'blog/tiktok-growth-routine.html');
      const img = post.querySelector('img.post-image')!;
      const featured = img.parentNode!;
      expect(featured.tagName).toBe('PICTURE');
      const sources = featured.querySelectorAll('source');
      expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
      for (const srcset of [...sources.map((s) => s.getAttribute('srcset')!), img.getAttribute('srcset')!]) {
        expect(srcset.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual([
          '360w',
          '720w',
          '1080w',
          '1440w',
        ]);
      }
      expect(img.getAttribute('src')).toMatch(/^\/assets\/img\/[0-9a-f]{16}-1440\.jpg$/);
      expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1440', '900']);
      expect(img.getAttribute('sizes')).toBe('(min-width: 48rem) 45rem, calc(100vw - 2.5rem)');
      // The first image a visitor sees is fetched first; the one in the body when scrolled to.
      expect(img.getAttribute('fetchpriority') ?? img.getAttribute('fetchPriority')).toBe('high');
      expect(img.getAttribute('loading')).toBe('eager');
      const inBody = post.querySelector('.prose img')!;
      expect(inBody.getAttribute('alt')).toBe('A planner on the desk');
      expect(inBody.getAttribute('loading')).toBe('lazy');
      expect(inBody.getAttribute('decoding')).toBe('async');
      expect(inBody.parentNode!.tagName).toBe('PICTURE');
      // Every file named exists, and is what its name says.
      const avif = sources[0]!.getAttribute('srcset')!.split(', ')[0]!.split(' ')[0]!;
      const made = await sharp(await readFile(path.join(root, 'dist', avif))).metadata();
      expect([made.format, made.width, made.height]).toEqual(['heif', 360, 225]);
      expect(await readFile(path.join(root, 'dist', '_headers'), 'utf8')).toMatch(
        /\/assets\/\*\n\s+Cache-Control: public, max-age=31536000, immutable/,
      );
    },
  );

  it(
    'has a 1200 x 630 JPEG share image, the SVG posts too: ' +
      'the picture of the structured data and of link previews',
    async () => {
      for (const file of ['blog/tiktok-growth-routine.html', 'blog/get-your-instagram-profile-ready.html']) {
        const post = await page(root, file);
        const posting = post
          .querySelectorAll('script[type="application/ld+json"]')
          .map((s) => JSON.parse(s.textContent))
          .find((d) => d['@type'] === 'BlogPosting');
        const url: string = posting.image;
        expect(url, file).toMatch(/^https:\/\/www\.example\.com\/assets\/img\/[0-9a-f]{16}-share\.jpg$/);
        const meta = await sharp(await readFile(path.join(root, 'dist', new URL(url).pathname))).metadata();
        expect([meta.format, meta.width, meta.height], file).toEqual(['jpeg', 1200, 630]);
        // Link previews show it too (test/build/share-cards.test.ts).
        expect(post.querySelector('meta[property="og:image"]')?.getAttribute('content'), file).toBe(url);
      }
    },
  );

  it('allows images from the site only in the Content-Security-Policy', async () => {
    expect(await readFile(path.join(root, 'dist', '_headers'), 'utf8')).toContain("img-src 'self' data:;");
  });

  it('in Chromium, a 375 px phone loads the 360 px AVIF and a 1280 px desktop the 720 px one', async () => {
    preview = await startPreviewProcess(['--root', root, '--port', String(await freePort())]);
    browser = await launchChromium();
    for (const [width, expected] of [
      [375, '-360.avif'],
      [1280, '-720.avif'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
      const tab = await context.newPage();
      const loaded: string[] = [];
      tab.on('response', (response) => {
        if (response.url().includes('/assets/img/')) loaded.push(response.url());
      });
      await tab.goto(`${preview.url}/blog/tiktok-growth-routine`, { waitUntil: 'load' });
      const current = await tab.locator('img.post-image').evaluate((img: HTMLImageElement) => img.currentSrc);
      expect(current, `${width} px`).toMatch(new RegExp(`${expected}$`));
      // Only that file of the featured image is fetched, not the others of its srcset.
      expect(
        loaded.filter((url) => url.includes(current.split('/').pop()!.split('-')[0]!)),
        `${width} px`,
      ).toEqual([current]);
      await context.close();
    }
  });
});

describe('images that cannot be shown', () => {
  it(
    'a file that is not an image, and one of more than 40 megapixels, ' + 'are refused naming the post and the image',
    async () => {
      const { root } = await project();
      await withPhoto(root);
      // A JPEG's first bytes (content/images/ publishes only files whose bytes are their type), then none of a picture.
      await writeFile(
        path.join(root, 'content/images/photo.jpg'),
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not a picture at all')]),
      );
      await writeFile(
        path.join(root, 'content/images/huge.png'),
        await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#336699' } })
          .png()
          .toBuffer(),
      );
      await editFile(
        root,
        'content/blog/youtube-monetisation-thresholds-explained.md',
        /\n---\n/,
        '\n---\n![A huge scan](/images/huge.png)\n\n',
      );
      const result = await runCli(['--root', root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          /SF206 {2}content\/blog\/tiktok-growth-routine\.md › \/images\/photo\.jpg\n\s+/.source +
            /The image \/images\/photo\.jpg of this post cannot be shown: it cannot be read as an image/.source,
        ),
      );
      expect(result.stderr).toMatch(
        new RegExp(
          /SF206 {2}content\/blog\/youtube-monetisation-thresholds-explained\.md › \/images\/huge\.png\n/.source +
            /.*exceeds pixel limit/.source,
        ),
      );
      expect(result.stderr).toContain('at most 40 megapixels');
      expect(existsSync(path.join(root, 'dist'))).toBe(false);
    },
  );

  it(
    'a post of more than 40 images, and a blog of more than 2,000, ' + 'are refused by name before any image is read',
    async () => {
      const { root } = await project();
      const images = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => `![Image ${from + i}](/images/many-${from + i}.png)`).join('\n\n');
      // With its own featured image, 41.
      await editFile(root, 'content/blog/tiktok-growth-routine.md', /\n---\n/, `\n---\n${images(0, 40)}\n\n`);
      const post = await runCli(['--root', root, 'build']);
      expect(post.code).toBe(1);
      expect(post.stderr).toMatch(
        new RegExp(
          /SF206 {2}content\/blog\/tiktok-growth-routine\.md\n/.source +
            /\s+This post shows 41 different images; a post may show at most 40\./.source,
        ),
      );
      // Read none: the missing files would each be a problem of their own.
      expect(post.stderr).not.toContain('many-0.png');
      await editFile(root, 'content/blog/tiktok-growth-routine.md', /!\[Image 39\]\(\/images\/many-39\.png\)/, '');
      for (let i = 0; i < 50; i++) {
        await writeFile(
          path.join(root, 'content/blog', `gallery-${i}.md`),
          `---\ntitle: Gallery ${i}\ndate: 2024-01-01\nexcerpt: Pictures.\n---\n${images(100 + i * 40, 40)}\n`,
        );
      }
      const build = await runCli(['--root', root, 'build']);
      expect(build.code).toBe(1);
      expect(build.stderr).toMatch(/The posts show 20[4-9]\d different images; a build makes at most 2000\./);
      expect(build.stderr).not.toContain('a post may show at most');
      expect(existsSync(path.join(root, 'dist'))).toBe(false);
    },
  );

  it('an image address may not leave content/images/, and a name with spaces or accents is found', async () => {
    const { root } = await project();
    await writeFile(path.join(root, 'content/images/my photo é.jpg'), await mediaImage(3, 400, 300));
    await writeFile(path.join(root, 'secret.jpg'), await mediaImage(4, 400, 300));
    await editFile(
      root,
      'content/blog/tiktok-growth-routine.md',
      /\n---\n/,
      '\n---\n![Fine](</images/my photo é.jpg>)\n\n![Leak](/images/../secret.jpg)\n\n',
    );
    await editFile(
      root,
      'content/blog/youtube-monetisation-thresholds-explained.md',
      /src: .*/,
      'src: /images/../../secret.jpg',
    );
    // A post's own image is checked with the content; its body's images by the image stage, after.
    const first = await runCli(['--root', root, 'build']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      new RegExp(
        /SF141 {2}content\/blog\/youtube-monetisation-thresholds-explained\.md:\d+ › image\.src\n/.source +
          /.*not a file in content\/images\//.source,
      ),
    );
    await editFile(
      root,
      'content/blog/youtube-monetisation-thresholds-explained.md',
      'src: /images/../../secret.jpg',
      'src: /images/youtube-thresholds.svg',
    );
    const second = await runCli(['--root', root, 'build']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        /SF206 {2}content\/blog\/tiktok-growth-routine\.md › \/images\/\.\.\/secret\.jpg\n/.source +
          /.*not a file in content\/images\//.source,
      ),
    );
    expect(second.stderr).not.toContain('my%20photo');
    expect(second.stderr).toContain('Found a problem');
  });

  it(
    "a local post's image from a host the build takes no images from is refused, " +
      'not left for the browser to block',
    async () => {
      const { root } = await project();
      await editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        /\n---\n/,
        '\n---\n![A chart](https://images.example.net/chart.png)\n\n',
      );
      const result = await runCli(['--root', root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'SF206  content/blog/tiktok-growth-routine.md › https://images.example.net/chart.png',
      );
      expect(result.stderr).toContain('not a host the build takes images from');
      expect(result.stderr).toContain('imageHosts');
    },
  );
});

describe('WordPress images', () => {
  let wp: FakeWordPress;
  beforeAll(async () => {
    const posts = makePosts(4);
    // Post 4: a featured image WordPress no longer has.
    posts[3] = { ...posts[3]!, featuredMedia: undefined, featured_image_src: 'MISSING' };
    wp = await new FakeWordPress(posts).start();
    posts[3]!.featured_image_src = `${wp.origin}/media/gone.jpg`;
    wp.mediaScale = 1;
  });
  afterAll(async () => {
    await wp?.stop();
  });

  it('are downloaded once, served by the site, and a missing one is refused naming the post and the URL', async () => {
    const { root } = await project();
    const broken = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--cms-retries', '0']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`SF206  ${wp.apiUrl}/wp/v2/posts/4 › ${wp.origin}/media/gone.jpg`);
    expect(broken.stderr).toContain('the server answered HTTP 404');

    wp.posts.pop();
    // A bot check answering in place of an image is not kept: the next build downloads the image.
    const { root: fresh } = await project();
    wp.mediaAsPage = 1;
    const checked = await runCli(['--root', fresh, 'build', '--cms', wp.apiUrl]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('the server answered with text/html; charset=UTF-8, not an image');
    expect((await runCli(['--root', fresh, 'build', '--cms', wp.apiUrl])).code).toBe(0);
    const built = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(built.code, built.stderr).toBe(0);
    const card = (await page(root, 'blog.html')).querySelector('.post-card img')!;
    expect(card.getAttribute('src')).toMatch(/^\/assets\/img\/[0-9a-f]{16}-1200\.jpg$/);
    expect([card.getAttribute('width'), card.getAttribute('height')]).toEqual(['1200', '800']);
    const requestsBefore = wp.requests.length;

    // A second build asks whether each image changed (If-None-Match) and downloads nothing.
    const again = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(again.code, again.stderr).toBe(0);
    const revalidations = wp.requests.slice(requestsBefore).filter((r) => r.url.startsWith('/media/'));
    expect(revalidations.length).toBeGreaterThan(0);
    expect(revalidations.map((r) => r.status)).toEqual(revalidations.map(() => 304));

    // A firewall refusing the build's address (403): the copy stands in, with a warning.
    wp.mediaStatus = 403;
    const refused = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--cms-retries', '0']);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toMatch(
      new RegExp(
        /WARNING: the image \S+\/media\/\d+\.jpg could not be checked for changes /.source +
          /\(the server answered HTTP 403\); the copy downloaded earlier is used\./.source,
      ),
    );
    expect((await page(root, 'blog.html')).querySelector('.post-card img')!.getAttribute('src')).toBe(
      card.getAttribute('src'),
    );
    // WordPress answering that the image is gone (404): the copy is not used, the build stops.
    wp.mediaStatus = 404;
    const gone = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--cms-retries', '0']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/SF206 .*\/media\/\d+\.jpg/);
    expect(gone.stderr).toContain('the server answered HTTP 404');
    wp.mediaStatus = undefined;

    // With WordPress gone, --stale-ok and --offline build from what was downloaded, asking nothing more.
    await wp.stop();
    const stale = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--stale-ok', '--cms-retries', '0']);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).not.toContain('could not be checked for changes');
    expect((await page(root, 'blog.html')).querySelector('.post-card img')!.getAttribute('src')).toBe(
      card.getAttribute('src'),
    );
    const offline = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--offline']);
    expect(offline.code, offline.stderr).toBe(0);
    expect((await page(root, 'blog.html')).querySelector('.post-card img')!.getAttribute('src')).toBe(
      card.getAttribute('src'),
    );
    // A file of the made images deleted by hand: it is made again, not a failure.
    const made = path.join(root, '.cache', 'images');
    const entry = (await readdir(made, { withFileTypes: true })).find((e) => e.isDirectory())!.name;
    await rm(path.join(made, entry, (await readdir(path.join(made, entry)))[0]!));
    const remade = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--offline']);
    expect(remade.code, remade.stderr).toBe(0);
  });
});

describe('WordPress images between builds', () => {
  let wp: FakeWordPress;
  beforeAll(async () => {
    // Posts 2 and 4 have a featured image of their own, small enough to make quickly, served
    // with Last-Modified only (no ETag), so that the build asks with If-Modified-Since.
    wp = await new FakeWordPress(makePosts(4)).start();
    wp.sameMedia = false;
    wp.mediaScale = 0.25;
    wp.mediaEtags = false;
  });
  afterAll(async () => {
    await wp?.stop();
  });

  it(
    'replaced at the same address, is downloaded again; ' + 'what no build used for 30 days leaves the caches',
    async () => {
      const { root } = await project();
      const build = async () => {
        const built = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
        expect(built.code, built.stderr).toBe(0);
      };
      const cardImages = async () =>
        (await page(root, 'blog.html')).querySelectorAll('.post-card img').map((img) => img.getAttribute('src')!);
      const made = path.join(root, '.cache', 'images');
      const downloads = path.join(root, '.cache', 'cms', 'images');
      /** Every entry of both caches as last used 31 days ago. */
      const monthOld = async () => {
        const then = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
        for (const dir of [made, downloads])
          for (const name of await readdir(dir)) await utimes(path.join(dir, name), then, then);
      };
      await build();
      const before = await cardImages();
      expect(before).toHaveLength(2);
      const entriesBefore = await readdir(made);
      expect(entriesBefore).toHaveLength(4); // two pictures: a folder and a description each
      expect(await readdir(downloads)).toHaveLength(4); // two downloads, each with what the server said of it

      // Unchanged: asked with If-Modified-Since, answered 304.
      const asked = wp.requests.length;
      await build();
      expect(
        wp.requests
          .slice(asked)
          .filter((r) => r.url.startsWith('/media/'))
          .map((r) => r.status),
      ).toEqual([304, 304]);

      // A plugin replaces the media files in place: new bytes at the same addresses.
      wp.mediaVersion += 1;
      await build();
      const after = await cardImages();
      expect(after.filter((src) => before.includes(src))).toEqual([]);
      for (const src of after) expect(existsSync(path.join(root, 'dist', src.slice(1))), src).toBe(true);
      // The old pictures' files stay a while (dev, drafts and other builds may still want them)...
      expect(await readdir(made)).toHaveLength(8);
      // ...and leave once no build has used them for 30 days; what this build uses stays.
      await monthOld();
      await build();
      const entriesAfter = await readdir(made);
      expect(entriesAfter).toHaveLength(4);
      expect(entriesAfter.filter((name) => entriesBefore.includes(name))).toEqual([]);
      expect(await readdir(downloads)).toHaveLength(4);

      // A post taken down: a month on, its picture has left both caches, the other's stays.
      const newest = wp.posts.reduce((a, b) => (a.id > b.id ? a : b));
      wp.posts = wp.posts.filter((post) => post !== newest);
      await build();
      expect(await cardImages()).toHaveLength(1);
      expect(await readdir(downloads)).toHaveLength(4);
      await monthOld();
      await build();
      expect(await readdir(downloads)).toHaveLength(2);
      expect(await readdir(made)).toHaveLength(2);
    },
  );
});
