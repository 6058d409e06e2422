/**
 * The built site on real static hosts: Debian's nginx with the include of the `nginx` build, and
 * the preview server with the `_redirects` and `_headers` of the `cloudflare` build, checked the
 * same way.
 */
import { request } from 'node:http';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { freePort, rawGet, repoRoot, runCli, startPreviewProcess, tempProject } from '../helpers.js';
import { startNginx } from '../support/nginx.js';

const SITE = 'https://www.example.com';
let project: Awaited<ReturnType<typeof tempProject>>;
let nginxDir: string;
const hosts: Record<string, { url: string; stop: () => Promise<void> }> = {};

/** A raw GET (see rawGet), so headers are what the host sent. */
function get(url: string, headers: Record<string, string> = {}) {
  const { origin, pathname, search } = new URL(url);
  return rawGet(origin, pathname + search, headers);
}

beforeAll(async () => {
  project = await tempProject();
  for (const name of ['nginx', 'preview']) {
    const target = name === 'nginx' ? 'nginx' : 'cloudflare';
    const built = await runCli(['--root', project.root, 'build', '--precompress', '--target', target, '--out', name], {
      SITE_URL: SITE,
    });
    expect(built.code, built.stderr).toBe(0);
  }
  nginxDir = await mkdtemp(path.join(tmpdir(), 'storefront-nginx-'));
  hosts.nginx = await startNginx(path.join(project.root, 'nginx'), nginxDir, await freePort());
  hosts.preview = await startPreviewProcess([
    '--root',
    project.root,
    '--out',
    'preview',
    '--port',
    String(await freePort()),
  ]);
});

afterAll(async () => {
  for (const host of Object.values(hosts)) await host.stop();
  await rm(nginxDir, { recursive: true, force: true });
  await project?.cleanup();
});

const security = [
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'x-frame-options',
];

for (const name of ['nginx', 'preview']) {
  describe(`served by ${name}`, () => {
    const base = () => hosts[name]!.url;
    /** The folder this host serves. */
    const dist = name;

    it('every sitemap URL answers 200 with its page', async () => {
      const sitemap = await readFile(path.join(project.root, dist, 'sitemap.xml'), 'utf8');
      const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThanOrEqual(17);
      for (const url of urls) {
        const response = await get(url.replace(SITE, base()));
        expect(response.status, url).toBe(200);
        expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
        expect(response.body.toString()).toContain(`<link rel="canonical" href="${url}"/>`);
      }
    });

    it('/index and each old or misspelt path answer 301 to the right page', async () => {
      const cases: [string, string][] = [
        ['/index', '/'],
        ['/buy-instagrm-followers', '/buy-instagram-followers'],
        ['/buy-yotube-views', '/buy-youtube-views'],
        ['/buy-youtube-suscribers', '/buy-youtube-subscribers'],
        ['/buy-youtube-watch-time', '/buy-youtube-watch-hours'],
        ['/about/', '/about'],
        ['/about.html', '/about'],
      ];
      for (const [from, to] of cases) {
        const response = await get(base() + from);
        expect(response.status, from).toBe(301);
        expect(response.headers.location, from).toBe(to);
      }
    });

    it(
      'no path, however it encodes / \\ and ., ' + 'is redirected to another host or answered with a host file',
      async () => {
        const origin = new URL(base()).origin;
        const evil = 'evil.example';
        const paths: string[] = [];
        // Every way a browser or a host may read a slash, a backslash or a dot, before and after a host name.
        for (const lead of [
          '/',
          '\\',
          '%2F',
          '%2f',
          '%5C',
          '%5c',
          '%09',
          '%0A',
          '%0D',
          '%20',
          '.',
          '%2E',
          '..',
          '%2E%2E',
          '/%2E%2E',
        ]) {
          for (const mid of ['/', '\\', '%2F', '%5C', '']) {
            for (const tail of ['/', '.html', '', '//', '/.']) paths.push(`/${lead}${mid}${evil}${tail}`);
          }
        }
        paths.push(
          '/%5C%5Cevil.example%5C',
          '/\\/evil.example/',
          '/about/..%2F..%2F_headers',
          '/%5Fheaders',
          '/%5Fnginx.conf',
          '/_nginx.conf',
        );
        for (const p of paths) {
          const response = await new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
            const { hostname, port } = new URL(base());
            request({ hostname, port, path: p }, (res) => {
              let body = '';
              res.on('data', (c: Buffer) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
            })
              .on('error', reject)
              .end();
          });
          if (response.location !== undefined) {
            // Resolved as a browser resolves it: backslashes as slashes, tabs and line breaks dropped.
            expect(new URL(response.location, `${origin}/a/b`).origin, `${p} → ${response.location}`).toBe(origin);
          }
          expect(response.body, p).not.toContain('add_header');
          expect(response.body, p).not.toContain('Content-Security-Policy');
        }
        expect(paths.length).toBeGreaterThan(300);
      },
    );

    it('an unknown path answers 404 with the 404 page', async () => {
      const response = await get(`${base()}/no-such-page`);
      expect(response.status).toBe(404);
      expect(response.body.toString()).toContain('PAGE NOT FOUND');
      expect((await get(`${base()}/_redirects`)).status).toBe(404);
    });

    it('every answer carries the security headers: redirects, clean URLs, 404s and host files included', async () => {
      const answers: [string, number][] = [
        ['/buy-instagrm-followers', 301],
        ['/about/', 301],
        ['/about.html', 301],
        ['/no-such-page', 404],
        ['/_redirects', 404],
        ...(name === 'nginx' ? ([['/404', 404]] as [string, number][]) : []),
      ];
      for (const [p, status] of answers) {
        const response = await get(base() + p);
        expect(response.status, p).toBe(status);
        for (const header of [...security, 'strict-transport-security'])
          expect(response.headers[header], `${p} ${header}`).toBeTruthy();
      }
    });

    it('a hidden file put into the folder by hand is not served', async () => {
      await writeFile(path.join(project.root, dist, '.env'), 'SECRET=1');
      await writeFile(path.join(project.root, dist, 'images', '.env'), 'SECRET=1');
      for (const p of ['/.env', '/images/.env', '/%2Eenv', '/images/%2eenv']) {
        const response = await get(base() + p);
        expect(response.status, p).toBe(404);
        expect(response.body.toString(), p).not.toContain('SECRET');
      }
    });

    it(
      'hashed assets are cached for a year; pages are revalidated; ' + 'every response has the security headers',
      async () => {
        const assets = await readdir(path.join(project.root, dist, 'assets'));
        for (const asset of assets.filter((f) => /\.(css|js)$/.test(f))) {
          const response = await get(`${base()}/assets/${asset}`);
          expect(response.status).toBe(200);
          expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
          for (const header of security) expect(response.headers[header], `${asset} ${header}`).toBeTruthy();
        }
        for (const page of ['/', '/about', '/blog/tiktok-growth-routine']) {
          const response = await get(base() + page);
          expect(response.headers['cache-control'], page).toBe('public, max-age=0, must-revalidate');
          for (const header of security) expect(response.headers[header], `${page} ${header}`).toBeTruthy();
          const csp = String(response.headers['content-security-policy']);
          expect(csp).toContain("script-src 'self'");
          expect(csp).not.toContain('unsafe-inline');
          expect(csp).toContain("frame-ancestors 'none'");
          expect(response.headers['x-content-type-options']).toBe('nosniff');
        }
      },
    );

    // Only nginx's build has .br and .gz copies: Cloudflare compresses by itself (preview's own is tested in
    // test/hostile/servers.test.ts).
    if (name === 'nginx') {
      it('a client that accepts brotli or gzip gets the precompressed file', async () => {
        const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
        const plain = await readFile(path.join(project.root, dist, 'buy-instagram-followers.html'));
        const br = await get(`${base()}/buy-instagram-followers`, { 'accept-encoding': 'br' });
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.body.equals(await readFile(path.join(project.root, dist, 'buy-instagram-followers.html.br')))).toBe(
          true,
        );
        expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
        const gz = await get(`${base()}/buy-instagram-followers`, { 'accept-encoding': 'gzip' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.body).equals(plain)).toBe(true);
        const none = await get(`${base()}/buy-instagram-followers`);
        expect(none.headers['content-encoding']).toBeUndefined();
        expect(none.body.equals(plain)).toBe(true);
      });

      it('every file with .br and .gz copies answers with Vary: Accept-Encoding, compressed or not', async () => {
        const files = (await readdir(path.join(project.root, dist), { recursive: true }))
          .filter((f) => f.endsWith('.br'))
          .map((f) => f.slice(0, -3));
        expect(files.length).toBeGreaterThanOrEqual(25);
        let answers = 0;
        for (const file of files) {
          // The address a visitor uses: clean for pages, the file's own name for the rest.
          const address = `/${file === 'index.html' ? '' : file.endsWith('.html') ? file.slice(0, -5) : file}`;
          if (file === '404.html') continue;
          for (const encoding of ['br', 'gzip', 'br, gzip', 'identity', undefined]) {
            const response = await get(base() + address, encoding === undefined ? {} : { 'accept-encoding': encoding });
            expect(response.status, `${address} ${encoding}`).toBe(200);
            expect(response.headers.vary, `${address} ${encoding}`).toBe('Accept-Encoding');
            expect(response.headers['content-encoding'], `${address} ${encoding}`).toBe(
              encoding === 'br' || encoding === 'br, gzip' ? 'br' : encoding === 'gzip' ? 'gzip' : undefined,
            );
            answers += 1;
          }
        }
        expect(answers).toBeGreaterThanOrEqual(120);
      });

      it(
        'a .br or .gz copy asked for by name answers 404, however the name is written; ' +
          "a .gz of the site's own is served",
        async () => {
          const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
          const copies = (await readdir(path.join(project.root, dist), { recursive: true })).filter((f) =>
            /\.(br|gz)$/.test(f),
          );
          expect(copies.length).toBeGreaterThanOrEqual(50);
          // As written, with the dot percent-encoded, with the extension's letters percent-encoded.
          const addresses = copies.flatMap((f) => [
            `/${f}`,
            `/${f.replace(/\.(br|gz)$/, '%2E$1')}`,
            `/${f.replace(/\.br$/, '.%62%72').replace(/\.gz$/, '.%67%7A')}`,
          ]);
          for (const address of addresses) {
            for (const accept of [{}, { 'accept-encoding': 'br, gzip' }, { 'accept-encoding': 'gzip' }] as Record<
              string,
              string
            >[]) {
              const response = await get(base() + address, accept);
              expect(response.status, address).toBe(404);
              // The 404 page itself comes compressed to a client that takes it.
              const encoding = response.headers['content-encoding'];
              const body =
                encoding === 'br'
                  ? brotliDecompressSync(response.body)
                  : encoding === 'gzip'
                    ? gunzipSync(response.body)
                    : response.body;
              expect(body.toString(), address).toContain('PAGE NOT FOUND');
              expect(String(response.headers['content-type']), address).toMatch(/^text\/html/);
            }
          }
          // A file ending in .gz with no file of the shorter name beside it is no copy.
          await writeFile(path.join(project.root, dist, 'price-list.tar.gz'), 'not a copy');
          const own = await get(`${base()}/price-list.tar.gz`);
          expect(own.status).toBe(200);
          expect(own.body.toString()).toBe('not a copy');
        },
      );

      it('/index.html goes to / in one redirect; every redirect keeps the query', async () => {
        for (const [from, to] of [
          ['/index.html', '/'],
          ['/%69ndex.html', '/'],
          ['/index.html?utm_source=mail&x=1', '/?utm_source=mail&x=1'],
          ['/index?ref=old', '/?ref=old'],
          ['/buy-instagrm-followers?ref=old', '/buy-instagram-followers?ref=old'],
          ['/about/?ref=old', '/about?ref=old'],
          ['/about.html?ref=old', '/about?ref=old'],
        ] as const) {
          const response = await get(base() + from);
          expect(response.status, from).toBe(301);
          expect(response.headers.location, from).toBe(to);
          const next = await get(base() + response.headers.location);
          expect(next.status, from).toBe(200);
        }
      });
    }
  });
}

describe('the host pages (docs/hosts/) and a first build on a host', () => {
  const settings = {
    SITE_URL: 'https://www.my-shop.co.uk',
    BRAND_NAME: 'My Shop',
    CHECKOUT_URL: 'https://pay.my-shop.co.uk',
    SUPPORT_EMAIL: 'help@my-shop.co.uk',
    MESSAGING_NUMBER: '',
  };

  it(
    'with every setting but the example trader, a build on Netlify stops with six SF142 in content/trader.yaml ' +
      'and writes nothing; --allow-placeholders builds',
    async () => {
      const refused = await runCli(['--root', project.root, 'build', '--out', 'first'], {
        ...settings,
        NETLIFY: 'true',
      });
      expect(refused.code).toBe(1);
      const problems = [...refused.stderr.matchAll(/SF1\d\d {2}(\S+) › (\S+)/g)].map((m) => `${m[1]} ${m[2]}`);
      expect(problems.sort()).toEqual(
        ['address.postcode', 'address.street[1]', 'address.town', 'company.number', 'legalName', 'phone'].map(
          (field) => `content/trader.yaml ${field}`,
        ),
      );
      expect(existsSync(path.join(project.root, 'first'))).toBe(false);
      const trial = await runCli(['--root', project.root, 'build', '--out', 'first', '--allow-placeholders'], {
        ...settings,
        NETLIFY: 'true',
      });
      expect(trial.code, trial.stderr).toBe(0);
      expect(existsSync(path.join(project.root, 'first', 'index.html'))).toBe(true);
    },
  );

  it(
    'each page says what content/trader.yaml must hold and how to make a trial build; ' +
      'Netlify and Cloudflare install with --omit=dev',
    async () => {
      for (const host of ['netlify', 'cloudflare', 'github-pages', 'nginx', 'static']) {
        const text = (await readFile(path.join(repoRoot, 'docs', 'hosts', `${host}.md`), 'utf8')).replace(/\s+/g, ' ');
        expect(text, host).toContain(
          "the trader's own legal name, address, company number and phone " +
            'in `content/trader.yaml` (examples: six SF142',
        );
        expect(text, host).toContain('--allow-placeholders');
        if (host === 'netlify' || host === 'cloudflare') {
          expect(text, host).toContain('npm ci --omit=dev && npm run build');
          expect(text, host).not.toMatch(/npm ci &&|--save-dev/);
        }
      }
    },
  );
});
