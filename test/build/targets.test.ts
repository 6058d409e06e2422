/**
 * Host targets (issue 25): each target gets the files its host reads, in the form it accepts,
 * and none it would publish by mistake; the target is detected from the host's build service;
 * the example origin never reaches a host's build unnoticed; `.env` is read.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { TARGETS, type Target } from '../../src/hosts/hosts.js';
import { editFile, hashTree, projectsOfThisFile, repoRoot, runCli } from '../helpers.js';

const project = projectsOfThisFile();
/** No host's build service and no CI, whatever runs the tests; a test sets what it needs. */
const NO_HOST = { CI: '', NETLIFY: '', CF_PAGES: '', GITHUB_ACTIONS: '', DEPLOY_TARGET: '' };
const redirects = parseYaml(await readFile(path.join(repoRoot, 'content', 'redirects.yaml'), 'utf8')) as {
  from: string;
  to: string;
}[];
/** An old address whose redirect page a host without rules needs (`/index` is the home page's own file). */
const OLD = 'buy-instagrm-followers.html';

async function build(root: string, args: string[], env: Record<string, string> = {}) {
  return runCli(['--root', root, 'build', ...args], { ...NO_HOST, ...env });
}

describe('each target writes its host files and no others', () => {
  // Every host in src/hosts/hosts.ts: a new one without its files here fails below.
  const expected: Record<Target, Record<string, boolean>> = {
    netlify: { _redirects: true, _headers: true, '_nginx.conf': false, [OLD]: false },
    cloudflare: { _redirects: true, _headers: true, '_nginx.conf': false, [OLD]: false },
    nginx: { _redirects: false, _headers: false, '_nginx.conf': true, [OLD]: false },
    'github-pages': { _redirects: false, _headers: false, '_nginx.conf': false, [OLD]: true },
    static: { _redirects: false, _headers: false, '_nginx.conf': false, [OLD]: true },
  };
  it('covers every host of the list', () => {
    expect(Object.keys(expected).sort()).toEqual([...TARGETS].sort());
  });
  for (const target of TARGETS) {
    const files = expected[target] ?? {};
    it(target, async () => {
      const { root } = await project();
      const result = await build(root, ['--target', target, '--precompress']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`  target: ${target} (from --target)`);
      // GitHub's terms do not allow Pages for a shop: said, not refused (issue 42, item 4).
      const shopWarning =
        /WARNING: GitHub's terms do not allow GitHub Pages for a site that sells .*\. For the shop, use Netlify, /;
      expect(shopWarning.test(result.stderr), target).toBe(target === 'github-pages');
      if (target === 'github-pages') expect(result.stderr).toContain('Cloudflare Pages or your own nginx');
      // .br and .gz copies only where no host compresses by itself.
      expect(existsSync(path.join(root, 'dist', 'index.html.br')), `${target}: index.html.br`).toBe(
        target === 'nginx' || target === 'static',
      );
      for (const [file, present] of Object.entries(files))
        expect(existsSync(path.join(root, 'dist', file)), `${target}: ${file}`).toBe(present);
      if (target === 'netlify' || target === 'cloudflare') {
        const rules = (await readFile(path.join(root, 'dist', '_redirects'), 'utf8'))
          .split('\n')
          .filter((l) => l && !l.startsWith('#'));
        // Netlify's force flag, which Cloudflare refuses ("Got 301!").
        const status = target === 'netlify' ? '301!' : '301';
        expect(rules).toEqual(redirects.map((r) => `${encodeURI(r.from)} ${encodeURI(r.to)} ${status}`));
      }
    });
  }
});

describe('the target is chosen', () => {
  it(
    "from NETLIFY or CF_PAGES, which the hosts' build services set; DEPLOY_TARGET, config and --target win, " +
      'in that order',
    async () => {
      const { root } = await project();
      const staging = ['--allow-placeholders'];
      expect((await build(root, staging, { NETLIFY: 'true' })).stdout).toContain(
        '  target: netlify (detected: NETLIFY is set)',
      );
      expect((await build(root, staging, { CF_PAGES: '1' })).stdout).toContain(
        '  target: cloudflare (detected: CF_PAGES is set)',
      );
      expect((await build(root, [])).stdout).toContain('  target: static (the default; --target names a host)');
      expect((await build(root, staging, { NETLIFY: 'true', DEPLOY_TARGET: 'nginx' })).stdout).toContain(
        '  target: nginx (from DEPLOY_TARGET)',
      );
      await writeFile(
        path.join(root, 'content', 'config.yaml'),
        `${await readFile(path.join(root, 'content', 'config.yaml'), 'utf8')}\ntarget: github-pages\n`,
      );
      expect((await build(root, [])).stdout).toContain('  target: github-pages (from content/config.yaml)');
      expect((await build(root, ['--target', 'cloudflare'], { DEPLOY_TARGET: 'nginx' })).stdout).toContain(
        '  target: cloudflare (from --target)',
      );
    },
  );

  it('an unknown one is refused, naming the known ones', async () => {
    const { root } = await project();
    const env = await build(root, [], { DEPLOY_TARGET: 'vercel' });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/SF140 {2}environment variable DEPLOY_TARGET › target/);
    expect(env.stderr).toContain('must be one of netlify, cloudflare, github-pages, nginx, static');
    const flag = await build(root, ['--target', 'vercel']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('SF170');
  });

  it('a base path is refused for the hosts that serve a site at the root of its domain', async () => {
    const { root } = await project();
    for (const target of ['netlify', 'cloudflare']) {
      const result = await build(root, ['--target', target, '--base', '/shop/']);
      expect(result.code, target).toBe(1);
      expect(result.stderr).toMatch(/SF140 {2}--base › basePath/);
      expect(result.stderr).toContain('serves a site at the root of its domain');
    }
  });
});

describe('the site address is never silently wrong', () => {
  it(
    "on a host's build service, the example origin is refused with where that host keeps SITE_URL, " +
      'and the folder is untouched',
    async () => {
      const { root } = await project();
      expect((await build(root, [])).code).toBe(0);
      const before = await hashTree(path.join(root, 'dist'));
      const cases: [Record<string, string>, string[], string, string][] = [
        [{ NETLIFY: 'true' }, [], 'Netlify (NETLIFY is set)', 'Site configuration › Environment variables'],
        [
          { CF_PAGES: '1' },
          [],
          'Cloudflare Pages (CF_PAGES is set)',
          'Workers & Pages › your project › Settings › Variables and Secrets',
        ],
        [
          { GITHUB_ACTIONS: 'true', CI: 'true' },
          ['--target', 'github-pages'],
          'GitHub Actions (GITHUB_ACTIONS is set)',
          'Settings › Secrets and variables › Actions › Variables',
        ],
      ];
      for (const [env, args, service, settings] of cases) {
        const result = await build(root, args, env);
        expect(result.code, service).toBe(1);
        expect(result.stderr).toContain(`SF142  environment variable SITE_URL`);
        expect(result.stderr).toContain(
          `This build runs on ${service} for https://www.example.com, an example address`,
        );
        expect(result.stderr).toContain(settings);
        expect(result.stderr).toContain('--allow-placeholders');
        expect(await hashTree(path.join(root, 'dist'))).toBe(before);
      }
      // A staging build says so.
      expect((await build(root, ['--allow-placeholders'], { NETLIFY: 'true' })).code).toBe(0);
      // A real address passes this check (and meets the example values' own, SF142 per value).
      const real = await build(root, [], { NETLIFY: 'true', SITE_URL: 'https://www.growth-shop.co.uk' });
      expect(real.stderr).not.toContain('environment variable SITE_URL');
    },
  );

  it('in any other CI, the example origin is a warning naming it', async () => {
    const { root } = await project();
    const result = await build(root, [], { CI: 'true' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('WARNING: building in CI for https://www.example.com, an example address');
    for (const notCi of [{ CI: '' }, { CI: 'false' }])
      expect((await build(root, [], notCi)).stderr).not.toContain('WARNING: building');
    // A staging build on a host's build service is let through, and says so.
    const staging = await build(root, ['--allow-placeholders'], { NETLIFY: 'true' });
    expect(staging.code, staging.stderr).toBe(0);
    expect(staging.stderr).toContain('WARNING: building on Netlify for https://www.example.com, an example address');
  });

  it('.env at the project root is read, and the real environment wins over it', async () => {
    const { root } = await project();
    await writeFile(
      path.join(root, '.env'),
      '# settings kept out of git\nSITE_URL=https://shop.example.org\nBRAND_NAME="Growth Co"\n',
    );
    expect((await build(root, [])).code).toBe(0);
    const home = await readFile(path.join(root, 'dist', 'index.html'), 'utf8');
    expect(home).toContain('<link rel="canonical" href="https://shop.example.org/"');
    expect(home).toContain('Growth Co');
    expect((await build(root, [], { SITE_URL: 'https://other.example.net' })).code).toBe(0);
    expect(await readFile(path.join(root, 'dist', 'index.html'), 'utf8')).toContain(
      '<link rel="canonical" href="https://other.example.net/"',
    );
    await editFile(root, '.env', 'SITE_URL=https://shop.example.org', 'SITE_URL=not a url');
    const bad = await build(root, []);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SF140 {2}environment variable SITE_URL › siteUrl/);
  });
});
