/**
 * A cache entry cannot decide what is published (issue 35, item 2): an entry of .cache/images/
 * written by someone else (anyone who can write the build cache) that names another file, another
 * address, or files that are not the images their names say, is ignored and made again, through
 * the real CLI.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtProject, runCli } from '../helpers.js';

let project: Awaited<ReturnType<typeof builtProject>>;
beforeEach(async () => {
  project = await builtProject();
}, 60_000);
afterEach(() => project?.cleanup());

const cacheDir = () => path.join(project.root, '.cache', 'images');
/** The entries of the image cache: the key and its parsed JSON. */
async function entries(): Promise<
  { key: string; entry: { set: { src: string; sources: unknown[] }; share: string; files: string[] } }[]
> {
  const names = (await readdir(cacheDir())).filter((name) => name.endsWith('.json'));
  return Promise.all(
    names.map(async (name) => ({
      key: name.slice(0, -5),
      entry: JSON.parse(await readFile(path.join(cacheDir(), name), 'utf8')),
    })),
  );
}
const rebuild = async () => {
  const built = await runCli(['--root', project.root, 'build']);
  expect(built.code, built.stderr).toBe(0);
};
const dist = (file: string) => readFile(path.join(project.root, 'dist', file));

describe('a crafted image cache entry', () => {
  it("naming index.html publishes nothing of it: the home page stays the build's, " +
    'and the entry is made again', async () => {
    const { key, entry } = (await entries())[0]!;
    await writeFile(path.join(cacheDir(), key, 'index.html'), '<script>alert(1)</script>CACHE-WAS-HERE');
    await writeFile(
      path.join(cacheDir(), `${key}.json`),
      JSON.stringify({ ...entry, files: [...entry.files, 'index.html'] }),
    );
    await rebuild();
    const home = (await dist('index.html')).toString('utf8');
    expect(home).not.toContain('CACHE-WAS-HERE');
    expect(home).toContain('<h1');
    const remade = (await entries()).find((e) => e.key === key)!;
    expect(remade.entry.files).toEqual(entry.files);
  }, 60_000);

  it('pointing the picture at another address is not used', async () => {
    const { key, entry } = (await entries())[0]!;
    await writeFile(
      path.join(cacheDir(), `${key}.json`),
      JSON.stringify({ ...entry, set: { ...entry.set, src: 'https://elsewhere.example.net/x.svg' } }),
    );
    await rebuild();
    const pages = (await readdir(path.join(project.root, 'dist', 'blog'))).filter((name) => name.endsWith('.html'));
    for (const page of pages)
      expect((await dist(path.join('blog', page))).toString('utf8'), page).not.toContain('elsewhere.example.net');
    expect((await entries()).find((e) => e.key === key)!.entry.set.src).toBe(entry.set.src);
  }, 60_000);

  it('whose share image is not a JPEG (HTML under its name) is made again', async () => {
    const { key, entry } = (await entries())[0]!;
    const share = entry.files.find((file: string) => file.endsWith('-share.jpg'))!;
    await writeFile(path.join(cacheDir(), key, path.basename(share)), '<!doctype html><script>alert(1)</script>');
    await rebuild();
    const published = await dist(share);
    expect([...published.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  }, 60_000);

  it('that is not JSON is made again, and the build does not fail', async () => {
    const { key, entry } = (await entries())[0]!;
    await writeFile(path.join(cacheDir(), `${key}.json`), '{ not json');
    await rebuild();
    expect((await entries()).find((e) => e.key === key)!.entry).toEqual(entry);
  }, 60_000);

  it('a share card in .cache/share/ that is not a PNG is drawn again', async () => {
    const shareCache = path.join(project.root, '.cache', 'share');
    const cards = (await readdir(shareCache)).filter((name) => name.endsWith('.png'));
    for (const card of cards) await writeFile(path.join(shareCache, card), '<!doctype html><script>alert(1)</script>');
    await rebuild();
    const published = (await readdir(path.join(project.root, 'dist', 'assets', 'share'))).filter((name) =>
      name.endsWith('.png'),
    );
    expect(published.length).toBeGreaterThan(0);
    for (const card of published)
      expect([...(await dist(path.join('assets', 'share', card))).subarray(0, 4)], card).toEqual([
        0x89, 0x50, 0x4e, 0x47,
      ]);
  }, 60_000);

  it('that is a named pipe does not hold the build: the entry is made again', async () => {
    const { key, entry } = (await entries())[0]!;
    await rm(path.join(cacheDir(), `${key}.json`));
    execFileSync('mkfifo', [path.join(cacheDir(), `${key}.json`)]);
    const share = entry.files.find((file: string) => file.endsWith('-share.jpg'))!;
    await rm(path.join(cacheDir(), key, path.basename(share)));
    execFileSync('mkfifo', [path.join(cacheDir(), key, path.basename(share))]);
    await rebuild();
    expect([...(await dist(share)).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  }, 30_000);
});
