/**
 * Hosts' limits (issue 34, item 5): a site its host would refuse is refused by the build, before
 * the output folder is swapped, naming the count, the limit, the host's page and what to do; all
 * limits passed are reported together. Cloudflare Pages' limits through the CLI (its file limit
 * set low with the paid plan's setting); GitHub Pages' 1 GB and Netlify's files per folder with
 * file lists, as a real site that large would take minutes. Cloudflare's rules of `_redirects`
 * and `_headers` (issue 42, item 4): too many redirects through the CLI, the rest on file maps.
 */
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostLimits, TARGETS } from '../../src/config/deploy-target.js';
import { overHostLimits } from '../../src/output/host-limits.js';
import { folderState, projectsOfThisFile, runCli } from '../helpers.js';

const project = projectsOfThisFile();
/** No host's build service and no CI, whatever runs the tests. */
const NO_HOST = { CI: '', NETLIFY: '', CF_PAGES: '', GITHUB_ACTIONS: '', DEPLOY_TARGET: '', CF_PAGES_MAX_FILES: '' };
const CF_FILES_DOCS = 'https://developers.cloudflare.com/pages/platform/limits/#files';
const MiB = 1024 * 1024;

const build = (root: string, env: Record<string, string> = {}, target = 'cloudflare') =>
  runCli(['--root', root, 'build', '--target', target], { ...NO_HOST, ...env });

/** `n` short posts in the project's content/blog/: each is one more page. */
async function addPosts(root: string, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    const front =
      `---\ntitle: "Generated post ${i}"\nslug: generated-post-${i}\ndate: 2026-01-01T09:00:00Z\n` +
      `excerpt: A generated post that makes the site one page larger, to pass a host's file limit.\n---\n`;
    await writeFile(
      path.join(root, 'content', 'blog', `generated-post-${i}.md`),
      `${front}A short body for post ${i}.\n`,
    );
  }
}

const filesIn = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length;
const leftovers = (root: string) => readdirSync(root).filter((name) => name.startsWith('.dist.'));

describe("Cloudflare Pages: files per site (the paid plan's setting, low here) and 25 MiB a file", () => {
  it(
    'a site over cfPagesMaxFiles is refused with the count, the limit, its page and the setting, ' +
      'and dist/ stays byte for byte',
    async () => {
      const { root } = await project();
      await appendFile(path.join(root, 'content', 'config.yaml'), 'cfPagesMaxFiles: 60\n');
      const first = await build(root);
      expect(first.code, first.stderr).toBe(0);
      const files = filesIn(path.join(root, 'dist'));
      expect(files).toBeLessThanOrEqual(60);
      const before = await folderState(path.join(root, 'dist'));

      await addPosts(root, 30);
      const over = await build(root);
      expect(over.code).toBe(1);
      expect(over.stderr).toContain('SF161');
      const counted = new RegExp(
        /The site would be (\d+) files; Cloudflare Pages takes at most 60 files per site, /.source +
          /as cfPagesMaxFiles \(CF_PAGES_MAX_FILES\) sets \(([^)]+)\)\./.source,
      ).exec(over.stderr);
      expect(counted, over.stderr).not.toBeNull();
      expect(counted![2]).toBe(CF_FILES_DOCS);
      expect(over.stderr).toContain(
        'hint: On a paid plan (100,000 files), set cfPagesMaxFiles in content/config.yaml, ' +
          'or CF_PAGES_MAX_FILES, to 100000',
      );
      expect(over.stderr).toContain('The output folder was not changed');
      expect(await folderState(path.join(root, 'dist'))).toBe(before);
      expect(leftovers(root).filter((name) => !name.startsWith('.dist.files-'))).toEqual([]);

      // The environment wins over the file, as for every setting; the paid plan's limit lets it
      // through, and the count was of the files written (30 posts and the blog list's new pages).
      const paid = await build(root, { CF_PAGES_MAX_FILES: '100000' });
      expect(paid.code, paid.stderr).toBe(0);
      expect(filesIn(path.join(root, 'dist'))).toBe(Number(counted![1]));
      expect(Number(counted![1])).toBeGreaterThanOrEqual(files + 30);
      // More than any plan takes is a bad setting.
      const tooMany = await build(root, { CF_PAGES_MAX_FILES: '100001' });
      expect(tooMany.stderr).toMatch(/SF140 {2}environment variable CF_PAGES_MAX_FILES › cfPagesMaxFiles/);
    },
  );

  it(
    'a file of 25 MiB passes; one byte more is refused before anything is written, ' +
      'for every host (issue 35, item 6)',
    async () => {
      const { root } = await project();
      // Not a post's image (those are made smaller): content/images/ is published as it is, so its
      // files are held to Cloudflare's limit whatever the host, before they are read. Only images are
      // published there (by their first bytes): a PNG's signature, then zeros.
      const big = path.join(root, 'content', 'images', 'poster.png');
      const bytes = Buffer.alloc(25 * MiB);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
      await writeFile(big, bytes);
      const at = await build(root);
      expect(at.code, at.stderr).toBe(0);
      expect(existsSync(path.join(root, 'dist', 'images', 'poster.png'))).toBe(true);
      const before = await folderState(path.join(root, 'dist'));

      await appendFile(big, Buffer.alloc(1));
      for (const target of ['cloudflare', 'nginx']) {
        const over = await build(root, {}, target);
        expect(over.code).toBe(1);
        expect(over.stderr).toContain('SF206  content/images/poster.png');
        expect(over.stderr).toContain(
          'The file is 26,214,401 bytes, more than the 25 MB a file in content/images/ may be: it was not read.',
        );
        expect(await folderState(path.join(root, 'dist'))).toBe(before);
      }
    },
  );

  it('the per-file limit still holds for what the build writes itself', () => {
    const problems = overHostLimits(new Map([['images/poster.png', 25 * MiB + 1]]), hostLimits('cloudflare'));
    expect(problems.map((p) => p.message)).toEqual([
      'This file would be 26,214,401 bytes; Cloudflare Pages takes at most 25 MiB (26,214,400 bytes) a file ' +
        '(https://developers.cloudflare.com/pages/platform/limits/#file-size).',
    ]);
  });
});

describe("Cloudflare Pages' _redirects and _headers: rules past a limit are ignored, so the build refuses them", () => {
  const CF_REDIRECTS = 'https://developers.cloudflare.com/pages/configuration/redirects/#per-file';
  /** content/redirects.yaml of `n` old addresses, each sent to the home page. */
  const redirectsYaml = (n: number) =>
    Array.from({ length: n }, (_, i) => `- { from: /old-address-${i + 1}, to: / }\n`).join('');

  it(
    '2,000 redirects in content/redirects.yaml pass; 2,001 are refused with the count, the limit, ' +
      'its page and a hint, and dist/ stays byte for byte',
    async () => {
      const { root } = await project();
      const redirects = path.join(root, 'content', 'redirects.yaml');
      await writeFile(redirects, redirectsYaml(2_000));
      const at = await build(root);
      expect(at.code, at.stderr).toBe(0);
      const written = (await readFile(path.join(root, 'dist', '_redirects'), 'utf8'))
        .split('\n')
        .filter((line) => line && !line.startsWith('#'));
      expect(written).toHaveLength(2_000);
      const before = await folderState(path.join(root, 'dist'));

      await writeFile(redirects, redirectsYaml(2_001));
      const over = await build(root);
      expect(over.code).toBe(1);
      expect(over.stderr).toContain('SF161  content/redirects.yaml');
      expect(over.stderr).toContain(
        `_redirects would hold 2,001 static redirects; Cloudflare Pages takes at most 2,000 (${CF_REDIRECTS}) ` +
          'and ignores the rest without an error.',
      );
      expect(over.stderr).toContain(
        'hint: Keep fewer redirects in content/redirects.yaml, or deploy to Netlify (--target netlify), which sets ' +
          'no such limit.',
      );
      expect(over.stderr).toContain('The output folder was not changed');
      expect(await folderState(path.join(root, 'dist'))).toBe(before);
      expect(leftovers(root).filter((name) => !name.startsWith('.dist.files-'))).toEqual([]);
    },
  );

  // The rest on file maps: dynamic redirects and long lines come from content written by hand,
  // and _headers from the build alone (two rules), which no content can push past a limit.
  const limits = hostLimits('cloudflare');
  const rules = (file: string, lines: string[]) =>
    overHostLimits(new Map(), limits, new Map([[file, lines.join('\n')]]));
  const statics = (n: number) => Array.from({ length: n }, (_, i) => `/old-${i} / 301`);
  const dynamics = (n: number) => Array.from({ length: n }, (_, i) => `/old-${i}/* /new-${i}/:splat 301`);

  it('counts dynamic redirects as Cloudflare does: a * or :name, and every redirect after the first of them', () => {
    expect(rules('_redirects', ['# comment', '', ...statics(2_000), ...dynamics(99), '/p/:id /q/:id 301'])).toEqual([]);
    const problems = rules('_redirects', [...dynamics(1), ...statics(100)]);
    expect(problems.map((p) => p.message)).toEqual([
      '_redirects would hold 101 dynamic redirects (an old address with * or :name, and every redirect after ' +
        `the first of them); Cloudflare Pages takes at most 100 (${CF_REDIRECTS}) and ignores the rest without an ` +
        'error.',
    ]);
    expect(problems[0]!.code).toBe('SF161');
    expect(problems[0]!.hint).toBe(
      'Keep fewer redirects in content/redirects.yaml, with those holding * or :name after all the others, or ' +
        'deploy to Netlify (--target netlify), which sets no such limit.',
    );
    // Netlify sets none of these limits.
    expect(
      overHostLimits(new Map(), hostLimits('netlify'), new Map([['_redirects', statics(3_000).join('\n')]])),
    ).toEqual([]);
  });

  it('a redirect of 1,001 characters is refused; one of 1,000 passes', () => {
    const rule = (chars: number) => `/${'a'.repeat(chars - 7)} / 301`;
    expect(rule(1_000)).toHaveLength(1_000);
    expect(rules('_redirects', [rule(1_000)])).toEqual([]);
    const problems = rules('_redirects', ['# comment', rule(1_001), rule(1_002)]);
    expect(problems.map((p) => p.message)).toEqual([
      '_redirects would hold 2 redirects longer than 1,000 characters (the first, line 2, is 1,001: ' +
        `/${'a'.repeat(59)}…); Cloudflare Pages takes at most 1,000 characters a redirect (${CF_REDIRECTS}) and ` +
        'ignores longer ones without an error.',
    ]);
    expect(problems[0]!.hint).toBe('Shorten those addresses in content/redirects.yaml.');
  });

  it('_headers: 101 rules, or a line of 2,001 characters, are refused; 100 rules and 2,000 pass', () => {
    const CF_HEADERS = 'https://developers.cloudflare.com/pages/configuration/headers/';
    const headers = (n: number) =>
      Array.from({ length: n }, (_, i) => [`/path-${i}/*`, '  X-Robots-Tag: noindex']).flat();
    const line = (chars: number) => `  X-Long: ${'v'.repeat(chars - 8)}`; // 2 spaces aside, as Cloudflare trims
    expect(rules('_headers', [...headers(100), line(2_000)])).toEqual([]);
    expect(rules('_headers', [...headers(101), line(2_001)]).map((p) => p.message)).toEqual([
      `_headers would hold 101 rules; Cloudflare Pages takes at most 100 (${CF_HEADERS}) and ignores the rest ` +
        'without an error.',
      '_headers would hold 1 line longer than 2,000 characters (the first, line 203, is 2,001: ' +
        `X-Long: ${'v'.repeat(52)}…); Cloudflare Pages takes at most 2,000 characters a line (${CF_HEADERS}) and ` +
        'ignores longer ones without an error.',
    ]);
  });
});

describe('GitHub Pages: a published site of at most 1 GB (2^30 bytes, as actions/deploy-pages counts)', () => {
  const limits = hostLimits('github-pages');
  const GiB = 1024 ** 3;

  it('counts every file it would receive, .br and .gz copies too', () => {
    const site = new Map([
      ['index.html', 40_000],
      ['images/video.mp4', GiB - 50_000],
      ['assets/img/0123456789abcdef-720.avif', 9_000],
    ]);
    expect(overHostLimits(site, limits)).toEqual([]);
    site.set('index.html.br', 1_001);
    const problems = overHostLimits(site, limits);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.code).toBe('SF161');
    expect(problems[0]!.message).toBe(
      'The site would be 1,073,741,825 bytes; GitHub Pages takes at most 1 GiB (1,073,741,824 bytes) per site ' +
        '(https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits).',
    );
    // The largest part first, with what to do about it.
    expect(problems[0]!.hint).toMatch(
      new RegExp(
        /^Publish fewer or smaller files: 1,073,691,824 bytes are in content\/images\/ .*; /.source +
          /9,000 bytes are post images .*IMAGE_WIDTHS.*; /.source +
          /1,001 bytes are \.br and \.gz copies \(build without --precompress/.source,
      ),
    );
  });
});

describe("Netlify publishes no limit on a deploy's files or bytes, only 54,000 files in one folder", () => {
  const limits = hostLimits('netlify');
  const posts = (n: number) => Array.from({ length: n }, (_, i): [string, number] => [`blog/post-${i}.html`, 5_000]);

  it('a folder of 54,001 files is refused; 54,000, or many more in several folders, pass', () => {
    expect(overHostLimits(new Map(posts(54_000)), limits)).toEqual([]);
    expect(
      overHostLimits(
        new Map([
          ...posts(54_000),
          ...Array.from({ length: 60_000 }, (_, i): [string, number] => [`guides/${i % 3}/${i}.html`, 3 * MiB]),
        ]),
        limits,
      ),
    ).toEqual([]);
    const problems = overHostLimits(new Map(posts(54_001)), limits);
    expect(problems.map((p) => p.message)).toEqual([
      'The folder blog/ would hold 54,001 files; Netlify takes at most 54,000 files in one folder, ' +
        'and fails a deploy with more (https://docs.netlify.com/site-deploys/overview/#files-per-directory-limit).',
    ]);
    expect(problems[0]!.hint).toBe('Every post is a file of blog/: leave older posts out.');
  });
});

describe('nginx and a plain bucket have no limit the build can know', () => {
  it('nothing is refused', () => {
    const huge = new Map<string, number>([
      ['images/archive.zip', 5 * 1024 ** 3],
      ...Array.from({ length: 120_000 }, (_, i): [string, number] => [`blog/${i}.html`, 1]),
    ]);
    for (const target of TARGETS) {
      const limited = overHostLimits(huge, hostLimits(target)).length > 0;
      expect(limited, target).toBe(target !== 'nginx' && target !== 'static');
    }
  });
});
