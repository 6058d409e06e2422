/**
 * The incremental sync with WordPress (issue 41): the real CLI builds against the stand-in
 * WordPress twice, with a batch of edits between, and each sync build's output is compared byte
 * for byte with a full fetch's of the same posts, in a project of its own.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFile } from '../../src/cms/cms-cache.js';
import { hashTree, projectsOfThisFile, runCli } from '../helpers.js';
import { FakeWordPress, makePosts, type FakePost } from '../support/fake-wordpress.js';

const project = projectsOfThisFile();
/** Posts in the stand-in: two pages of the listing. */
const COUNT = 120;
let wp: FakeWordPress;

beforeAll(async () => {
  wp = await new FakeWordPress(makePosts(COUNT)).start();
});
afterAll(() => wp?.stop());

/** A build against the stand-in: what it printed and the requests it made to the posts collection. */
async function build(root: string, ...flags: string[]) {
  const before = wp.requests.length;
  const result = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, ...flags]);
  expect(result.code, result.stderr).toBe(0);
  const asked = wp.requests.slice(before).filter((r) => r.url.startsWith('/wp-json/wp/v2/posts'));
  return { ...result, asked: asked.map((r) => r.url) };
}

/** A project built once against the stand-in as it is now: a copy of the posts in its .cache/cms/. */
async function synced() {
  const { root } = await project();
  const first = await build(root);
  expect(first.stdout).toContain('full fetch from WordPress (no copy of the posts yet)');
  return root;
}

/** The output a full fetch of WordPress as it is now gives, in a new project. */
async function fullFetchOutput(): Promise<string> {
  const { root } = await project();
  await build(root, '--cms-full');
  return hashTree(path.join(root, 'dist'));
}

const post = (id: number) => wp.posts.find((p) => p.id === id)!;
const touch = (p: FakePost, minutes = 1) => {
  p.modified_gmt = new Date(Date.parse(`${p.modified_gmt}Z`) + minutes * 60_000).toISOString().slice(0, 19);
};

describe('a second build', () => {
  it('with nothing changed asks only for the light listing, a request per 100 posts; the same site', async () => {
    const root = await synced();
    const first = await hashTree(path.join(root, 'dist'));
    const copy = async () => JSON.parse(await readFile(cacheFile(root, wp.apiUrl), 'utf8'));
    const before = await copy();
    const second = await build(root);
    // The copy ages from the last full fetch (what a sync cannot see ages with it), not from this sync.
    const after = await copy();
    expect(after.fetchedAt).toBe(before.fetchedAt);
    expect(after.syncedAt > before.syncedAt).toBe(true);
    expect(second.asked).toEqual(
      [1, 2].map((n) => `/wp-json/wp/v2/posts?per_page=100&page=${n}&_fields=id,modified_gmt`),
    );
    expect(second.stdout).toMatch(/synced with WordPress: 0 post\(s\) new or changed, 0 left; 2 requests, \d+ KB/);
    expect(await hashTree(path.join(root, 'dist'))).toBe(first);
  });

  it('after every kind of change fetches only the changed posts, whole; the site a full fetch writes', async () => {
    const saved = structuredClone(wp.posts);
    try {
      const root = await synced();
      // A scheduled post, in WordPress but not yet public when the copy was made.
      const scheduled = makePosts(COUNT + 2)[COUNT + 1]!;
      scheduled.id = 900;
      scheduled.slug = 'scheduled-note';
      scheduled.status = 'future';
      wp.posts.push(scheduled);
      const copy = await build(root);
      expect(copy.stdout).toContain('0 post(s) new or changed, 0 left');

      const fresh = { ...makePosts(COUNT + 1)[COUNT]!, id: 901, slug: 'fresh-note' };
      wp.posts.push(fresh); // published
      // The nine newest posts, one kind of change each.
      const is = { title: COUNT, body: COUNT - 1, image: COUNT - 2, slug: COUNT - 3, password: COUNT - 4 };
      const gone = { draft: COUNT - 5, trash: COUNT - 6, private: COUNT - 7, deleted: COUNT - 8 };
      post(is.title).title = 'A new title';
      post(is.body).content = '<p>A new body.</p>';
      post(is.image).featuredMedia = { id: 20_000 + is.image, alt: 'A new picture', width: 1200, height: 800 };
      post(is.slug).slug = 'a-new-slug';
      post(is.password).protected = true;
      for (const id of Object.values(is)) touch(post(id));
      post(gone.draft).status = 'draft'; // unpublished
      post(gone.trash).status = 'trash';
      post(gone.private).status = 'private';
      wp.posts = wp.posts.filter((p) => p.id !== gone.deleted);
      scheduled.status = 'publish'; // its time came: WordPress leaves modified_gmt as it was
      const after = await build(root);
      const listing = after.asked.filter((url) => url.includes('_fields='));
      const whole = after.asked.filter((url) => url.includes('include='));
      expect(listing).toHaveLength(2);
      expect(whole).toHaveLength(1);
      expect(new URL(whole[0]!, wp.origin).searchParams.get('include')!.split(',').map(Number).sort()).toEqual(
        [...Object.values(is), 900, 901].sort(),
      );
      expect(after.stdout).toContain('synced with WordPress: 7 post(s) new or changed, 4 left; 3 requests');
      expect(await hashTree(path.join(root, 'dist'))).toBe(await fullFetchOutput());
    } finally {
      wp.posts = saved;
    }
  });
});

describe('a full fetch, said in the summary', () => {
  it('when asked for with --cms-full', async () => {
    const root = await synced();
    const again = await build(root, '--cms-full');
    expect(again.stdout).toContain('full fetch from WordPress (asked for with --cms-full)');
    expect(again.asked.every((url) => url.includes('&_embed') && url.includes('page='))).toBe(true);
  });

  it('when the copy is over a day old, dated after the clock, of another API root or not posts', async () => {
    const root = await synced();
    const file = cacheFile(root, wp.apiUrl);
    const entry = JSON.parse(await readFile(file, 'utf8')) as { fetchedAt: string; apiUrl: string; items: unknown[] };
    const cases: [string, object][] = [
      ['the copy is over 24 hours old', { fetchedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() }],
      ["the copy is dated after this machine's clock", { fetchedAt: new Date(Date.now() + 3_600_000).toISOString() }],
      ['the copy is of another API root', { apiUrl: 'https://another.example.org/wp-json' }],
      ['the copy holds items that are not posts', { items: [...entry.items, { id: 'x' }] }],
    ];
    for (const [reason, change] of cases) {
      await writeFile(file, JSON.stringify({ ...entry, ...change }));
      const again = await build(root);
      expect(again.stdout, reason).toContain(`full fetch from WordPress (${reason})`);
    }
  });

  // A test each: two projects synced and built again in one test outran its time on a busy machine.
  it.each(['ignoreFields', 'ignoreInclude'] as const)(
    'when the server %s, with the same site as a full fetch',
    async (fault) => {
      const root = await synced();
      touch(post(COUNT));
      wp.faults = { [fault]: true };
      try {
        const again = await build(root);
        const reason = fault === 'ignoreFields' ? 'the server ignores _fields' : 'the server ignores include';
        expect(again.stdout).toContain(`full fetch from WordPress (${reason})`);
        expect(await hashTree(path.join(root, 'dist'))).toBe(await fullFetchOutput());
      } finally {
        wp.faults = {};
      }
    },
    120_000,
  );

  it('is refused with --offline, which builds from the copy only', async () => {
    const { root } = await project();
    const result = await runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--offline', '--cms-full']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF170');
    expect(result.stderr).toContain('--offline and --cms-full cannot be used together.');
  });
});
