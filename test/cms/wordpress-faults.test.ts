/**
 * What a build does when WordPress misbehaves: each fault of the fake server, run through the
 * real CLI. Failures name the URL and the cause and leave the earlier dist/ as it was.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtProject, copyOfProject, folderState, runCli, type tempProject } from '../helpers.js';
import { FakeWordPress, makePosts } from '../support/fake-wordpress.js';

let wp: FakeWordPress;
let project: Awaited<ReturnType<typeof tempProject>>;
let distHash: string;
const out = () => path.join(project.root, 'dist');
// Few retries so that a test of a fault takes seconds, not a minute; a time limit that a busy
// machine's answers keep within (the test of the limit sets its own).
const fast = ['--cms-timeout', '5000', '--cms-retries', '2'];
// A posts limit of 300 (three pages), so that the paging cases stay small.
const build = (...extra: string[]) =>
  runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, ...fast, ...extra], { CMS_MAX_POSTS: '300' });

// An earlier, good build from local content, made once and copied for each test (a cold build
// each time was most of this file's time); a failed CMS build must leave it alone.
let built: Awaited<ReturnType<typeof tempProject>>;
beforeAll(async () => {
  built = await builtProject();
});
afterAll(() => built?.cleanup());

beforeEach(async () => {
  wp = await new FakeWordPress(makePosts(30)).start();
  project = await copyOfProject(built.root);
  distHash = await folderState(out());
});

afterEach(async () => {
  await wp.stop();
  await project.cleanup();
});

const postRequests = () => wp.requests.filter((r) => r.url.startsWith('/wp-json/wp/v2/posts'));

async function expectFailedUntouched(result: Awaited<ReturnType<typeof runCli>>, ...fragments: string[]) {
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`${wp.apiUrl}/wp/v2/posts?per_page=100&page=1&_embed`);
  for (const fragment of fragments) expect(result.stderr).toContain(fragment);
  expect(result.stderr).toContain('Nothing was written; the output folder is as it was.');
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(await folderState(out())).toBe(distHash);
}

describe('WordPress faults', () => {
  it('slow answers past the timeout: retried, then the build fails naming the URL and the cause', async () => {
    // Far slower than the limit, whatever the machine's load.
    wp.faults.slowMs = 30_000;
    const result = await build('--cms-timeout', '1000');
    await expectFailedUntouched(result, 'SF201', 'no complete answer within 1000 ms', 'after 3 attempts');
    expect(postRequests()).toHaveLength(3);
  });

  it('500 then success: retried and built', async () => {
    wp.faults.fail500 = 1;
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Retrying');
    expect(result.stderr).toContain('HTTP 500');
    expect(postRequests()).toHaveLength(2);
    expect(await readFile(path.join(out(), 'blog', 'growth-note-30.html'), 'utf8')).toContain('Growth note 30');
  });

  it('429 with Retry-After: waits as long as asked, then builds', async () => {
    wp.faults.rateLimit = { times: 1, retryAfter: '1' };
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    const [first, second] = postRequests();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(result.stderr).toContain('HTTP 429');
  });

  it('a body that is not JSON fails at once, without retries', async () => {
    wp.faults.notJson = true;
    const result = await build();
    await expectFailedUntouched(result, 'SF201', 'is not JSON');
    expect(postRequests()).toHaveLength(1);
  });

  it('JSON that is not a list of posts fails', async () => {
    wp.faults.notArray = true;
    await expectFailedUntouched(await build(), 'not a list of posts');
  });

  it('a connection reset is retried, and succeeds when the server recovers', async () => {
    wp.faults.reset = 1;
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(postRequests()).toHaveLength(2);
  });

  it('connection resets that go on fail the build naming the cause', async () => {
    wp.faults.reset = Infinity;
    await expectFailedUntouched(await build(), 'SF201', 'after 3 attempts');
    expect(postRequests()).toHaveLength(3);
  });

  it('a 4xx other than 429 is not retried', async () => {
    const result = await runCli(['--root', project.root, 'build', '--cms', `${wp.origin}/not-wp-json`, ...fast]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 404 (rest_no_route');
    expect(wp.requests).toHaveLength(1);
    expect(await folderState(out())).toBe(distHash);
  });

  it.each([
    [250, 'pages are fetched one by one until the first short page'],
    [200, 'posts that end at a page end: the page after answers rest_post_invalid_page_number, and that ends it'],
  ])('no paging headers, %i posts: %s', async (count) => {
    wp.posts = makePosts(count);
    wp.faults.noPagingHeaders = true;
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${count} posts fetched`);
    expect(postRequests()).toHaveLength(3);
  });

  it('a server that never ends its pages is stopped at the posts limit, with the setting to raise it', async () => {
    wp.posts = makePosts(250);
    wp.faults.noPagingHeaders = true;
    wp.faults.endless = true;
    const result = await build();
    expect(result.code).toBe(1);
    for (const fragment of [
      'SF201',
      `${wp.apiUrl}/wp/v2/posts?per_page=100&page=4&_embed`,
      'more than 300 posts',
      'CMS_MAX_POSTS',
      'Nothing was written',
    ]) {
      expect(result.stderr).toContain(fragment);
    }
    expect(await folderState(out())).toBe(distHash);
    // The limit's 3 pages and the one that would pass it, no more.
    expect(postRequests()).toHaveLength(3);
  }, 20_000);

  it('more posts than cmsMaxPosts fail the build, even when the paging headers are honest', async () => {
    wp.posts = makePosts(120);
    const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, ...fast], {
      CMS_MAX_POSTS: '50',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('more than 50 posts');
    expect(await folderState(out())).toBe(distHash);
  });

  // A build each, so that each has the whole test time (five builds in one test outran it on a busy machine).
  it.each(['99999999999999999999', '1e308', '-1', 'NaN', '4.5'])(
    'an absurd X-WP-TotalPages (%s) is not believed: the pages are walked to the first short one',
    async (absurd) => {
      wp.posts = makePosts(120);
      wp.requests.length = 0;
      wp.faults.totalPages = absurd;
      const result = await build();
      expect(result.code, `${absurd}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('120 posts fetched');
      expect(postRequests().length, absurd).toBe(2);
    },
  );

  it('an answer larger than 32 MB is refused, not read into memory', async () => {
    wp.posts = makePosts(40);
    wp.faults.padBytes = 1024 * 1024;
    // Time enough to send 32 MB: the limit, not the timeout, must stop it.
    const result = await build('--cms-timeout', '20000');
    await expectFailedUntouched(result, 'SF201', 'larger than 32 MB');
  }, 20_000);

  it('an unreachable CMS fails with the URL and a hint', async () => {
    await wp.stop();
    const result = await build();
    await expectFailedUntouched(result, 'SF201', 'ECONNREFUSED', 'hint:', '--stale-ok');
  });
});

describe('cache, --offline and --stale-ok', () => {
  it('--offline builds from the cache of the last fetch without touching the network', async () => {
    expect((await build()).code).toBe(0);
    await wp.stop();
    const before = wp.requests.length;
    const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, '--offline']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('30 posts from the CMS cache');
    expect(wp.requests.length).toBe(before);
    expect((await readdir(path.join(out(), 'blog'))).filter((f) => /^growth-note-\d+\.html$/.test(f))).toHaveLength(30);
  });

  it('--offline without a cache fails and says how to make one', async () => {
    const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, '--offline']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF203');
    expect(result.stderr).toContain('Run one build with the CMS reachable first');
    expect(wp.requests).toHaveLength(0);
    expect(await folderState(out())).toBe(distHash);
  });

  it('--stale-ok falls back to the cache with a loud warning when the CMS fails', async () => {
    expect((await build()).code).toBe(0);
    wp.faults.fail500 = Infinity;
    const result = await build('--stale-ok');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/WARNING: the CMS could not be reached .*building from the cached posts/);
    expect(result.stderr).toContain('STALE');
    expect(result.stdout).toContain('30 posts from the CMS cache');
  });

  it('--stale-ok without a cache still fails, naming both causes', async () => {
    wp.faults.fail500 = Infinity;
    const result = await build('--stale-ok');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF203');
    expect(result.stderr).toContain('HTTP 500');
    expect(await folderState(out())).toBe(distHash);
  });

  it('credentials from the environment are sent but never appear in output, pages or the cache', async () => {
    const secret = 'abcd EFGH 1234 ijkl MNOP 5678';
    const result = await runCli(['--root', project.root, 'build', '--cms', wp.apiUrl, ...fast], {
      CMS_USER: 'editor',
      CMS_APP_PASSWORD: secret,
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = postRequests()[0]!.authorization!;
    expect(Buffer.from(sent.replace(/^Basic /, ''), 'base64').toString()).toBe(`editor:${secret}`);
    const encoded = sent.replace(/^Basic /, '');
    const everything = [result.stdout, result.stderr];
    for (const dir of [out(), path.join(project.root, '.cache')]) {
      for (const file of await readdir(dir, { recursive: true })) {
        const full = path.join(dir, String(file));
        if ((await import('node:fs')).statSync(full).isFile()) everything.push(await readFile(full, 'utf8'));
      }
    }
    for (const text of everything) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encoded);
    }
  });
});
