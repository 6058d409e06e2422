// The cache files that a rebuild appends its few changes to (journaled-file.ts): what is read
// back is always what was saved last, whether the file was written whole or its log appended to.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJournaled, readJournaled, writeJournaled } from '../../src/cache/journaled-file.js';

interface Header {
  folder: string;
  fingerprint: string;
}

let dir: string;
let file: string;
const header: Header = { folder: '/site/posts', fingerprint: 'code-1' };

/** A hundred entries, e0-e99, each { n }: ten changes may be appended. */
function hundred(): Record<string, { n: number }> {
  return Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`e${n}`, { n }]));
}

/** Saves `change` applied to what is on disk now, as a build would, and reads the result back. */
function saveAndRead(change: (entries: Record<string, { n: number }>) => void, withHeader = header) {
  const previous = readJournaled<Header, { n: number }>(file);
  const entries = { ...previous!.entries };
  change(entries);
  writeJournaled(file, withHeader, entries, previous);
  return { expected: entries, read: readJournaled<Header, { n: number }>(file)! };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'storefront-journal-'));
  file = path.join(dir, 'posts-x.json');
  writeJournaled(file, header, hundred(), undefined);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a journaled cache file', () => {
  it('reads back what was written whole, with its header and folder first', () => {
    const read = readJournaled<Header, { n: number }>(file)!;
    expect(read.header).toEqual(header);
    expect(read.entries).toEqual(hundred());
    expect(read.logged).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('{"folder":"/site/posts",')).toBe(true);
    expect(existsSync(`${file}.log`)).toBe(false);
  });

  it('appends a change and a removal to the log, leaving the file as it was', () => {
    const before = readFileSync(file, 'utf8');
    const { expected, read } = saveAndRead((entries) => {
      entries.e2 = { n: 100 };
      delete entries.e3;
    });
    expect(read.entries).toEqual(expected);
    expect(read.entries.e3).toBeUndefined();
    expect(read.logged).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readFileSync(`${file}.log`, 'utf8').trim().split('\n')).toHaveLength(3);
    // A second build appends to the same log.
    const second = saveAndRead((entries) => (entries.e4 = { n: 200 }));
    expect(second.read.entries).toEqual(second.expected);
    expect(second.read.logged).toBe(3);
  });

  it('writes nothing when nothing changed', () => {
    const stamp = statSync(file).mtimeMs;
    saveAndRead(() => {});
    expect(statSync(file).mtimeMs).toBe(stamp);
    expect(existsSync(`${file}.log`)).toBe(false);
  });

  it('is written whole, without a log, when the changes pass a tenth of the entries or the header changed', () => {
    saveAndRead((entries) => (entries.e0 = { n: 10 }));
    expect(existsSync(`${file}.log`)).toBe(true);
    const { expected, read } = saveAndRead((entries) => {
      for (let n = 1; n <= 10; n++) entries[`e${n}`] = { n: -n };
    });
    expect(read.entries).toEqual(expected);
    expect(read.logged).toBe(0);
    expect(existsSync(`${file}.log`)).toBe(false);
    saveAndRead((entries) => (entries.e0 = { n: 13 }), { ...header, fingerprint: 'code-2' });
    expect(readJournaled<Header, { n: number }>(file)!.header.fingerprint).toBe('code-2');
    expect(existsSync(`${file}.log`)).toBe(false);
  });

  it('ignores a log that follows an older generation of the file', () => {
    saveAndRead((entries) => (entries.e0 = { n: 10 }));
    const log = readFileSync(`${file}.log`, 'utf8');
    writeJournaled(file, header, hundred(), undefined);
    writeFileSync(`${file}.log`, log);
    expect(readJournaled<Header, { n: number }>(file)!.entries).toEqual(hundred());
    // The next change starts a log of the current generation.
    const { expected, read } = saveAndRead((entries) => (entries.e1 = { n: 20 }));
    expect(read.entries).toEqual(expected);
    expect(read.entries.e0).toEqual({ n: 0 });
  });

  it('keeps the changes before a line cut short, and is written whole at the next save', () => {
    saveAndRead((entries) => (entries.e0 = { n: 10 }));
    appendFileSync(`${file}.log`, '["e1",{"n":');
    const read = readJournaled<Header, { n: number }>(file)!;
    expect(read.entries.e0).toEqual({ n: 10 });
    expect(read.entries.e1).toEqual({ n: 1 });
    expect(read.logged).toBe(Infinity);
    saveAndRead((entries) => (entries.e2 = { n: 30 }));
    expect(existsSync(`${file}.log`)).toBe(false);
    expect(readJournaled<Header, { n: number }>(file)!.entries).toMatchObject({ e0: { n: 10 }, e1: { n: 1 }, e2: { n: 30 } });
  });

  it('takes changes appended by generation, without being read, after and before a log of its own', () => {
    const { generation } = readJournaled<Header, { n: number }>(file)!;
    appendJournaled(file, generation, [['e0', { n: 10 }]]);
    expect(readJournaled<Header, { n: number }>(file)!.entries.e0).toEqual({ n: 10 });
    appendJournaled(file, generation, [['e1', { n: 11 }]]);
    const { expected, read } = saveAndRead((entries) => (entries.e2 = { n: 12 }));
    expect(read.entries).toEqual(expected);
    expect(read.entries).toMatchObject({ e0: { n: 10 }, e1: { n: 11 }, e2: { n: 12 } });
    // Of another generation (the file was written whole since): ignored.
    appendJournaled(file, 'an-older-generation', [['e3', { n: 13 }]]);
    expect(readJournaled<Header, { n: number }>(file)!.entries.e3).toEqual({ n: 3 });
  });

  it('is undefined when there is no file or it is not JSON', () => {
    expect(readJournaled(path.join(dir, 'none.json'))).toBeUndefined();
    writeFileSync(file, '{"folder":');
    expect(readJournaled(file)).toBeUndefined();
  });
});
