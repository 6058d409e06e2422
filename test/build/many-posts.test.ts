/**
 * A blog large enough that half of it is parsed in a worker thread: every post still becomes a
 * page, in date order, and a problem found by the worker is reported like any other.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempProject } from '../helpers.js';

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

  it('reports a problem in a post parsed by the worker, with file and field', async () => {
    const file = path.join(postsDir(), 'post-02050.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('slug: post-2050', 'slug: ../escape'));
    const result = await runCli(['--root', project.root, 'build', '--posts', 'many-posts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF124  many-posts/post-02050.md');
    expect(result.stderr).toContain('› slug');
  });
});
