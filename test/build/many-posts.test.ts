/**
 * A blog large enough that part of it is parsed, and its pages rendered, in a worker thread:
 * every post still becomes a page, in date order, the output is byte for byte what one thread
 * makes, and a problem found by the worker is reported like any other.
 */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, hashTree, runCli, tempProject } from '../helpers.js';

const COUNT = 2100;
let project: Awaited<ReturnType<typeof tempProject>>;
const postsDir = () => path.join(project.root, 'many-posts');

beforeAll(async () => {
  project = await tempProject();
  await mkdir(postsDir());
  for (let i = 1; i <= COUNT; i++) {
    const date = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    await writeFile(
      path.join(postsDir(), `post-${String(i).padStart(5, '0')}.md`),
      `---\ntitle: "Post ${i}"\ndate: ${date}\nslug: post-${i}\nexcerpt: "Excerpt ${i}."\n---\nBody of post ${i} with **bold** text and a [link](/blog/post-1).\n`,
    );
  }
});

afterAll(async () => {
  await project?.cleanup();
});

describe(`a blog of ${COUNT} posts`, () => {
  it('builds every post, the list newest first', async () => {
    const result = await runCli(['--root', project.root, 'build', '--posts', 'many-posts']);
    expect(result.code, result.stderr).toBe(0);
    const files = (await readdir(path.join(project.root, 'dist', 'blog'))).filter((f) => /^post-\d+\.html$/.test(f));
    expect(files).toHaveLength(COUNT);
    const list = await readFile(path.join(project.root, 'dist', 'blog.html'), 'utf8');
    expect(list.indexOf('/blog/post-2100"')).toBeLessThan(list.indexOf('/blog/post-2099"'));
    const last = await readFile(path.join(project.root, 'dist', 'blog', 'post-2100.html'), 'utf8');
    expect(last).toContain('<strong>bold</strong>');
  });

  it('writes the same bytes on two threads as on one, with and without the cache', async () => {
    const one = await runCli(['--root', project.root, 'build', '--no-cache', '--posts', 'many-posts', '--out', 'one-thread'], { STOREFRONT_THREADS: '1' });
    expect(one.code, one.stderr).toBe(0);
    const two = await runCli(['--root', project.root, 'build', '--no-cache', '--posts', 'many-posts', '--out', 'two-threads', '--precompress']);
    expect(two.code, two.stderr).toBe(0);
    const twoCached = await runCli(['--root', project.root, 'build', '--posts', 'many-posts', '--out', 'two-threads-cached']);
    expect(twoCached.code, twoCached.stderr).toBe(0);
    const oneTree = await hashTree(path.join(project.root, 'one-thread'));
    expect(await hashTree(path.join(project.root, 'two-threads-cached'))).toBe(oneTree);
    // With --precompress the worker writes .br and .gz too; without them the tree is the same.
    const twoFiles = await readdir(path.join(project.root, 'two-threads', 'blog'));
    expect(twoFiles.filter((f) => /^post-\d+\.html\.br$/.test(f))).toHaveLength(COUNT);
    for (const file of (await readdir(path.join(project.root, 'two-threads'), { recursive: true })).filter((f) => /\.(br|gz)$/.test(f))) {
      await rm(path.join(project.root, 'two-threads', file));
    }
    expect(await hashTree(path.join(project.root, 'two-threads'))).toBe(oneTree);
  });

  it('after a change to site.yaml renders every post page again, from bodies read on two threads, as a cold build would', async () => {
    const out = ['--posts', 'many-posts', '--out', 'rebuilt'];
    expect((await runCli(['--root', project.root, 'build', ...out])).code).toBe(0);
    await editFile(project.root, 'content/site.yaml', 'Pick a package, tell us', 'Edited for the rebuild test. Pick a package, tell us');
    const rebuilt = await runCli(['--root', project.root, 'build', ...out]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(await readFile(path.join(project.root, 'rebuilt', 'blog', 'post-7.html'), 'utf8')).toContain('Edited for the rebuild test.');
    const cold = await runCli(['--root', project.root, 'build', '--no-cache', '--posts', 'many-posts', '--out', 'cold'], { STOREFRONT_THREADS: '1' });
    expect(cold.code, cold.stderr).toBe(0);
    expect(await hashTree(path.join(project.root, 'rebuilt'))).toBe(await hashTree(path.join(project.root, 'cold')));
  });

  it('ignores a folder named like a post, and reports an unreadable post file once, as the system error it is', async () => {
    await mkdir(path.join(postsDir(), 'notes.md'));
    const withFolder = await runCli(['--root', project.root, 'build', '--no-cache', '--posts', 'many-posts', '--out', 'with-folder']);
    expect(withFolder.code, withFolder.stderr).toBe(0);
    await rm(path.join(postsDir(), 'notes.md'), { recursive: true });
    // A link to nowhere: whichever thread takes it, the build stops with SF901 and nothing else.
    await symlink(path.join(project.root, 'nowhere.md'), path.join(postsDir(), '00000-broken.md'));
    const broken = await runCli(['--root', project.root, 'build', '--no-cache', '--posts', 'many-posts', '--out', 'broken']);
    await rm(path.join(postsDir(), '00000-broken.md'));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('SF901');
    expect(broken.stderr).not.toContain('SF900');
  });

  it('refuses a STOREFRONT_THREADS it does not know', async () => {
    const result = await runCli(['--root', project.root, 'build', '--posts', 'many-posts'], { STOREFRONT_THREADS: 'many' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF140');
    expect(result.stderr).toContain('STOREFRONT_THREADS');
  });

  it('reports a problem in a post parsed by the worker, with file and field', async () => {
    const file = path.join(postsDir(), 'post-02050.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('slug: post-2050', 'slug: ../escape'));
    const result = await runCli(['--root', project.root, 'build', '--posts', 'many-posts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF124  many-posts/post-02050.md');
    expect(result.stderr).toContain('› slug');
  });
});
