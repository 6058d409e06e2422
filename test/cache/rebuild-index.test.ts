// The index a posts-only rebuild checks (rebuild-index.ts): read back as written, updated in
// place with a rebuild's few changes, and refused when cut short or made for another folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  outputNamesKey,
  readRebuildIndex,
  removeRebuildIndex,
  updateRebuildIndex,
  writeRebuildIndex,
  type RebuildIndex,
} from '../../src/cache/rebuild-index.js';

let dir: string;
const outDir = '/site/dist';

function sample(): RebuildIndex {
  return {
    header: {
      folder: outDir,
      inputs: 'inputs-1',
      manifest: 'generation-1',
      otherPaths: ['/', '/about', '/blog'],
      warnings: ['SF301 a warning'],
      pagesByKind: { page: 2, 'blog-post': 3 },
      output: { files: 6, bytes: 1234, names: outputNamesKey(['index.html', 'about.html', 'blog.html', 'blog/a.html', 'blog/b.html', 'blog/c.html']) },
    },
    posts: new Map([
      ['a.md', { stamp: '10:1000.5', cardKey: 'card-a', slug: 'a' }],
      ['b.md', { stamp: '20:2000.25', cardKey: 'card-b', slug: 'b' }],
      ['c.md', { stamp: '30:3000', cardKey: 'card-c', slug: 'c' }],
    ]),
  };
}

const indexFile = () => path.join(dir, readdirSync(dir).find((name) => name.startsWith('rebuild-'))!);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'storefront-rebuild-index-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the rebuild index', () => {
  it('reads back what was written', () => {
    writeRebuildIndex(dir, sample());
    const read = readRebuildIndex(dir, outDir)!;
    expect(read.header).toEqual(sample().header);
    expect(read.posts).toEqual(sample().posts);
  });

  it('names the output files by a key that does not depend on their order', () => {
    expect(outputNamesKey(['b', 'a'])).toBe(outputNamesKey(['a', 'b']));
    expect(outputNamesKey(['a', 'b'])).not.toBe(outputNamesKey(['a', 'c']));
  });

  it('is updated in place: the new header and the stamps of the changed posts, nothing else', () => {
    writeRebuildIndex(dir, sample());
    const read = readRebuildIndex(dir, outDir)!;
    const header = { ...read.header, output: { ...read.header.output, bytes: 1300 } };
    updateRebuildIndex(dir, read, header, new Map([['a.md', '11:1001'], ['b.md', '20:2000.25'], ['c.md', '33:3003.125']]));
    const expected = sample();
    expected.posts.get('a.md')!.stamp = '11:1001';
    expected.posts.get('c.md')!.stamp = '33:3003.125';
    const again = readRebuildIndex(dir, outDir)!;
    expect(again.header).toEqual(header);
    expect(again.posts).toEqual(expected.posts);
  });

  it('is none when cut short, of another folder, or removed', () => {
    writeRebuildIndex(dir, sample());
    const text = readFileSync(indexFile(), 'utf8');
    expect(readRebuildIndex(dir, '/another/dist')).toBeUndefined();
    writeFileSync(indexFile(), text.slice(0, text.lastIndexOf('\t')));
    expect(readRebuildIndex(dir, outDir)).toBeUndefined();
    writeFileSync(indexFile(), text.split('\n').slice(0, 2).join('\n') + '\n');
    expect(readRebuildIndex(dir, outDir)).toBeUndefined();
    writeFileSync(indexFile(), text);
    expect(readRebuildIndex(dir, outDir)).toBeDefined();
    removeRebuildIndex(dir, outDir);
    expect(readRebuildIndex(dir, outDir)).toBeUndefined();
  });

  it('is not written for a post whose file name would break its lines', () => {
    writeRebuildIndex(dir, sample());
    const odd = sample();
    odd.posts.set('tab\there.md', { stamp: '1:1', cardKey: 'k', slug: 'tab-here' });
    writeRebuildIndex(dir, odd);
    expect(readRebuildIndex(dir, outDir)).toBeUndefined();
  });
});
