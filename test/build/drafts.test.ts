/**
 * Drafts and scheduled posts (issue 19): a post with `draft: true` or dated after the build is
 * not published, and the sitemap, the feed, the list pages and the link check follow the same
 * rule; `build --drafts` shows them, marked and noindex. The same rule for WordPress.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, runCli, tempProject } from '../helpers.js';
import { FakeWordPress, makePosts } from '../support/fake-wordpress.js';
import { totalPages } from '../support/content-counts.js';

type Project = Awaited<ReturnType<typeof tempProject>>;
const projects: Project[] = [];
afterAll(async () => {
  await Promise.all(projects.map((p) => p.cleanup()));
});

const post = (slug: string, front: string) => `---
title: ${slug.replace(/-/g, ' ')}
slug: ${slug}
excerpt: A post for the drafts test.
${front}
---
The body of ${slug}, long enough to read.
`;

/** A project with one draft and one post dated in 2099 beside the three published posts. */
async function projectWithUnpublished(): Promise<Project> {
  const project = await tempProject();
  projects.push(project);
  await writeFile(
    path.join(project.root, 'content/blog/work-in-progress.md'),
    post('work-in-progress', 'date: 2026-01-05\ndraft: true'),
  );
  await writeFile(
    path.join(project.root, 'content/blog/next-year.md'),
    post('next-year', 'date: 2099-01-01T09:00:00Z'),
  );
  return project;
}

const read = (root: string, file: string) => readFile(path.join(root, 'dist', file), 'utf8');

describe('local drafts and scheduled posts', () => {
  let plain: Project;
  let withDrafts: Project;
  let plainRun: Awaited<ReturnType<typeof runCli>>;
  let draftsRun: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    [plain, withDrafts] = await Promise.all([projectWithUnpublished(), projectWithUnpublished()]);
    [plainRun, draftsRun] = await Promise.all([
      runCli(['--root', plain.root, 'build']),
      runCli(['--root', withDrafts.root, 'build', '--drafts']),
    ]);
    expect(plainRun.code, plainRun.stderr).toBe(0);
    expect(draftsRun.code, draftsRun.stderr).toBe(0);
  });

  it('a build publishes neither: no page, not in the list, the sitemap or the feed, and says so', async () => {
    for (const slug of ['work-in-progress', 'next-year']) {
      expect(existsSync(path.join(plain.root, 'dist/blog', `${slug}.html`)), slug).toBe(false);
      expect(await read(plain.root, 'blog.html'), slug).not.toContain(slug);
      expect(await read(plain.root, 'sitemap.xml'), slug).not.toContain(slug);
      expect(await read(plain.root, 'blog/feed.xml'), slug).not.toContain(slug);
    }
    expect(plainRun.stderr).toContain('2 draft or scheduled post(s) left out (build --drafts shows them).');
    expect(plainRun.stdout).toContain(`Built ${totalPages} pages`);
  });

  it(
    '--drafts shows them, marked on their page and card, noindex, ' + 'and still out of the sitemap and the feed',
    async () => {
      const draft = parseHtml(await read(withDrafts.root, 'blog/work-in-progress.html'));
      expect(draft.querySelector('.post .notice')?.textContent).toBe('Draft: not published');
      expect(draft.querySelector('meta[name="robots"]')?.getAttribute('content')).toContain('noindex');
      const scheduled = parseHtml(await read(withDrafts.root, 'blog/next-year.html'));
      expect(scheduled.querySelector('.post .notice')?.textContent).toBe(
        'Scheduled for 1 January 2099: not published yet',
      );
      const list = parseHtml(await read(withDrafts.root, 'blog.html'));
      const card = list
        .querySelectorAll('.post-card')
        .find((c) => c.querySelector('a')?.getAttribute('href') === '/blog/next-year');
      expect(card?.querySelector('.notice')?.textContent).toBe('Scheduled for 1 January 2099: not published yet');
      for (const slug of ['work-in-progress', 'next-year']) {
        expect(await read(withDrafts.root, 'sitemap.xml'), slug).not.toContain(slug);
        expect(await read(withDrafts.root, 'blog/feed.xml'), slug).not.toContain(slug);
      }
      // A published post shows no mark.
      expect(
        parseHtml(await read(withDrafts.root, 'blog/tiktok-growth-routine.html')).querySelector('.post .notice'),
      ).toBeNull();
      expect(draftsRun.stderr).toContain('2 draft or scheduled post(s) shown, marked and noindex.');
    },
  );

  it('a published post that links to a draft fails the link check, as a link to a missing page does', async () => {
    const project = await projectWithUnpublished();
    await editFile(
      project.root,
      'content/blog/tiktok-growth-routine.md',
      /\n---\n/,
      '\n---\nSee [the next part](/blog/work-in-progress).\n\n',
    );
    const result = await runCli(['--root', project.root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/SF121 {2}content\/blog\/tiktok-growth-routine\.md.*\n.*\/blog\/work-in-progress/);
    // With --drafts the draft has a page, so the link holds.
    const shown = await runCli(['--root', project.root, 'build', '--drafts']);
    expect(shown.code, shown.stderr).toBe(0);
  });

  it('draft must be true or false', async () => {
    const project = await projectWithUnpublished();
    await editFile(project.root, 'content/blog/work-in-progress.md', 'draft: true', 'draft: maybe');
    const result = await runCli(['--root', project.root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/SF103 {2}content\/blog\/work-in-progress\.md:\d+ › draft/);
  });
});

describe('WordPress: only published posts, never one dated after the build', () => {
  let wp: FakeWordPress;
  beforeAll(async () => {
    const posts = makePosts(3);
    posts[0] = {
      ...posts[0]!,
      slug: 'from-the-future',
      date_gmt: '2099-06-01T08:00:00',
      modified_gmt: '2099-06-01T08:00:00',
    };
    posts.push({ ...makePosts(4)[3]!, slug: 'still-a-draft', status: 'draft' });
    wp = await new FakeWordPress(posts).start();
  });
  afterAll(async () => {
    await wp?.stop();
  });

  it('leaves out a post dated after the build; --drafts shows it, marked and noindex', async () => {
    const project = await tempProject();
    projects.push(project);
    const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(project.root, 'dist/blog/from-the-future.html'))).toBe(false);
    expect(existsSync(path.join(project.root, 'dist/blog/still-a-draft.html'))).toBe(false);
    expect(existsSync(path.join(project.root, 'dist/blog/growth-note-2.html'))).toBe(true);
    expect(await read(project.root, 'sitemap.xml')).not.toContain('from-the-future');
    expect(result.stderr).toContain('1 draft or scheduled post(s) left out');

    const shown = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, '--drafts']);
    expect(shown.code, shown.stderr).toBe(0);
    const page = parseHtml(await read(project.root, 'blog/from-the-future.html'));
    expect(page.querySelector('.post .notice')?.textContent).toBe('Scheduled for 1 June 2099: not published yet');
    expect(page.querySelector('meta[name="robots"]')?.getAttribute('content')).toContain('noindex');
    // WordPress answers an unauthenticated request with published posts only: a draft never arrives.
    expect(existsSync(path.join(project.root, 'dist/blog/still-a-draft.html'))).toBe(false);
  });
});
