/**
 * Rebuild on publish (docs/deploying.md, "Rebuild when a post is published"): the real CLI built
 * against a fake WordPress on 127.0.0.1. A post published after a build is on the site after the
 * next one; two builds running at once into one output folder (as two publishes during a build
 * start them where nothing queues builds) leave exactly one complete build, never a mix; and the
 * example workflow and WordPress snippet agree on the event that starts a build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath, hashTree, repoRoot, runCli, tempProject, type CliResult } from '../helpers.js';
import { FakeWordPress, makePosts, type FakePost } from '../support/fake-wordpress.js';

const SITE = 'https://www.example.com';

// Everything started here is stopped in afterAll, whether the tests passed or not.
const servers: FakeWordPress[] = [];
const projects: { cleanup: () => Promise<void> }[] = [];
const running = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(servers.map((wp) => wp.stop()));
  await Promise.all(projects.map((project) => project.cleanup()));
});

/**
 * makePosts() without featured images: what is tested here is which posts a build takes and how
 * its output replaces the last one, not images (test/cms covers those).
 */
function posts(count: number): FakePost[] {
  return makePosts(count).map((post) => ({ ...post, featuredMedia: undefined }));
}

async function startWordPress(list: FakePost[]): Promise<FakeWordPress> {
  const wp = new FakeWordPress(list);
  servers.push(wp);
  return wp.start();
}

async function project(): Promise<string> {
  const made = await tempProject();
  projects.push(made);
  return made.root;
}

/**
 * A post as WordPress lists it once an editor publishes it: dated an hour ago, so newer than every makePosts() post.
 */
function newPost(id: number, slug: string, title: string): FakePost {
  const date = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);
  return {
    id,
    date_gmt: date,
    modified_gmt: date,
    slug,
    status: 'publish',
    title,
    excerpt: `<p>${title}, in short.</p>\n`,
    content: `<p>${title}. Published after the site was last built.</p>\n`,
  };
}

interface StartedBuild {
  done: Promise<CliResult>;
}

/** Starts `build --cms` in its own process, as a webhook-driven build would run. */
function startBuild(root: string, apiUrl: string): StartedBuild {
  const child = spawn(process.execPath, [cliPath, '--root', root, 'build', '--cms', apiUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
  return { done };
}

/** The hash of a fresh, lone build of what `wp` lists now, in a project of its own. */
async function loneBuildHash(wp: FakeWordPress): Promise<string> {
  const root = await project();
  const built = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
  expect(built.code, built.stderr).toBe(0);
  return hashTree(path.join(root, 'dist'));
}

const postsRequests = (wp: FakeWordPress) => wp.requests.filter((r) => r.url.startsWith('/wp-json/wp/v2/posts')).length;

/**
 * Resolves once `wp` has answered one more posts request than `before`. The fake answers in the
 * tick it records the request, so that build's view of WordPress is fixed from then on.
 */
async function fetched(wp: FakeWordPress, before: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (postsRequests(wp) <= before) {
    if (Date.now() > deadline) throw new Error('the build never asked WordPress for its posts');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A build either succeeded or failed the way every problem is reported: a code, no stack trace. */
function expectSucceededOrFailedCleanly(result: CliResult): void {
  if (result.code === 0) return;
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toMatch(/SF\d{3}/);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/**
 * Two overlapping builds have ended: each succeeded or failed cleanly, at least one succeeded;
 * the folder's hash, to compare with each build made alone.
 */
async function bothEnded(a: StartedBuild, b: StartedBuild, out: string) {
  const [resultA, resultB] = await Promise.all([a.done, b.done]);
  expectSucceededOrFailedCleanly(resultA);
  expectSucceededOrFailedCleanly(resultB);
  expect([resultA.code, resultB.code]).toContain(0);
  return { resultA, resultB, folder: await hashTree(out) };
}

/** Which of the two builds the folder is, by its hash: one of them, complete, and one that succeeded. */
function winnerOf(folder: string, alone: { a: string; b: string }, results: { a: CliResult; b: CliResult }): 'a' | 'b' {
  expect(alone.a).not.toBe(alone.b);
  expect([alone.a, alone.b]).toContain(folder);
  const winner = folder === alone.a ? 'a' : 'b';
  expect(results[winner].code).toBe(0);
  return winner;
}

describe('a post published in WordPress', () => {
  it('is on the site after the next build, with the list, the sitemap and the feed naming it; ' +
    'updates and removals too', async () => {
    const wp = await startWordPress(posts(6));
    const root = await project();
    const read = (file: string) => readFile(path.join(root, 'dist', file), 'utf8');

    const first = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(path.join(root, 'dist', 'blog', 'growth-note-6.html'))).toBe(true);
    expect(existsSync(path.join(root, 'dist', 'blog', 'reels-that-hold-attention.html'))).toBe(false);
    expect(await read('blog.html')).not.toContain('/blog/reels-that-hold-attention');

    // What the editor does in WordPress between two builds: publishes a post (draft → publish),
    // updates a published one (publish → publish) and takes another off the site (publish → trash).
    wp.posts.push(newPost(1001, 'reels-that-hold-attention', 'Reels that hold attention'));
    const updated = wp.posts.find((post) => post.slug === 'growth-note-3')!;
    updated.title = 'Growth note 3, corrected';
    updated.modified_gmt = new Date(Date.now() - 60_000).toISOString().slice(0, 19);
    wp.posts = wp.posts.filter((post) => post.slug !== 'growth-note-2');

    const second = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/6 posts fetched/);

    const page = await read('blog/reels-that-hold-attention.html');
    expect(page).toContain('Reels that hold attention');
    expect(page).toContain(`<link rel="canonical" href="${SITE}/blog/reels-that-hold-attention"`);
    // The newest post heads the blog list.
    const list = await read('blog.html');
    const cards = parseHtml(list)
      .querySelectorAll('.post-card h2 a')
      .map((a) => a.getAttribute('href'));
    expect(cards[0]).toBe('/blog/reels-that-hold-attention');
    expect(cards).not.toContain('/blog/growth-note-2');
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain(`<loc>${SITE}/blog/reels-that-hold-attention</loc>`);
    expect(await read('blog/feed.xml')).toContain(`<id>${SITE}/blog/reels-that-hold-attention</id>`);

    expect(await read('blog/growth-note-3.html')).toContain('Growth note 3, corrected');
    expect(existsSync(path.join(root, 'dist', 'blog', 'growth-note-2.html'))).toBe(false);
    expect(sitemap).not.toContain(`${SITE}/blog/growth-note-2<`);
  }, 120_000);
});

// Each test runs several builds, which two busy loops beside the suite slow down several times:
// each has the most time a test may take (120 s), not a quiet machine's.
describe('two builds at once into one output folder', () => {
  it('a publish during a build: each build succeeds or fails cleanly, ' +
    'and the folder is exactly the complete build switched in last', async () => {
    const wp = await startWordPress(posts(8));
    const root = await project();
    const out = path.join(root, 'dist');
    // The site as it was before: the builds below replace it.
    const before = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(before.code, before.stderr).toBe(0);

    // A publish starts build A; a second publish arrives while A builds and starts build B,
    // which sees one more post. Nothing queues them: they overlap.
    const requests = postsRequests(wp);
    const a = startBuild(root, wp.apiUrl);
    await fetched(wp, requests);
    const postsOfA = [...wp.posts];
    wp.posts.push(newPost(2001, 'published-during-a-build', 'Published during a build'));
    const postsOfB = [...wp.posts];
    const b = startBuild(root, wp.apiUrl);
    const { resultA, resultB, folder } = await bothEnded(a, b, out);

    // The same inputs built alone, each in a fresh project, against the same WordPress.
    wp.posts = postsOfA;
    const aloneA = await loneBuildHash(wp);
    wp.posts = postsOfB;
    const aloneB = await loneBuildHash(wp);
    const winner = winnerOf(folder, { a: aloneA, b: aloneB }, { a: resultA, b: resultB });
    console.log(
      `rebuild on publish: build ${winner === 'a' ? 'A (the earlier publish)' : 'B (the later publish)'} was ` +
        'switched in last and is the site',
    );

    // The next build removes whatever the two left beside the folder.
    const after = await runCli(['--root', root, 'build', '--cms', wp.apiUrl]);
    expect(after.code, after.stderr).toBe(0);
    const beside = (await readdir(root)).filter((name) => name.startsWith('.dist.'));
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatch(/^\.dist\.files-[\d-]+\.json$/);
    expect(await hashTree(out)).toBe(aloneB);
  }, 120_000);

  it('started in the same instant against two WordPress sites: ' +
    'the folder is one of the two complete builds', async () => {
    const wpA = await startWordPress(posts(5));
    const wpB = await startWordPress([...posts(5), newPost(3001, 'only-in-b', 'Only in B')]);
    const root = await project();
    const out = path.join(root, 'dist');

    const a = startBuild(root, wpA.apiUrl);
    const b = startBuild(root, wpB.apiUrl);
    const { resultA, resultB, folder } = await bothEnded(a, b, out);
    const [aloneA, aloneB] = [await loneBuildHash(wpA), await loneBuildHash(wpB)];
    winnerOf(folder, { a: aloneA, b: aloneB }, { a: resultA, b: resultB });
  }, 120_000);
});

describe('the example workflow and the WordPress snippet', () => {
  const workflowFile = path.join(repoRoot, 'docs', 'examples', 'github-rebuild.yml');
  const snippetFile = path.join(repoRoot, 'docs', 'examples', 'wordpress-rebuild-hook.php');

  it(
    'the workflow parses, queues builds instead of cancelling them, ' + 'and listens for the event the snippet sends',
    async () => {
      const workflow = parseYaml(await readFile(workflowFile, 'utf8')) as {
        on: { repository_dispatch: { types: string[] }; workflow_dispatch: unknown; schedule: { cron: string }[] };
        concurrency: { group: string; 'cancel-in-progress': boolean; queue?: unknown };
        jobs: Record<string, { steps: { run?: string; uses?: string; env?: Record<string, string> }[] }>;
      };
      const php = await readFile(snippetFile, 'utf8');

      expect(workflow.concurrency['cancel-in-progress']).toBe(false);
      expect(typeof workflow.concurrency.group).toBe('string');
      expect(workflow.concurrency.queue).toBeUndefined();

      const sent = [...php.matchAll(/'event_type'\s*=>\s*'([^']+)'/g)].map((m) => m[1]);
      expect(sent).toEqual(['wordpress-publish']);
      expect(workflow.on.repository_dispatch.types).toEqual(sent);
      expect('workflow_dispatch' in workflow.on).toBe(true);
      expect(workflow.on.schedule).toHaveLength(1);
      expect(workflow.on.schedule[0]!.cron).toMatch(/^\d+ \d+ \* \* \*$/);

      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      expect(steps.map((s) => s.run)).toEqual(expect.arrayContaining(['npm ci --omit=dev', 'npm run build']));
      const build = steps.find((s) => s.run === 'npm run build')!;
      expect(Object.keys(build.env ?? {})).toEqual(expect.arrayContaining(['CMS_API_URL', 'SITE_URL']));
      expect(steps.map((s) => s.uses)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^actions\/upload-pages-artifact@v\d+$/)]),
      );
    },
  );

  it(
    'the snippet posts, without blocking, to the URL from wp-config.php, for posts only, ' + 'and holds no secret',
    async () => {
      const php = await readFile(snippetFile, 'utf8');
      const code = php.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(code).toMatch(/add_action\(\s*'transition_post_status'/);
      expect(code).toMatch(/'publish' === \$new_status \|\| 'publish' === \$old_status/);
      expect(code).toMatch(/'post' !== \$post->post_type/);
      expect(code).toContain('wp_is_post_revision(');
      expect(code).toContain('wp_is_post_autosave(');
      expect(code).toMatch(/\$url\s*=\s*STOREFRONT_BUILD_HOOK_URL;/);
      expect(code).toMatch(/wp_remote_post\(\s*\$url,/);
      expect(code).toMatch(/'blocking'\s*=>\s*false/);
      expect(code).toMatch(/'timeout'\s*=>\s*[1-9]\b/);
      expect(code).toMatch(/'Accept'\]\s*=\s*'application\/vnd\.github\+json'/);
      expect(code).toMatch(/'Authorization'\]\s*=\s*'Bearer ' \. \( defined\( 'STOREFRONT_BUILD_HOOK_TOKEN' \)/);
      // The hook URL and the token come from constants only: no URL of a hook, no token, in the code.
      expect(code.match(/https?:\/\/[^\s'"]+/g) ?? []).toEqual([]);
      expect(php).not.toMatch(/gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|build_hooks\/[0-9a-f]{24}/);
    },
  );
});
