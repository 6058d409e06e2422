/**
 * `build --target cloudflare` served by Cloudflare's own local Pages server (`wrangler pages
 * dev`, the workerd runtime): the `_redirects`, `_headers` and 404.html the build writes, read by
 * the parser Cloudflare uses, and the clean-URL behaviour of Pages around them.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, rawGet, repoRoot, runCli, tempProject, type RawAnswer } from '../helpers.js';
import { startWrangler, type WranglerServer } from '../support/wrangler.js';

const SITE = 'https://www.example.com';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** What the build is meant to redirect: the site's own list, not the file under test. */
const redirects = parse(readFileSync(path.join(repoRoot, 'content', 'redirects.yaml'), 'utf8')) as {
  from: string;
  to: string;
}[];

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
let server: WranglerServer | undefined;
const dist = () => path.join(project!.root, 'dist');

/** A raw GET of the path exactly as written (see rawGet). */
const get = (p: string) => rawGet(server!.url, p);

beforeAll(async () => {
  project = await tempProject();
  const built = await runCli(['--root', project.root, 'build', '--target', 'cloudflare'], { SITE_URL: SITE });
  expect(built.code, built.stderr).toBe(0);
  server = await startWrangler(dist(), await freePort());
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await project?.cleanup();
});

describe('build --target cloudflare served by wrangler pages dev', () => {
  it('writes _redirects (301, no force flag), _headers and 404.html, and nothing for other hosts', async () => {
    const lines = (await readFile(path.join(dist(), '_redirects'), 'utf8'))
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines).toEqual(redirects.map((r) => `${r.from} ${r.to} 301`));
    expect((await readdir(dist())).filter((f) => ['_headers', '404.html', '_nginx.conf'].includes(f)).sort()).toEqual([
      '404.html',
      '_headers',
    ]);
    const html = (await readdir(dist(), { recursive: true })).filter((f) => f.endsWith('.html'));
    for (const file of html)
      expect(await readFile(path.join(dist(), file), 'utf8'), file).not.toContain('http-equiv="refresh"');
  });

  it('wrangler read every rule: all redirects valid, no invalid redirect or header rule', () => {
    const output = server!.stdout() + server!.stderr();
    expect(output).toContain(`Parsed ${redirects.length} valid redirect rules.`);
    expect(output).toMatch(/Parsed [1-9]\d* valid header rules\./);
    expect(output).not.toMatch(/invalid (redirect|header) rule/);
  });

  it('every redirect of content/redirects.yaml answers 301 with its relative Location, query kept', async () => {
    expect(redirects.length).toBeGreaterThanOrEqual(11);
    for (const { from, to } of redirects) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      // Cloudflare sends the target as written in _redirects: a path, not an absolute URL.
      expect(response.headers.location, from).toBe(to);
    }
    const withQuery = await get(`${redirects[1]!.from}?ref=old`);
    expect(withQuery.status).toBe(301);
    expect(withQuery.headers.location).toBe(`${redirects[1]!.to}?ref=old`);
  });

  it('pages carry the security headers and revalidate; hashed assets are immutable', async () => {
    const checkSecurity = (response: RawAnswer, where: string) => {
      const csp = String(response.headers['content-security-policy']);
      expect(csp, where).toContain("script-src 'self'");
      expect(csp, where).toContain("frame-ancestors 'none'");
      expect(csp, where).not.toContain('unsafe-inline');
      expect(response.headers['strict-transport-security'], where).toBe('max-age=31536000');
      expect(response.headers['x-content-type-options'], where).toBe('nosniff');
      expect(response.headers['x-frame-options'], where).toBe('DENY');
      expect(response.headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
      expect(response.headers['permissions-policy'], where).toBeTruthy();
    };
    for (const page of ['/', '/about', '/buy-instagram-followers', '/blog', '/blog/tiktok-growth-routine']) {
      const response = await get(page);
      expect(response.status, page).toBe(200);
      expect(response.headers['cache-control'], page).toBe(REVALIDATE);
      checkSecurity(response, page);
    }
    const assets = (await readdir(path.join(dist(), 'assets'))).filter((f) => /\.(css|js)$/.test(f));
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await get(`/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers['cache-control'], asset).toBe(IMMUTABLE);
      checkSecurity(response, asset);
    }
  });

  it('an unknown path answers 404 with the content of 404.html', async () => {
    const page = await readFile(path.join(dist(), '404.html'));
    for (const p of ['/no-such-page', '/blog/no-such-post', '/_nginx.conf']) {
      const response = await get(p);
      expect(response.status, p).toBe(404);
      expect(String(response.headers['content-type']), p).toMatch(/^text\/html/);
      expect(response.body.equals(page), p).toBe(true);
      expect(response.headers['x-frame-options'], p).toBe('DENY');
    }
  });

  it('every sitemap URL answers 200 with its page', async () => {
    const sitemap = await readFile(path.join(dist(), 'sitemap.xml'), 'utf8');
    const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(17);
    for (const url of urls) {
      const response = await get(url.slice(SITE.length) || '/');
      expect(response.status, url).toBe(200);
      expect(String(response.headers['content-type']), url).toMatch(/^text\/html/);
      expect(response.body.toString(), url).toContain(`<link rel="canonical" href="${url}"/>`);
    }
  });

  it(
    'clean URLs: /x.html and /x/ answer 308 to /x (Pages "Serving Pages": route matching), ' + '/index.html to /',
    async () => {
      const cases: [string, string][] = [
        ['/about.html', '/about'],
        ['/about/', '/about'],
        ['/index.html', '/'],
        ['/blog.html', '/blog'],
        ['/blog/', '/blog'],
        ['/blog/tiktok-growth-routine/', '/blog/tiktok-growth-routine'],
        ['/blog/tiktok-growth-routine.html', '/blog/tiktok-growth-routine'],
        ['/404.html', '/404'],
      ];
      for (const [from, to] of cases) {
        const response = await get(from);
        expect(response.status, from).toBe(308);
        expect(response.headers.location, from).toBe(to);
      }
      // A rule of _redirects matches its path exactly: the old path with a trailing slash has no
      // file to be made clean to, so it is not redirected but answered with the 404 page.
      const slashed = await get(`${redirects[2]!.from}/`);
      expect([slashed.status, slashed.headers.location]).toEqual([404, undefined]);
      expect(slashed.body.toString()).toContain('PAGE NOT FOUND');
    },
  );

  it('_redirects and _headers are not served as files', async () => {
    const rules = [
      await readFile(path.join(dist(), '_redirects'), 'utf8'),
      await readFile(path.join(dist(), '_headers'), 'utf8'),
    ];
    for (const p of ['/_redirects', '/_headers', '/%5Fredirects', '/%5fheaders']) {
      const response = await get(p);
      // Cloudflare's docs (Pages › Redirects): the file "will not itself be served as a static
      // asset". wrangler 4.86.0's local asset server leaves them out too, but then looks for
      // `<name>/index.html` under the file and answers 502 "Could not serve static asset: ...
      // ENOTDIR". Either way, not the rules.
      expect(response.status, p).toBe(502);
      expect(response.body.toString(), p).toContain('Could not serve static asset');
      for (const text of rules) expect(response.body.toString(), p).not.toContain(text.split('\n')[1]!.trim());
    }
  });
});

describe('301! (the force flag of the netlify build) on Cloudflare', () => {
  it('wrangler refuses the rule as invalid and answers 404 where it would redirect, ' +
    'as the docs say in one word', async () => {
    const copy = await mkdtemp(path.join(tmpdir(), 'storefront-force-'));
    let forced: WranglerServer | undefined;
    try {
      await cp(dist(), copy, { recursive: true });
      await writeFile(
        path.join(copy, '_redirects'),
        '/buy-instagrm-followers /buy-instagram-followers 301!\n/buy-yotube-views /buy-youtube-views 301\n',
      );
      forced = await startWrangler(copy, await freePort());
      const output = forced.stdout() + forced.stderr();
      expect(output).toContain('Parsed 1 valid redirect rule.');
      expect(output).toMatch(/Found 1 invalid redirect rule[\s\S]*Got 301!/);
      expect((await rawGet(forced.url, '/buy-instagrm-followers')).status).toBe(404);
      expect((await rawGet(forced.url, '/buy-yotube-views')).status).toBe(301);
    } finally {
      await forced?.stop();
      await rm(copy, { recursive: true, force: true });
    }
    for (const doc of ['docs/deploying.md', 'docs/hosts/cloudflare.md']) {
      const text = await readFile(path.join(repoRoot, doc), 'utf8');
      expect(text.replace(/\s+/g, ' '), doc).toContain('Cloudflare refuses `301!`');
    }
  }, 60_000);
});
