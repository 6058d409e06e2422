// The output manifest on its own: what it keeps when the code is the same, when the code
// changed (byte comparison), and when the options changed (nothing); and the removal of the
// cache files of output folders that are gone.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputManifest } from '../../src/cache/output-manifest.js';
import { fileStamp } from '../../src/util/file-stamp.js';
import { hashText } from '../../src/util/hash.js';

let dir: string;
let cacheDir: string;
let outDir: string;

/** Writes a file into the output folder the way a build does, and records it. */
async function writeRecorded(manifest: OutputManifest, name: string, key: string, contents: string) {
  const absolute = path.join(outDir, name);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, contents);
  manifest.record(name, key, [{ file: name, ...fileStamp(absolute) }]);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'storefront-manifest-'));
  cacheDir = path.join(dir, 'cache');
  outDir = path.join(dir, 'out');
  const first = OutputManifest.open(cacheDir, outDir, 'code-1', '');
  expect(first.reusable).toBe(false);
  await writeRecorded(first, 'index.html', 'key-home', '<p>home</p>');
  await writeRecorded(first, 'blog/a.html', 'key-a', '<p>a</p>');
  first.save();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('OutputManifest', () => {
  it('keeps a file whose key is unchanged, and lists the files no longer made', () => {
    const next = OutputManifest.open(cacheDir, outDir, 'code-1', '');
    expect(next.reusable).toBe(true);
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(true);
    expect(next.keepIfUnchanged('blog/a.html', 'another key')).toBe(false);
    expect(next.leftovers()).toEqual(['blog/a.html']);
    expect(next.totals()).toEqual({ files: 1, bytes: '<p>home</p>'.length });
  });

  it('does not keep a file edited since it was written', async () => {
    await writeFile(path.join(outDir, 'index.html'), '<p>edited</p>');
    const next = OutputManifest.open(cacheDir, outDir, 'code-1', '');
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(false);
  });

  it('after a code change keeps only files that come out byte for byte the same', () => {
    const next = OutputManifest.open(cacheDir, outDir, 'code-2', '');
    expect(next.reusable).toBe(true);
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(false);
    expect(next.keepIfSameBytes('index.html', 'new-key-home', '<p>home</p>')).toBe(true);
    expect(next.keepIfSameBytes('blog/a.html', 'new-key-a', '<p>a, restyled</p>')).toBe(false);
  });

  it('with the same code keeps a file whose key changed but whose bytes did not', () => {
    const next = OutputManifest.open(cacheDir, outDir, 'code-1', '');
    expect(next.keepIfUnchanged('index.html', 'other-key-home')).toBe(false);
    expect(next.keepIfSameBytes('index.html', 'other-key-home', '<p>home</p>')).toBe(true);
    expect(next.keepIfSameBytes('blog/a.html', 'other-key-a', '<p>a, changed</p>')).toBe(false);
  });

  it('after a change of options keeps nothing', () => {
    const next = OutputManifest.open(cacheDir, outDir, 'code-1', 'precompress');
    expect(next.reusable).toBe(false);
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(false);
    expect(next.keepIfSameBytes('index.html', 'key-home', '<p>home</p>')).toBe(false);
  });
});

describe('the cache files of folders that are gone', () => {
  it('are removed when another folder\'s manifest is saved; those of existing folders stay', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'storefront-orphans-'));
    const kept = await mkdtemp(path.join(tmpdir(), 'storefront-orphans-out-'));
    const gone = path.join(kept, 'gone');
    await mkdir(gone);
    try {
      for (const folder of [kept, gone]) {
        const manifest = OutputManifest.open(cacheDir, folder, 'code-1', '');
        manifest.record('index.html', 'key', []);
        manifest.save();
      }
      expect((await readdir(cacheDir)).filter((f) => f.startsWith('output-'))).toHaveLength(2);
      await rm(gone, { recursive: true });
      await writeFile(path.join(cacheDir, 'output-old-format.json'), '{"fingerprint":"x","options":"","entries":{}}');
      const third = OutputManifest.open(cacheDir, path.join(kept, 'third'), 'code-1', '');
      third.save();
      const left = (await readdir(cacheDir)).filter((f) => f.startsWith('output-')).sort();
      expect(left).toHaveLength(2);
      expect(left).not.toContain('output-old-format.json');
      // The folder that still exists kept its manifest: reopening it can reuse its output.
      const reopened = await readFile(path.join(cacheDir, left.find((f) => !f.includes(hashText(path.join(kept, 'third'))))!), 'utf8');
      expect(JSON.parse(reopened).folder).toBe(kept);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
      await rm(kept, { recursive: true, force: true });
    }
  });
});
