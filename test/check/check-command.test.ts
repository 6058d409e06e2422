/**
 * `storefront check` on a small built site with misspelt links and the other defects it must
 * catch, on a copy of it whose other origin is a local server that must hear nothing, and on the
 * real build.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, freePort, repoRoot, runCli } from '../helpers.js';

const fixture = path.join(repoRoot, 'test', 'fixtures', 'check-broken-site');

describe('storefront check', () => {
  it('fails on the fixture and names each page and target, each at its file of the output folder', async () => {
    const result = await runCli(['check', '--out', fixture]);
    expect(result.code).toBe(1);
    const report = result.stderr;
    // Files as the project names them (the tests run from the repository).
    const dir = 'test/fixtures/check-broken-site';
    const at = (file: string, rest: string) => `${dir}/${file} › ${rest}`;
    // The misspelt link without a redirect: the page it is on, and the cause, once.
    expect(report).toContain(
      `SF301  ${at('index.html', '/buy-instagrm-followers')}\n` +
        '  The link to /buy-instagrm-followers on / is broken: no such page.',
    );
    expect(report.match(/The link to \/buy-instagrm-followers /g)).toHaveLength(1);
    // Misspelt links: the hint names the page of the site nearest in spelling, a post too; case
    // and `_` for `-` count as near. Nothing near (above, /gone): the hint as it was.
    const fix = 'Fix the link where it is written, or add a redirect for the old address in content/redirects.yaml.';
    expect(report).toContain(`  The link to /buy-instagrm-followers on / is broken: no such page.\n  hint: ${fix}\n`);
    for (const [link, page] of [
      ['/abuot', '/about'],
      ['/About', '/about'],
      ['/privacy_policy', '/privacy-policy'],
      ['/blgo', '/blog'],
      ['/blog/tiktok-growth-routin', '/blog/tiktok-growth-routine'],
    ] as const) {
      expect(report).toContain(
        `SF301  ${at('index.html', link)}\n` +
          `  The link to ${link} on / is broken: no such page.\n` +
          `  hint: Did you mean ${page}? ${fix}\n`,
      );
    }
    expect(report).toContain(`The link to /gone on / is broken: no such page.\n  hint: ${fix}\n`);
    // Links to parts of pages: a misspelt id on another page, and one missing on the page itself,
    // each once, on the page that holds it, with the ids nearby; an id the page has is fine.
    expect(report).toContain(
      `SF301  ${at('index.html', '/about#delivery-times')}\n` +
        '  The link to /about#delivery-times on / names #delivery-times, which /about does not have.\n' +
        '  hint: Did you mean #delivery-time?',
    );
    expect(report).toContain(
      `SF301  ${at('index.html', '#main')}\n  The link to #main on / names #main, which / does not have.`,
    );
    expect(report.match(/#delivery-times? on/g)).toEqual(['#delivery-times on']);
    // A redirect whose target is not a page, and the link that uses it.
    expect(report).toContain(`SF305  ${at('_redirects', '/gone')}`);
    expect(report).toContain('goes to /nowhere, which answers HTTP 404');
    // A canonical URL that does not answer 200.
    expect(report).toContain(`SF302  ${at('about.html', 'https://shop.example.org/about-us')}`);
    // A sitemap URL that redirects.
    expect(report).toContain(
      `SF303  ${at('sitemap.xml', 'https://shop.example.org/old-about')}\n  The sitemap URL redirects (HTTP 301)`,
    );
    expect(report).not.toContain(`${at('sitemap.xml', 'https://shop.example.org/about')}\n`);
    // A canonical and a sitemap URL on another origin than the site's: problems, never fetched,
    // and not listed with the external links (the fixture has none).
    expect(result.stdout).toBe('');
    // A canonical and a sitemap URL on another origin than the site's: problems, never fetched.
    expect(report).toContain(
      `SF302  ${at('privacy-policy.html', 'https://elsewhere.example/privacy-policy')}\n` +
        "  The canonical URL is on https://elsewhere.example, not on the site's origin https://shop.example.org " +
        "(its sitemap's); check fetches nothing there.\n",
    );
    expect(report).toContain(
      `SF303  ${at('sitemap.xml', 'https://elsewhere.example/about')}\n` +
        "  The sitemap URL is on https://elsewhere.example, not on the site's origin https://shop.example.org " +
        "(its first URL's); check fetches nothing there.\n",
    );
    // Orphans: pages no chain of links from / reaches, whether the sitemap lists them or not,
    // and whatever links they have from other orphans; a noindex page is no orphan.
    const orphans = [...report.matchAll(/SF304 {2}(.+) › (\S+)/g)].map((m) => `${m[1]} ${m[2]}`).sort();
    expect(orphans).toEqual([
      `${dir}/linked-from-orphan.html /linked-from-orphan`,
      `${dir}/sitemap.xml /orphan`,
      `${dir}/unlisted.html /unlisted`,
    ]);
  });

  describe('with the other origin a local server', () => {
    // The fixture, its other origin (https://elsewhere.example) a server of this test, which
    // records every request it hears: without --external, it must hear none. The home page links
    // to it too, a link --external fetches (the fixture has none: --format keeps stdout its own).
    let dir = '';
    let other = '';
    const heard: string[] = [];
    let server: Server | undefined;
    beforeAll(async () => {
      const port = await freePort();
      server = createServer((req, res) => {
        heard.push(`${req.method} ${req.url}`);
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end('<!DOCTYPE html><title>Elsewhere</title>');
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      other = `http://127.0.0.1:${port}`;
      dir = await mkdtemp(path.join(tmpdir(), 'storefront-check-'));
      await cp(fixture, dir, { recursive: true });
      for (const file of await readdir(dir, { recursive: true })) {
        if (!/\.(html|xml)$/.test(file)) continue;
        const text = await readFile(path.join(dir, file), 'utf8');
        await writeFile(path.join(dir, file), text.replaceAll('https://elsewhere.example', other));
      }
      const home = path.join(dir, 'index.html');
      await writeFile(
        home,
        (await readFile(home, 'utf8')).replace('</body>', `<a href="${other}/contact">Elsewhere</a></body>`),
      );
    });
    afterAll(async () => {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('reports its canonical and sitemap URLs, and sends it no request', async () => {
      heard.length = 0;
      const result = await runCli(['check', '--out', dir]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `SF302 {2}\\S*privacy-policy\\.html › ${other}/privacy-policy\\n  The canonical URL is on ${other},`,
        ),
      );
      expect(result.stderr).toMatch(
        new RegExp(`SF303 {2}\\S*sitemap\\.xml › ${other}/about\\n  The sitemap URL is on ${other},`),
      );
      expect(result.stdout).toContain(`External links (not fetched; --external fetches them):\n  ${other}  1 link\n`);
      expect(heard).toEqual([]);
    });

    it('with --external, fetches its links, never the canonical or sitemap URLs there', async () => {
      heard.length = 0;
      const result = await runCli(['check', '--out', dir, '--external']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`› ${other}/privacy-policy\n  The canonical URL is on ${other},`);
      expect(result.stderr).toContain(`› ${other}/about\n  The sitemap URL is on ${other},`);
      // The server answers: the run above would have reached it. Only the link to /contact does.
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.filter((request) => !request.endsWith(' /contact'))).toEqual([]);
    });
  });

  describe('on the real build', () => {
    let project: Awaited<ReturnType<typeof builtProject>>;
    beforeAll(async () => {
      project = await builtProject(['--precompress']);
    });
    afterAll(async () => {
      await project.cleanup();
    });

    it('passes, and lists external links without fetching them', async () => {
      const result = await runCli(['--root', project.root, 'check']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(
          /External links \(not fetched; --external fetches them\):\n/.source +
            /(.|\n)*https:\/\/checkout\.example\.com {2}\d+ links/.source,
        ),
      );
      expect(result.stdout).toMatch(/Checked \d+ pages and \d+ links: no broken links/);
    });

    it('fails when a page links to a misspelt path', async () => {
      const file = path.join(project.root, 'dist', 'about.html');
      const html = await readFile(file, 'utf8');
      await writeFile(file, html.replace('href="/contact"', 'href="/contcat"'));
      // The precompressed copies would still be served with the old link.
      await rm(`${file}.br`);
      await rm(`${file}.gz`);
      const result = await runCli(['--root', project.root, 'check']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SF301  dist/about.html › /contcat');
    });

    it('names where the content writes a link it finds broken: its file, line, column and field', async () => {
      // A page built before its text changed: the content and the page both hold the link now.
      const source = path.join(project.root, 'content', 'pages', 'privacy-policy.md');
      const text = await readFile(source, 'utf8');
      const link = 'See [our old terms](/old-terms).\n\n';
      const at = text.indexOf('## Our legitimate interests');
      await writeFile(source, text.slice(0, at) + link + text.slice(at));
      const line = text.slice(0, at).split('\n').length;
      const file = path.join(project.root, 'dist', 'privacy-policy.html');
      await writeFile(file, (await readFile(file, 'utf8')).replace('<main', '<a href="/old-terms">x</a><main'));
      await rm(`${file}.br`);
      await rm(`${file}.gz`);
      const result = await runCli(['--root', project.root, 'check']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`SF301  content/pages/privacy-policy.md:${line}:21 › (body)`);
      expect(result.stderr).toContain('The link to /old-terms on /privacy-policy is broken: no such page.');
    });
  });
});
