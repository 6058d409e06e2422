// The build cache: a rebuild keeps what did not change, rewrites what did, and always leaves the
// output folder byte-identical to a cold build (--no-cache into an empty folder).
import { appendFile, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, hashTree, runCli, tempProject } from '../helpers.js';

let root: string;
let cleanup: () => Promise<void>;
let dist: string;

/** Modification time of every file under the output folder, by path. */
async function mtimes(dir: string): Promise<Map<string, bigint>> {
  const times = new Map<string, bigint>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    times.set(path.relative(dir, absolute), (await stat(absolute, { bigint: true })).mtimeNs);
  }
  return times;
}

function changedFiles(before: Map<string, bigint>, after: Map<string, bigint>): string[] {
  return [...after].filter(([file, time]) => before.get(file) !== time).map(([file]) => file).sort();
}

async function build(...extra: string[]) {
  const result = await runCli(['--root', root, 'build', '--out', dist, ...extra]);
  expect(result.stderr).not.toMatch(/problem/i);
  expect(result.code).toBe(0);
  return result;
}

/** The same content built from nothing, without the cache, compared whole with the output folder. */
async function expectSameAsColdBuild(...extra: string[]) {
  const reference = path.join(root, 'cold');
  await rm(reference, { recursive: true, force: true });
  const cold = await runCli(['--root', root, 'build', '--no-cache', '--out', reference, ...extra]);
  expect(cold.code).toBe(0);
  expect(await hashTree(dist)).toBe(await hashTree(reference));
}

beforeAll(async () => {
  ({ root, cleanup } = await tempProject());
  dist = path.join(root, 'dist');
});
afterAll(() => cleanup());

describe('a rebuild with the build cache', () => {
  it('keeps every page when nothing changed, and the output equals a cold build', async () => {
    await build();
    const before = await mtimes(dist);
    await build();
    expect(changedFiles(before, await mtimes(dist))).toEqual([]);
    await expectSameAsColdBuild();
  });

  it('rewrites the page of a post whose body changed, and no other page, without building the rest again', async () => {
    const before = await mtimes(dist);
    await appendFile(path.join(root, 'content/blog/tiktok-growth-routine.md'), '\nA paragraph added by the incremental build test.\n');
    const result = await build('--verbose');
    // The posts-only rebuild (src/posts-rebuild.ts): no route table, no other page looked at.
    expect(result.stderr).toMatch(/^\s+changes\s/m);
    expect(result.stderr).not.toMatch(/^\s+routes\s/m);
    expect(result.stdout).toMatch(/wrote 1 file, .*; \d+ unchanged pages kept as they were/);
    const changed = changedFiles(before, await mtimes(dist));
    expect(changed).toContain('blog/tiktok-growth-routine.html');
    expect(changed.filter((f) => f.endsWith('.html'))).toEqual(['blog/tiktok-growth-routine.html']);
    expect(await readFile(path.join(dist, 'blog/tiktok-growth-routine.html'), 'utf8')).toContain('A paragraph added by the incremental build test.');
    await expectSameAsColdBuild();
  });

  // Each edit: the pages rewritten, and the text the blog list shows afterwards.
  it.each([
    [
      'the post and the list page when a post\'s title changes',
      {
        file: 'content/blog/get-your-instagram-profile-ready.md',
        from: 'title: Get your Instagram profile ready before you buy followers',
        to: 'title: Ready your Instagram profile first',
        pages: ['blog.html', 'blog/get-your-instagram-profile-ready.html'],
        shown: 'Ready your Instagram profile first',
      },
    ],
    [
      'only the blog list when the blog\'s heading in site.yaml changes',
      {
        file: 'content/site.yaml',
        from: 'heading: The growth blog',
        to: 'heading: The growth notebook',
        pages: ['blog.html'],
        shown: 'The growth notebook',
      },
    ],
  ])('rewrites %s', async (_what, { file, from, to, pages, shown }) => {
    const before = await mtimes(dist);
    await editFile(root, file, from, to);
    // What shows on other pages changed: the full build, with its route table.
    expect((await build('--verbose')).stderr).toMatch(/^\s+routes\s/m);
    expect(changedFiles(before, await mtimes(dist)).filter((f) => f.endsWith('.html'))).toEqual(pages);
    expect(await readFile(path.join(dist, 'blog.html'), 'utf8')).toContain(shown);
    await expectSameAsColdBuild();
  });

  it('remakes the sitemap and the feed when a post\'s date changes, and keeps them when only a body changes', async () => {
    const post = 'content/blog/get-your-instagram-profile-ready.md';
    let before = await mtimes(dist);
    await appendFile(path.join(root, post), '\nAnother paragraph, which neither the sitemap nor the feed shows.\n');
    await build();
    let changed = changedFiles(before, await mtimes(dist));
    expect(changed).toContain('blog/get-your-instagram-profile-ready.html');
    expect(changed).not.toContain('sitemap.xml');
    expect(changed).not.toContain('_headers');
    await expectSameAsColdBuild();

    before = await mtimes(dist);
    await editFile(root, post, 'date: 2026-07-08T09:00:00Z', 'date: 2026-07-09T10:30:00Z');
    await build();
    changed = changedFiles(before, await mtimes(dist));
    expect(changed).toEqual(expect.arrayContaining(['sitemap.xml', 'blog/feed.xml', 'blog.html']));
    expect(changed).not.toContain('_headers');
    expect(await readFile(path.join(dist, 'sitemap.xml'), 'utf8')).toContain('<lastmod>2026-07-09T10:30:00.000Z</lastmod>');
    await expectSameAsColdBuild();
  });

  it('rewrites the pages that show a changed price, not the blog', async () => {
    const before = await mtimes(dist);
    await editFile(root, 'content/catalogue.yaml', '{ id: 1001, quantity: 100, price: 1.89,', '{ id: 1001, quantity: 100, price: 1.79,');
    await build();
    const changed = changedFiles(before, await mtimes(dist));
    expect(changed).toContain('buy-instagram-followers.html');
    expect(changed.some((f) => f.startsWith('blog/'))).toBe(false);
    expect(await readFile(path.join(dist, 'buy-instagram-followers.html'), 'utf8')).toContain('£1.79');
    await expectSameAsColdBuild();
  });

  it('removes the page of a deleted post and updates the list', async () => {
    await unlink(path.join(root, 'content/blog/tiktok-growth-routine.md'));
    await build();
    await expect(stat(path.join(dist, 'blog/tiktok-growth-routine.html'))).rejects.toThrow();
    expect(await readFile(path.join(dist, 'blog.html'), 'utf8')).not.toContain('tiktok-growth-routine');
    await expectSameAsColdBuild();
  });

  // A posts-only rebuild lists the folder rather than stamping every file in it (see
  // src/posts-rebuild.ts): a file added, like this one, sends the rebuild the full way.
  it('repairs a page edited by hand and removes a file that the build does not make', async () => {
    await writeFile(path.join(dist, 'about.html'), 'edited by hand');
    await writeFile(path.join(dist, 'stray.txt'), 'not part of the site');
    await build();
    expect(await readFile(path.join(dist, 'about.html'), 'utf8')).toContain('<!DOCTYPE html>');
    await expect(stat(path.join(dist, 'stray.txt'))).rejects.toThrow();
    await expectSameAsColdBuild();
  });

  it('puts back a page deleted by hand when a post body changed', async () => {
    await unlink(path.join(dist, 'about.html'));
    await appendFile(path.join(root, 'content/blog/get-your-instagram-profile-ready.md'), '\nOne more paragraph.\n');
    await build();
    expect(await readFile(path.join(dist, 'about.html'), 'utf8')).toContain('<!DOCTYPE html>');
    await expectSameAsColdBuild();
  });

  it('fails a rebuild whose changed post body links to no page, as a cold build does, and leaves the folder as it was', async () => {
    const post = path.join(root, 'content/blog/get-your-instagram-profile-ready.md');
    const text = await readFile(post, 'utf8');
    const before = await hashTree(dist);
    await appendFile(post, '\nSee [our old guide](/no-such-guide).\n');
    const broken = await runCli(['--root', root, 'build', '--out', dist]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('SF121');
    expect(broken.stderr).toContain('content/blog/get-your-instagram-profile-ready.md');
    expect(broken.stderr).toContain('/no-such-guide');
    expect(await hashTree(dist)).toBe(before);
    await writeFile(post, text);
    await build();
    await expectSameAsColdBuild();
  });

  it('after a --no-cache build into the folder, a rebuild goes the full way, whatever the index says', async () => {
    const post = 'content/blog/get-your-instagram-profile-ready.md';
    const text = await readFile(path.join(root, post), 'utf8');
    await editFile(root, post, 'title: Ready your Instagram profile first', 'title: A title only the --no-cache build saw');
    expect((await runCli(['--root', root, 'build', '--no-cache', '--out', dist])).code).toBe(0);
    // Back to the title of the last cached build, in a file with a new stamp.
    await writeFile(path.join(root, post), text);
    expect((await build('--verbose')).stderr).toMatch(/^\s+routes\s/m);
    expect(await readFile(path.join(dist, 'blog.html'), 'utf8')).not.toContain('A title only the --no-cache build saw');
    await expectSameAsColdBuild();
  });

  it('rebuilds whole when the options change (--precompress on, then off)', async () => {
    await build('--precompress');
    expect((await stat(path.join(dist, 'index.html.br'))).isFile()).toBe(true);
    await expectSameAsColdBuild('--precompress');
    await build();
    await expect(stat(path.join(dist, 'index.html.br'))).rejects.toThrow();
    await expectSameAsColdBuild();
  });

  it('still checks the links of unchanged site files: a page linking to a deleted post fails as a cold build does', async () => {
    const post = 'content/blog/youtube-monetisation-thresholds-explained.md';
    const text = await readFile(path.join(root, post), 'utf8');
    await editFile(root, 'content/pages/home.yaml', '[Read more about us](/about)', '[Read more about us](/about) or [our guide](/blog/youtube-monetisation-thresholds-explained)');
    await build();
    await unlink(path.join(root, post));
    const broken = await runCli(['--root', root, 'build', '--out', dist]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('SF121');
    expect(broken.stderr).toContain('content/pages/home.yaml');
    await writeFile(path.join(root, post), text);
    await build();
    await expectSameAsColdBuild();
  });

  it('leaves the output folder as it was when the content is wrong', async () => {
    const before = await hashTree(dist);
    await editFile(root, 'content/catalogue.yaml', '{ id: 1001, quantity: 100, price: 1.79,', '{ id: 1001, quantity: 100, price: -1,');
    const result = await runCli(['--root', root, 'build', '--out', dist]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('content/catalogue.yaml');
    expect(await hashTree(dist)).toBe(before);
  });

  it('--no-cache neither reads nor writes the cache', async () => {
    const fresh = await tempProject();
    try {
      const result = await runCli(['--root', fresh.root, 'build', '--no-cache', '--out', path.join(fresh.root, 'dist')]);
      expect(result.code).toBe(0);
      await expect(stat(path.join(fresh.root, '.cache', 'build'))).rejects.toThrow();
    } finally {
      await fresh.cleanup();
    }
  });
});
