/**
 * A file is the build's when its bytes are (issue 35, item 5): the record beside the output
 * folder gives each file's size and SHA-256, so a record written by hand vouches for nothing and
 * an edit by hand that keeps a file's size is named and kept; a folder beside it is a killed
 * build's leftover when it holds the marker a build writes into it, whatever its name; `check`
 * and `preview` never rename a folder into place.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, projectsOfThisFile, runCli } from '../helpers.js';

const project = projectsOfThisFile();

/** A process id no process has (above Linux's largest, 2^22): a build that ran as it was killed. */
const DEAD = 2 ** 22 + 1;
const PDF = '%PDF-1.4 price list';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A built project: its root, its output folder and that folder's record. */
async function built(): Promise<{ root: string; dist: string; record: string }> {
  const { root } = await project();
  const result = await runCli(['--root', root, 'build']);
  expect(result.code, result.stderr).toBe(0);
  const records = (await readdir(root)).filter((name) => /^\.dist\.files-\d+\.json$/.test(name));
  expect(records).toHaveLength(1);
  return { root, dist: path.join(root, 'dist'), record: path.join(root, records[0]!) };
}

/**
 * Runs a build that must be refused with SF170 naming `named`, and leaves the output folder byte for byte as it was.
 */
async function refusedKeeping(root: string, named: string): Promise<void> {
  const dist = path.join(root, 'dist');
  const before = await hashTree(dist);
  const result = await runCli(['--root', root, 'build']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('SF170');
  expect(result.stderr).toContain(`The output folder holds files that no build wrote: ${named}.`);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(await hashTree(dist)).toBe(before);
}

describe('the record keeps the hash of each file a build wrote', () => {
  it('gives each file its size and the SHA-256 of its bytes', async () => {
    const { dist, record } = await built();
    const { writtenBy, files } = JSON.parse(await readFile(record, 'utf8')) as {
      writtenBy: string;
      files: Record<string, { size: number; sha256: string }>;
    };
    expect(writtenBy).toBe('storefront build');
    expect(Object.keys(files)).toContain('robots.txt');
    for (const [file, written] of Object.entries(files)) {
      const bytes = await readFile(path.join(dist, file));
      expect(written, file).toEqual({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    }
  });
});

describe('a crafted record deletes nothing', () => {
  it('five records written by hand naming uploads/a.pdf: each build is refused, ' +
    'and the folder is byte for byte as it was', async () => {
    const { root, dist } = await built();
    await mkdir(path.join(dist, 'uploads'));
    await writeFile(path.join(dist, 'uploads', 'a.pdf'), PDF);
    const size = Buffer.byteLength(PDF);
    const inode = (await stat(dist, { bigint: true })).ino;
    const record = (files: unknown) => `${JSON.stringify({ writtenBy: 'storefront build', files })}\n`;
    const crafted: { name: string; make: (file: string) => Promise<void>; named: string }[] = [
      // As the issue found it: the record of earlier versions, with the file's size.
      {
        name: 'its size',
        make: (file) => writeFile(file, record({ 'uploads/a.pdf': size })),
        named: 'uploads/a.pdf (recorded by an earlier version, without a hash of its bytes)',
      },
      {
        name: 'its size and a made-up hash',
        make: (file) => writeFile(file, record({ 'uploads/a.pdf': { size, sha256: '0'.repeat(64) } })),
        named: 'uploads/a.pdf (changed since a build wrote it)',
      },
      {
        name: "its size and another file's hash",
        make: (file) => writeFile(file, record({ 'uploads/a.pdf': { size, sha256: sha256('%PDF-1.4 price lisT') } })),
        named: 'uploads/a.pdf (changed since a build wrote it)',
      },
      {
        name: 'a hash that is no hash',
        make: (file) => writeFile(file, record({ 'uploads/a.pdf': { size, sha256: 'anything' } })),
        named: 'uploads/a.pdf',
      },
      // The right hash, in a link to a record elsewhere: a record is a file of its own beside the folder.
      {
        name: 'the right hash, through a link',
        make: async (file) => {
          await writeFile(
            path.join(root, 'elsewhere.json'),
            record({ 'uploads/a.pdf': { size, sha256: sha256(PDF) } }),
          );
          await symlink('elsewhere.json', file);
        },
        named: 'uploads/a.pdf',
      },
    ];
    for (const { name, make, named } of crafted) {
      // Named as a build names its records (the folder's own one is the build's, and stays).
      const file = path.join(root, `.dist.files-${inode + 1n}.json`);
      await make(file);
      await refusedKeeping(root, named).catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
      expect(await readFile(path.join(dist, 'uploads', 'a.pdf'), 'utf8'), name).toBe(PDF);
      await rm(file);
    }
  }, 40_000);

  it('a record that is a FIFO blocks nothing: the build is refused at once', async () => {
    const { root, dist } = await built();
    await writeFile(path.join(dist, 'notes.txt'), 'mine');
    execFileSync('mkfifo', [path.join(root, '.dist.files-1.json')]);
    const started = performance.now();
    await refusedKeeping(root, 'notes.txt');
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('a same-size edit by hand is named and kept', () => {
  it(
    "StoreFRONT for Storefront in about.html: refused (SF170), kept; the build's bytes again, " +
      'and the build goes on',
    async () => {
      const { root, dist } = await built();
      const about = path.join(dist, 'about.html');
      const original = await readFile(about, 'utf8');
      expect(original).toContain('| Storefront</title>');
      const edited = original.replace('| Storefront</title>', '| StoreFRONT</title>');
      await writeFile(about, edited);
      expect((await stat(about)).size).toBe(Buffer.byteLength(original));
      await refusedKeeping(root, 'about.html (changed since a build wrote it)');
      expect(await readFile(about, 'utf8')).toBe(edited);

      await writeFile(about, original);
      const again = await runCli(['--root', root, 'build']);
      expect(again.code, again.stderr).toBe(0);
    },
  );
});

describe('leftovers are known by the marker a build writes inside them, not by their name', () => {
  it('ten folders and files named as a build names its own are kept byte for byte; ' +
    'two a build marked are removed', async () => {
    const { root, dist } = await built();
    const outside = path.join(root, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'keep.txt'), 'outside the project');
    const beside = (name: string) => path.join(root, name);
    // Someone's own, however named.
    await mkdir(beside(`.dist.old-${DEAD}-1`));
    await writeFile(path.join(beside(`.dist.old-${DEAD}-1`), 'notes.txt'), 'my notes');
    await mkdir(beside(`.dist.build-${DEAD}-1`));
    await writeFile(path.join(beside(`.dist.build-${DEAD}-1`), 'index.html'), '<p>my draft</p>');
    // A copy of the built site: every byte recorded, but no record was written for this folder.
    await cp(dist, beside(`.dist.old-${DEAD}-2`), { recursive: true });
    await mkdir(beside(`.dist.old-${DEAD}-3`));
    await symlink(outside, beside(`.dist.old-${DEAD}-4`));
    await mkdir(beside(`.dist.old-${DEAD}-5`));
    await writeFile(path.join(beside(`.dist.old-${DEAD}-5`), '.storefront-build.json'), 'not a marker');
    // A marker of a new folder in a folder named as a previous site: the name and the marker disagree.
    await mkdir(beside(`.dist.old-${DEAD}-6`));
    await writeFile(
      path.join(beside(`.dist.old-${DEAD}-6`), '.storefront-build.json'),
      JSON.stringify({ writtenBy: 'storefront build', kind: 'build', pid: DEAD }),
    );
    await mkdir(beside(`.dist.old-${DEAD}-7`));
    execFileSync('mkfifo', [path.join(beside(`.dist.old-${DEAD}-7`), '.storefront-build.json')]);
    await writeFile(beside(`.dist.files-7.json.${DEAD}.tmp`), 'my temporary file');
    await writeFile(beside('.dist.files-8.json'), '{"mine": true}\n');
    const kept = [1, 2, 3, 5, 6].map((n) => `.dist.old-${DEAD}-${n}`).concat(`.dist.build-${DEAD}-1`);
    const before = await Promise.all(kept.map((name) => hashTree(beside(name))));
    // As builds killed with SIGKILL leave them: a new folder half written, and a previous site moved aside.
    for (const [name, kind] of [
      [`.dist.build-${DEAD}-9`, 'build'],
      [`.dist.old-${DEAD}-10`, 'old'],
    ] as const) {
      await mkdir(beside(name));
      await writeFile(
        path.join(beside(name), '.storefront-build.json'),
        JSON.stringify({ writtenBy: 'storefront build', kind, pid: DEAD }),
      );
      await writeFile(path.join(beside(name), 'index.html'), '<p>a killed build</p>');
    }

    const result = await runCli(['--root', root, 'build']);
    expect(result.code, result.stderr).toBe(0);
    expect(await Promise.all(kept.map((name) => hashTree(beside(name))))).toEqual(before);
    expect(await readlink(beside(`.dist.old-${DEAD}-4`))).toBe(outside);
    expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('outside the project');
    expect((await lstat(path.join(beside(`.dist.old-${DEAD}-7`), '.storefront-build.json'))).isFIFO()).toBe(true);
    expect(await readFile(beside(`.dist.files-7.json.${DEAD}.tmp`), 'utf8')).toBe('my temporary file');
    expect(await readFile(beside('.dist.files-8.json'), 'utf8')).toBe('{"mine": true}\n');
    expect(existsSync(beside(`.dist.build-${DEAD}-9`))).toBe(false);
    expect(existsSync(beside(`.dist.old-${DEAD}-10`))).toBe(false);
  }, 30_000);
});

describe('check and preview never rename a folder into place', () => {
  it('after rm -rf dist, check and preview say there is no site and put back nothing; ' +
    'the build makes a new one', async () => {
    const { root, dist } = await built();
    // As a build killed after both renames leaves the previous site: its new folder is the output folder now.
    const aside = path.join(root, `.dist.old-${DEAD}-1`);
    await cp(dist, aside, { recursive: true });
    await writeFile(path.join(aside, 'index.html'), 'an older site');
    await writeFile(
      path.join(aside, '.storefront-build.json'),
      JSON.stringify({ writtenBy: 'storefront build', kind: 'old', pid: DEAD, for: `.dist.build-${DEAD}-2` }),
    );
    const before = await hashTree(aside);
    await rm(dist, { recursive: true });

    const checked = await runCli(['--root', root, 'check']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('SF141');
    expect(checked.stderr).toContain('There is no built site to check (no sitemap.xml).');
    const previewed = await runCli(['--root', root, 'preview', '--port', '0']);
    expect(previewed.code).toBe(1);
    expect(previewed.stderr).toContain('There is no built site to preview.');
    expect(existsSync(dist)).toBe(false);
    expect(await hashTree(aside)).toBe(before);

    // The build puts back no older site either: that one's new folder was renamed into place, then removed.
    const rebuilt = await runCli(['--root', root, 'build']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(await readFile(path.join(dist, 'index.html'), 'utf8')).toContain('<!DOCTYPE html>');
    expect(existsSync(aside)).toBe(false);
  }, 30_000);
});
