// The output manifest on its own: what it keeps when the code is the same, when the code
// changed (byte comparison), and when the options changed (nothing); and the removal of the
// cache files of output folders that are gone.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputManifest } from '../../src/cache/output-manifest.js';
import { fileStamp, stampFolder } from '../../src/util/file-stamp.js';
import { hashText } from '../../src/util/hash.js';
import { packageRoot } from '../../src/package-root.js';

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

/** The manifest as the next build opens it, with the output folder as it is now. */
function reopen(fingerprint: string, options = ''): OutputManifest {
  const manifest = OutputManifest.open(cacheDir, outDir, fingerprint, options);
  if (manifest.reusable) manifest.checkFolder(stampFolder(outDir, true));
  return manifest;
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
    const next = reopen('code-1');
    expect(next.reusable).toBe(true);
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(true);
    expect(next.keepIfUnchanged('blog/a.html', 'another key')).toBe(false);
    expect(next.leftovers()).toEqual(['blog/a.html']);
    expect(next.totals()).toEqual({ files: 1, bytes: '<p>home</p>'.length });
  });

  it('does not keep a file edited since it was written', async () => {
    await writeFile(path.join(outDir, 'index.html'), '<p>edited</p>');
    const next = reopen('code-1');
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(false);
  });

  it('after a code change keeps only files that come out byte for byte the same', () => {
    const next = reopen('code-2');
    expect(next.reusable).toBe(true);
    expect(next.keepIfUnchanged('index.html', 'key-home')).toBe(false);
    expect(next.keepIfSameBytes('index.html', 'new-key-home', '<p>home</p>')).toBe(true);
    expect(next.keepIfSameBytes('blog/a.html', 'new-key-a', '<p>a, restyled</p>')).toBe(false);
  });

  it('with the same code keeps a file whose key changed but whose bytes did not', () => {
    const next = reopen('code-1');
    expect(next.keepIfUnchanged('index.html', 'other-key-home')).toBe(false);
    expect(next.keepIfSameBytes('index.html', 'other-key-home', '<p>home</p>')).toBe(true);
    expect(next.keepIfSameBytes('blog/a.html', 'other-key-a', '<p>a, changed</p>')).toBe(false);
  });

  it('keeps every file made with a key at once, or none when one of them changed', async () => {
    const first = reopen('code-1');
    await writeRecorded(first, 'sitemap.xml', 'routes-1', '<urlset/>');
    await writeRecorded(first, 'robots.txt', 'routes-1', 'User-agent: *');
    first.save();
    const same = reopen('code-1');
    expect(same.keepAllWithKey('routes-1')).toBe(true);
    expect(same.keepAllWithKey('routes-2')).toBe(false);
    expect(same.leftovers().sort()).toEqual(['blog/a.html', 'index.html']);
    await writeFile(path.join(outDir, 'robots.txt'), 'edited');
    expect(reopen('code-1').keepAllWithKey('routes-1')).toBe(false);
    expect(reopen('code-2').keepAllWithKey('routes-1')).toBe(false);
  });

  it('after a change of options keeps nothing', () => {
    const next = reopen('code-1', 'precompress');
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
      await writeFile(path.join(cacheDir, `output-${hashText(gone)}.json.log`), '{"generation":"x"}\n');
      await writeFile(path.join(cacheDir, 'output-old-format.json'), '{"fingerprint":"x","options":"","entries":{}}');
      const third = OutputManifest.open(cacheDir, path.join(kept, 'third'), 'code-1', '');
      third.save();
      const left = (await readdir(cacheDir)).filter((f) => f.startsWith('output-')).sort();
      expect(left).toHaveLength(2);
      expect(left).not.toContain('output-old-format.json');
      // The gone folder's log (see journaled-file.ts) went with its manifest.
      expect((await readdir(cacheDir)).filter((f) => f.endsWith('.log'))).toEqual([]);
      // The folder that still exists kept its manifest: reopening it can reuse its output.
      const reopened = await readFile(path.join(cacheDir, left.find((f) => !f.includes(hashText(path.join(kept, 'third'))))!), 'utf8');
      expect(JSON.parse(reopened).folder).toBe(kept);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
      await rm(kept, { recursive: true, force: true });
    }
  });
});

describe('the stamps of a folder taken on a worker thread', () => {
  it('are those taken on this thread; none for a folder that does not exist', async () => {
    await writeFile(path.join(outDir, 'blog', 'b.html'), '<p>b</p>');
    // The compiled module, which has its worker's compiled code beside it (npm test compiles first).
    const compiled = pathToFileURL(path.join(packageRoot(), 'lib', 'src', 'cache', 'stamp-thread.js')).href;
    const { StampThread } = (await import(compiled)) as typeof import('../../src/cache/stamp-thread.js');
    const stamps = await new StampThread({ dir: outDir, recursive: true }).stamps();
    expect(stamps).toEqual(stampFolder(outDir, true));
    expect([...stamps!.keys()].sort()).toEqual(['blog/a.html', 'blog/b.html', 'index.html']);
    expect(stamps!.get('blog/b.html')).toBe(fileStamp(path.join(outDir, 'blog', 'b.html')).stamp);
    expect(await new StampThread({ dir: path.join(dir, 'missing'), recursive: false }).stamps()).toEqual(new Map());
    expect([...stampFolder(outDir, false).keys()]).toEqual(['index.html']);
  });
});
