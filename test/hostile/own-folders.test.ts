/**
 * The project's own folders are folders (issue 35, item 1): `.cache/`, each folder the build
 * keeps under it, `.storefront/` and its schemas folder are refused (SF143, naming the link and
 * its target) when they are links, before anything is written or deleted; and the 30-day prune
 * deletes only files whose names the build gives, in folders it made. Through the real CLI, each
 * link pointing at a folder of someone's files: old files, cache-like names, a sub-folder, all
 * of which the prune would have taken. Nothing there is written, deleted or touched (its files'
 * bytes and times are compared), and the previous build's output stays as it was.
 */
import { realpathSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { folderState, projectsOfThisFile, runCli } from '../helpers.js';
import { FakeStoreApi, productsOf } from '../support/fake-store-api.js';
import { FakeWordPress, makePosts } from '../support/fake-wordpress.js';

const project = projectsOfThisFile();
const outsideFolders: string[] = [];
afterAll(async () => {
  await Promise.all(outsideFolders.map((dir) => rm(dir, { recursive: true, force: true })));
});

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);
/** 60 days ago: past the prune's 30. */
const LONG_AGO = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000);

/**
 * A folder of someone's files outside the project (its real path, as the build names it), with
 * names like the caches' own, all 60 days old.
 */
async function someonesFolder(): Promise<string> {
  const dir = realpathSync(await mkdtemp(path.join(tmpdir(), 'storefront-someone-')));
  outsideFolders.push(dir);
  const files: Record<string, string> = {
    'notes.txt': 'my notes',
    [`${KEY_A}.json`]: '{"mine":true}',
    [KEY_A]: 'a file named like a download',
    [`${KEY_A}.png`]: 'named like a share card',
    [`${KEY_B}/${'b'.repeat(16)}-360.avif`]: 'named like a made image',
    'photos/holiday.jpg': 'a photo',
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  for (const name of [...Object.keys(files), KEY_B, 'photos']) await utimes(path.join(dir, name), LONG_AGO, LONG_AGO);
  return dir;
}

/** Every entry under `dir` with its kind, bytes and modification time: equal, nothing was touched. */
async function snapshot(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (current: string) => {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const found = await lstat(full);
      const bytes = found.isFile() ? (await readFile(full)).toString('base64') : '';
      lines.push(`${path.relative(dir, full)} ${found.isDirectory() ? 'dir' : 'file'} ${found.mtimeMs} ${bytes}`);
      if (found.isDirectory()) await walk(full);
    }
  };
  await walk(dir);
  return lines;
}

describe('a link where the build keeps its own files', () => {
  let root: string;
  let distBefore: string;
  beforeAll(async () => {
    root = (await project()).root;
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    distBefore = await folderState(path.join(root, 'dist'));
  }, 60_000);

  /**
   * Makes `link` (relative) point at `target`, with the real folders on its way; removes the build's own folders first.
   */
  const linkTo = async (link: string, target: string) => {
    await rm(path.join(root, '.cache'), { recursive: true, force: true });
    await rm(path.join(root, '.storefront'), { recursive: true, force: true });
    await mkdir(path.dirname(path.join(root, link)), { recursive: true });
    await symlink(target, path.join(root, link));
  };
  /** Builds, and checks that the build was refused for `link` and left the output as it was. */
  const refusedFor = async (link: string, target: string, args: string[] = [], env: Record<string, string> = {}) => {
    const result = await runCli(['--root', root, 'build', ...args], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`SF143  ${link}\n`);
    expect(result.stderr).toContain(`This is a symbolic link to ${target}`);
    expect(result.stderr).toContain(`hint: Remove the link (rm ${link}; what it points to stays)`);
    expect(result.stderr).toContain('Nothing was written; the output folder is as it was.');
    expect(result.stderr).not.toContain('SF900');
    expect(await folderState(path.join(root, 'dist'))).toBe(distBefore);
    return result;
  };

  // Each folder the build writes or prunes, and each folder on the way to one.
  for (const link of [
    '.cache',
    '.cache/images',
    '.cache/share',
    '.cache/cms',
    '.cache/cms/images',
    '.storefront',
    '.storefront/schemas',
  ]) {
    it(`${link} -> a folder of someone's files: refused, nothing there written or deleted`, async () => {
      const theirs = await someonesFolder();
      const before = await snapshot(theirs);
      await linkTo(link, theirs);
      const result = await refusedFor(link, theirs);
      // One problem: what lies behind the link is not looked at.
      expect(result.stderr).toContain('Found a problem:');
      expect(await snapshot(theirs)).toEqual(before);
    }, 60_000);
  }

  it("a link inside .cache/images/ named like an entry's folder: refused, " +
    'nothing written into its folder', async () => {
    const theirs = await someonesFolder();
    const before = await snapshot(theirs);
    const link = `.cache/images/${'c'.repeat(64)}`;
    await linkTo(link, theirs);
    await refusedFor(link, theirs);
    expect(await snapshot(theirs)).toEqual(before);
  }, 60_000);

  it("a card of .cache/share/ and a schema of .storefront/schemas/ that are links to someone's files: refused, " +
    'both named', async () => {
    const theirs = await someonesFolder();
    const before = await snapshot(theirs);
    await linkTo(`.cache/share/${KEY_A}.png`, path.join(theirs, `${KEY_A}.png`));
    await mkdir(path.join(root, '.storefront', 'schemas'), { recursive: true });
    await symlink(path.join(theirs, 'notes.txt'), path.join(root, '.storefront', 'schemas', 'site.schema.json'));
    const result = await refusedFor(`.cache/share/${KEY_A}.png`, path.join(theirs, `${KEY_A}.png`));
    expect(result.stderr).toContain('Found 2 problems:');
    expect(result.stderr).toContain('SF143  .storefront/schemas/site.schema.json\n');
    expect(await snapshot(theirs)).toEqual(before);
  }, 60_000);

  it('a link to a folder inside the project is refused too: the build writes no folder but its own', async () => {
    const mine = path.join(root, 'keep');
    await mkdir(mine, { recursive: true });
    await writeFile(path.join(mine, 'notes.txt'), 'kept');
    await linkTo('.cache', mine);
    await refusedFor('.cache', realpathSync(mine));
    expect(await readdir(mine)).toEqual(['notes.txt']);
  }, 60_000);

  it('a link to nowhere: refused, and nothing is made where it points', async () => {
    const nowhere = path.join(await someonesFolder(), 'not-yet');
    await linkTo('.cache', nowhere);
    await refusedFor('.cache', `${nowhere} (which does not exist)`);
    await expect(lstat(nowhere)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('a file named .cache: refused as not a folder, with the hint to move it', async () => {
    await rm(path.join(root, '.cache'), { recursive: true, force: true });
    await writeFile(path.join(root, '.cache'), 'not a folder');
    const result = await runCli(['--root', root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'SF143  .cache\n  This is a file where the storefront keeps a folder of its own files.',
    );
    expect(result.stderr).toContain('hint: Move the file elsewhere or remove it: the build makes the folder.');
    expect(await readFile(path.join(root, '.cache'), 'utf8')).toBe('not a folder');
    expect(await folderState(path.join(root, 'dist'))).toBe(distBefore);
  }, 60_000);

  it('a WordPress build with .cache/cms/images a link: refused before WordPress is asked anything', async () => {
    const wp = await new FakeWordPress(makePosts(2)).start();
    try {
      const theirs = await someonesFolder();
      const before = await snapshot(theirs);
      await linkTo('.cache/cms/images', theirs);
      await refusedFor('.cache/cms/images', theirs, ['--cms', wp.apiUrl, '--cms-retries', '0']);
      expect(wp.requests).toEqual([]);
      expect(await snapshot(theirs)).toEqual(before);
    } finally {
      await wp.stop();
    }
  }, 60_000);

  it('check --checkout and catalogue pull with .cache/cms a link: refused, ' +
    "the checkout's products not saved there", async () => {
    const catalogue = parseYaml(await readFile(path.join(root, 'content', 'catalogue.yaml'), 'utf8'));
    const shop = await new FakeStoreApi(productsOf(catalogue)).start();
    try {
      const theirs = await someonesFolder();
      const before = await snapshot(theirs);
      await linkTo('.cache/cms', theirs);
      const env = { CHECKOUT_URL: shop.origin };
      for (const args of [
        ['check', '--checkout'],
        ['check', '--checkout', '--offline'],
        ['catalogue', 'pull', '--from-checkout'],
        ['catalogue', 'pull', '--from-checkout', '--offline'],
      ]) {
        const result = await runCli(['--root', root, ...args], env);
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.stderr, args.join(' ')).toContain(`SF143  .cache/cms\n  This is a symbolic link to ${theirs}`);
      }
      expect(await snapshot(theirs)).toEqual(before);
    } finally {
      await shop.stop();
    }
  }, 60_000);
});

describe('the 30-day prune of the image caches', () => {
  it("deletes only what bears a name the build gives, in folders it made: someone's files there stay", async () => {
    const { root } = await project();
    const cache = path.join(root, '.cache');
    const own = {
      made: `images/${KEY_A}.json`,
      madeFile: `images/${KEY_A}/${'a'.repeat(16)}-360.avif`,
      download: `cms/images/${KEY_A}`,
      left: `cms/images/${KEY_A}.json.4242-1.tmp`,
      card: `share/${KEY_A}.png.4242-3.tmp`,
    };
    const theirs = {
      notes: 'images/notes.txt',
      photo: 'images/photos/holiday.jpg',
      inEntry: `images/${KEY_B}/mine.txt`,
      download: `cms/images/${KEY_B}.backup`,
      card: 'share/my-card.png',
    };
    const madeInTheirs = `images/${KEY_B}/${'b'.repeat(16)}-share.jpg`;
    for (const name of [...Object.values(own), ...Object.values(theirs), madeInTheirs]) {
      await mkdir(path.dirname(path.join(cache, name)), { recursive: true });
      await writeFile(path.join(cache, name), name);
    }
    for (const name of [
      ...Object.values(own),
      ...Object.values(theirs),
      madeInTheirs,
      `images/${KEY_A}`,
      `images/${KEY_B}`,
      'images/photos',
    ]) {
      await utimes(path.join(cache, name), LONG_AGO, LONG_AGO);
    }
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    for (const name of Object.values(theirs)) expect(await readFile(path.join(cache, name), 'utf8'), name).toBe(name);
    for (const name of [...Object.values(own), madeInTheirs, `images/${KEY_A}`])
      await expect(lstat(path.join(cache, name)), name).rejects.toThrow(/ENOENT/);
    // The folder named like an entry's stays while it holds someone's file.
    expect(await readdir(path.join(cache, 'images', KEY_B))).toEqual(['mine.txt']);
  }, 60_000);
});
