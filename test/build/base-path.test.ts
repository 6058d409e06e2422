/**
 * A site served from a folder of its origin (issue 19): `build --base /shop/` (or basePath,
 * BASE_PATH) puts the folder in every link, asset, canonical, sitemap, feed, redirect and host
 * file; preview serves it under the folder, as GitHub Pages serves a project site, from the
 * artifact GitHub's upload action makes; check passes; real nginx serves the nginx build through
 * the generated include.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, realpath, symlink, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, freePort, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { withBasePath } from '../../src/render/base-path.js';
import { startNginx } from '../support/nginx.js';

const SITE = 'https://www.example.com';
let project: Awaited<ReturnType<typeof tempProject>>;
let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;
let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
const dist = () => path.join(project.root, 'dist');
/** The same site built for nginx, whose include holds the redirects. */
const nginxDist = () => path.join(project.root, 'nginx-dist');

beforeAll(async () => {
  project = await tempProject();
  // A project site on GitHub Pages is the usual home of a site in a folder of its domain.
  const built = await runCli([
    '--root',
    project.root,
    'build',
    '--base',
    '/shop/',
    '--precompress',
    '--target',
    'github-pages',
  ]);
  expect(built.code, built.stderr).toBe(0);
  const forNginx = await runCli([
    '--root',
    project.root,
    'build',
    '--base',
    '/shop/',
    '--precompress',
    '--target',
    'nginx',
    '--out',
    'nginx-dist',
  ]);
  expect(forNginx.code, forNginx.stderr).toBe(0);
});
afterAll(async () => {
  await preview?.stop();
  await nginx?.stop();
  await project?.cleanup();
});

/** Every page of the output folder, by file. */
async function pages(): Promise<[string, string][]> {
  const files = (await readdir(dist(), { recursive: true, encoding: 'utf8' })).filter((f) => f.endsWith('.html'));
  return Promise.all(
    files.map(async (file): Promise<[string, string]> => [file, await readFile(path.join(dist(), file), 'utf8')]),
  );
}

describe('build --base /shop/', () => {
  it('every address in every page is under /shop/, an anchor on the page, or on another site', async () => {
    const all = await pages();
    expect(all.length).toBeGreaterThan(20);
    for (const [file, html] of all) {
      const doc = parseHtml(html);
      const addresses = [
        ...doc.querySelectorAll('[href]').map((e) => e.getAttribute('href')!),
        ...doc.querySelectorAll('[src]').map((e) => e.getAttribute('src')!),
        ...doc.querySelectorAll('[action]').map((e) => e.getAttribute('action')!),
        ...doc.querySelectorAll('[srcset]').flatMap((e) =>
          e
            .getAttribute('srcset')!
            .split(', ')
            .map((c) => c.split(' ')[0]!),
        ),
      ];
      for (const address of addresses)
        expect(address, `${file}: ${address}`).toMatch(
          /^(\/shop\/|#|https?:\/\/(?!www\.example\.com)|mailto:|tel:|https:\/\/www\.example\.com\/shop\/)/,
        );
      const canonical = doc.querySelector('link[rel=canonical]')?.getAttribute('href');
      if (canonical) expect(canonical, file).toMatch(/^https:\/\/www\.example\.com\/shop\//);
    }
    const home = parseHtml(await readFile(path.join(dist(), 'index.html'), 'utf8'));
    expect(home.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(`${SITE}/shop/`);
    expect(home.querySelector('meta[property="og:image"]')?.getAttribute('content')).toMatch(
      new RegExp(`^${SITE}/shop/assets/share/[0-9a-f]{16}\\.png$`),
    );
    const organization = home
      .querySelectorAll('script[type="application/ld+json"]')
      .map((s) => JSON.parse(s.textContent))
      .find((d) => d['@type'] === 'Organization');
    expect(organization['@id']).toBe(`${SITE}/shop/#organization`);
    expect(organization.url).toBe(`${SITE}/shop/`);
  });

  it('the sitemap, robots.txt and the feed name addresses under /shop/', async () => {
    const locs = [...(await readFile(path.join(dist(), 'sitemap.xml'), 'utf8')).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => m[1]!,
    );
    expect(locs.length).toBeGreaterThan(10);
    for (const loc of locs) expect(loc).toMatch(/^https:\/\/www\.example\.com\/shop\//);
    expect(await readFile(path.join(dist(), 'robots.txt'), 'utf8')).toContain(`Sitemap: ${SITE}/shop/sitemap.xml`);
    const feed = await readFile(path.join(dist(), 'blog/feed.xml'), 'utf8');
    for (const [, url] of feed.matchAll(/(?:href|<id>)"?([^"<]+)/g))
      if (url!.startsWith('http')) expect(url).toMatch(/^https:\/\/www\.example\.com\/shop\//);
  });

  it('the host files and the redirect pages name addresses under /shop/', async () => {
    const moved = await readFile(path.join(dist(), 'instagram-followers.html'), 'utf8');
    expect(moved).toContain('url=/shop/buy-instagram-followers');
    const include = await readFile(path.join(nginxDist(), '_nginx.conf'), 'utf8');
    expect(include).toContain(
      'location = "/shop/instagram-followers" {\n    return 301 "/shop/buy-instagram-followers$is_args$args";',
    );
  });

  it(
    "GitHub Pages' artifact, made as actions/upload-pages-artifact makes it, holds every file of the build, " +
      'and preview serves the site from it',
    async () => {
      const artifact = path.join(project.root, 'artifact.tar');
      // The command of actions/upload-pages-artifact (action.yml, Linux).
      execFileSync('tar', [
        '--dereference',
        '--hard-dereference',
        '--directory',
        dist(),
        '-cf',
        artifact,
        '--exclude=.git',
        '--exclude=.github',
        '.',
      ]);
      const unpacked = path.join(project.root, 'pages');
      await mkdir(unpacked);
      execFileSync('tar', ['-xf', artifact, '-C', unpacked]);
      const built = (await readdir(dist(), { recursive: true, encoding: 'utf8' })).sort();
      expect(built.filter((f) => f.endsWith('.html')).length).toBeGreaterThan(20);
      expect((await readdir(unpacked, { recursive: true, encoding: 'utf8' })).sort()).toEqual(built);
      const served = await startPreviewProcess([
        '--root',
        project.root,
        '--out',
        'pages',
        '--port',
        String(await freePort()),
      ]);
      try {
        const sitemap = await readFile(path.join(unpacked, 'sitemap.xml'), 'utf8');
        for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
          const response = await fetch(served.url + new URL(loc!).pathname, { redirect: 'manual' });
          expect(response.status, loc).toBe(200);
        }
      } finally {
        await served.stop();
      }
    },
  );

  it('preview serves it under /shop/ only, with the redirect pages and the 404 page', async () => {
    preview = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
    await expect
      .poll(() => preview!.stdout(), { timeout: 5_000 })
      .toContain(`It was built for the folder /shop/: open ${preview.url}/shop/`);
    const get = (p: string) => fetch(preview!.url + p, { redirect: 'manual' });
    expect((await get('/shop/')).status).toBe(200);
    expect((await get('/shop/about')).status).toBe(200);
    expect((await get('/shop/blog/tiktok-growth-routine')).status).toBe(200);
    const stylesheet = parseHtml(await (await get('/shop/')).text())
      .querySelector('link[rel=stylesheet]')!
      .getAttribute('href')!;
    expect((await get(stylesheet)).status).toBe(200);
    const bare = await get('/shop');
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/shop/']);
    // GitHub Pages has no redirect rules: the old address is a page that moves the visitor on.
    const old = await get('/shop/instagram-followers');
    expect(old.status).toBe(200);
    expect(await old.text()).toContain('<meta http-equiv="refresh" content="0; url=/shop/buy-instagram-followers">');
    const outside = await get('/about');
    expect(outside.status).toBe(404);
    expect(await outside.text()).toContain('PAGE NOT FOUND');
  });

  it('preview sends /shop/index.html, /shop/index and /shop to /shop/ in exactly one 301', async () => {
    const own = await startPreviewProcess(['--root', project.root, '--port', String(await freePort())]);
    try {
      for (const from of ['/shop/index.html', '/shop/index', '/shop']) {
        const first = await fetch(own.url + from, { redirect: 'manual' });
        expect([first.status, first.headers.get('location')], from).toEqual([301, '/shop/']);
        const second = await fetch(own.url + first.headers.get('location')!, { redirect: 'manual' });
        expect(second.status, `${from} → /shop/`).toBe(200);
      }
    } finally {
      await own.stop();
    }
  });

  it('storefront check passes on it', async () => {
    const result = await runCli(['check', '--out', dist()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/no broken links, redirects, canonicals or orphans/);
  });

  it('real nginx serves it under /shop/ through the generated include', async () => {
    const www = path.join(project.root, 'www');
    await mkdir(www);
    await symlink(await realpath(nginxDist()), path.join(www, 'shop'));
    nginx = await startNginx(
      www,
      path.join(project.root, 'nginx'),
      await freePort(),
      path.join(www, 'shop', '_nginx.conf'),
    );
    const get = (p: string) => fetch(nginx!.url + p, { redirect: 'manual' });
    expect((await get('/shop/')).status).toBe(200);
    expect(await (await get('/shop/contact')).text()).toContain('Who you are dealing with');
    const bare = await get('/shop');
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/shop/']);
    const slash = await get('/shop/about/');
    expect([slash.status, slash.headers.get('location')]).toEqual([301, '/shop/about']);
    const old = await get('/shop/instagram-followers');
    expect([old.status, old.headers.get('location')]).toEqual([301, '/shop/buy-instagram-followers']);
    // The home page in one redirect, the query kept; a precompressed copy is no address.
    const home = await get('/shop/index.html?ref=old');
    expect([home.status, home.headers.get('location')]).toEqual([301, '/shop/?ref=old']);
    expect((await get('/shop/index.html.br')).status).toBe(404);
    expect((await get('/shop/nothing-here')).status).toBe(404);
  });
});

describe('withBasePath', () => {
  it('changes the addresses in tags only, never text that shows one', () => {
    const html =
      '<p>Write &lt;a href="/contact"&gt; in HTML.</p><a href="/contact">Contact</a>' +
      '<img src="/a.jpg" srcset="/a-360.jpg 360w, https://x.test/b.jpg 720w">';
    expect(withBasePath(html, '/shop')).toBe(
      '<p>Write &lt;a href="/contact"&gt; in HTML.</p><a href="/shop/contact">Contact</a>' +
        '<img src="/shop/a.jpg" srcset="/shop/a-360.jpg 360w, https://x.test/b.jpg 720w">',
    );
  });
});

describe('basePath', () => {
  it('comes from BASE_PATH too, and a bad one is refused naming it', async () => {
    const other = await tempProject();
    try {
      const built = await runCli(['--root', other.root, 'build'], { BASE_PATH: 'store' });
      expect(built.code, built.stderr).toBe(0);
      expect(await readFile(path.join(other.root, 'dist', 'sitemap.xml'), 'utf8')).toContain(`${SITE}/store/`);
      for (const value of ['/my shop/', '/_site/', '/.hidden']) {
        const bad = await runCli(['--root', other.root, 'build'], { BASE_PATH: value });
        expect(bad.code, value).toBe(1);
        expect(bad.stderr, value).toMatch(/SF140 {2}environment variable BASE_PATH › basePath/);
      }
      // Content links to the site's own address are judged under its folder.
      await editFile(
        other.root,
        'content/blog/tiktok-growth-routine.md',
        /\n---\n/,
        '\n---\n[About](https://www.example.com/store/about) and [old](https://www.example.com/about).\n\n',
      );
      const links = await runCli(['--root', other.root, 'build'], { BASE_PATH: 'store' });
      expect(links.code).toBe(1);
      expect(links.stderr).toContain(
        "The link to https://www.example.com/about is on the site's address but outside its folder /store/",
      );
      expect(links.stderr).not.toContain('https://www.example.com/store/about');
    } finally {
      await other.cleanup();
    }
  });
});
