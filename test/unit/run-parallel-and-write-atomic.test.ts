/**
 * Two utilities every stage leans on (issue 36, item 4): parallel work stops taking items after
 * the first failure and returns only once what was under way has ended; an atomic write leaves no
 * temporary file behind when it fails, and never writes through a file planted at its name.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runParallel } from '../../src/util/run-parallel.js';
import { writeFileAtomic } from '../../src/util/write-atomic.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runParallel', () => {
  it('keeps the results in order', async () => {
    expect(
      await runParallel([30, 10, 20], 2, async (ms, i) => {
        await sleep(ms);
        return i * 10;
      }),
    ).toEqual([0, 10, 20]);
  });

  it('starts no item after the first failure, and throws it only once the work under way has ended', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const running = runParallel([0, 1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      await sleep(item === 1 ? 5 : 30);
      ended.push(item);
      if (item === 1) throw new Error('page 2 failed');
      return item;
    });
    await expect(running).rejects.toThrow('page 2 failed');
    // Item 0 was under way when item 1 failed: it ended before the call did; nothing else began.
    expect(started).toEqual([0, 1]);
    expect(ended.sort()).toEqual([0, 1]);
  });
});

describe('writeFileAtomic', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('leaves no temporary file when the rename fails', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'write-atomic-'));
    // A folder where the file should go: the rename over it fails.
    const target = path.join(dir, 'entry.json');
    await writeFile(path.join(dir, 'keep.txt'), 'mine');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomic(target, '{}')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['entry.json', 'keep.txt']);
  });

  it('writes through no link planted at its temporary name, and leaves what stands there', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'write-atomic-'));
    const someone = path.join(dir, 'someone.txt');
    await writeFile(someone, 'their words');
    // The first write of this process names its temporary file {file}.{pid}-1.tmp.
    const target = path.join(dir, 'card.png');
    for (let n = 1; n <= 50; n++) await symlink(someone, `${target}.${process.pid}-${n}.tmp`);
    await expect(writeFileAtomic(target, 'new bytes')).rejects.toThrow(/EEXIST/);
    expect(await readFile(someone, 'utf8')).toBe('their words');
  });
});
