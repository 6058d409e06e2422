/**
 * A file is the build's when its bytes are (issue 35, item 5): the record beside the output
 * folder gives each file's size and SHA-256, so an edit by hand that keeps a file's size is named
 * and kept; a folder beside it is a killed build's leftover when it holds the marker a build
 * writes into it, whatever its name; `check` and `preview` never rename a folder into place.
 * A record vouches only for what this project's builds wrote (issue 43, items 1, 3 and 5): it is
 * signed with the project's key (.storefront/record-key), and one that proves nothing (written by
 * hand with a user's file's true hash, by an earlier version, damaged, a link, over 64 MB) stops
 * the build, named with why, and nothing is deleted.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  cp,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
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
 * Runs a build that must be refused with SF171 naming `named`, and leaves the output folder byte for byte as it was.
 */
async function refusedKeeping(root: string, named: string): Promise<void> {
  const dist = path.join(root, 'dist');
  const before = await hashTree(dist);
  const result = await runCli(['--root', root, 'build']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('SF171');
  expect(result.stderr).toContain(`The output folder holds files that no build wrote: ${named}.`);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(await hashTree(dist)).toBe(before);
}

/** What follows the proof in a record, for these files. */
const restOf = (files: unknown) => `"files":${JSON.stringify(files)}}\n`;
/** A record as a build signs it: the HMAC-SHA256 with `key` of the folder's name and of what follows the proof. */
function signed(key: Buffer, files: unknown, folder = 'dist'): string {
  const rest = restOf(files);
  const proof = createHmac('sha256', key).update(`storefront record of ${folder}\0`).update(rest).digest('hex');
  return `{"writtenBy":"storefront build","proof":"${proof}",${rest}`;
}
/** The project's key, as the first build made it. */
const keyOf = async (root: string) =>
  Buffer.from((await readFile(path.join(root, '.storefront', 'record-key'), 'utf8')).trim(), 'hex');

/**
 * Runs a build that must be refused with SF171 naming the record `record` and why it proves
 * nothing, and leaves the output folder and the record byte for byte as they were. Its output.
 */
async function refusedForRecord(root: string, record: string, why: string | RegExp): Promise<string> {
  const dist = path.join(root, 'dist');
  const before = existsSync(dist) ? await hashTree(dist) : undefined;
  // The record's bytes; a sparse one of gigabytes, by its size and times.
  const recordState = async () => {
    const found = await lstat(record);
    if (!found.isFile()) return undefined;
    return found.size > 1024 ** 2 ? `${found.size} ${found.mtimeMs} ${found.ctimeMs}` : await readFile(record);
  };
  const recordBefore = await recordState();
  const result = await runCli(['--root', root, 'build']);
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toContain(`SF171  ${record}\n`);
  expect(result.stderr).toContain('This record of the files builds wrote into the output folder cannot be trusted: ');
  if (typeof why === 'string') expect(result.stderr).toContain(why);
  else expect(result.stderr).toMatch(why);
  expect(result.stderr).toContain('nothing was deleted or written');
  // The record is the problem, not the files it fails to vouch for.
  expect(result.stderr).not.toContain('no build wrote');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  if (before !== undefined) expect(await hashTree(dist)).toBe(before);
  expect(await recordState()).toEqual(recordBefore);
  return result.stderr;
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

  it("is signed with the project's key, made by the first build with mode 0600 inside the project", async () => {
    const { root, record } = await built();
    const keyFile = path.join(root, '.storefront', 'record-key');
    expect((await lstat(keyFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    const text = await readFile(record, 'utf8');
    const { files } = JSON.parse(text) as { files: unknown };
    expect(text).toBe(signed(await keyOf(root), files));
  });
});

describe('a crafted record deletes nothing', () => {
  it("records written by hand with uploads/a.pdf's true size and SHA-256 (no proof, a made-up one, " +
    "another key's, a record of another folder, a link): each build is refused naming the record, " +
    'and the folder is byte for byte as it was', async () => {
    const { root, dist } = await built();
    await mkdir(path.join(dist, 'uploads'));
    await writeFile(path.join(dist, 'uploads', 'a.pdf'), PDF);
    const truth = { 'uploads/a.pdf': { size: Buffer.byteLength(PDF), sha256: sha256(PDF) } };
    const inode = (await stat(dist, { bigint: true })).ino;
    const key = await keyOf(root);
    const crafted: { name: string; make: (file: string) => Promise<void>; why: string }[] = [
      // As the issue found it: a record as builds wrote them until now, with the file's true size and hash.
      {
        name: 'no proof',
        make: (file) => writeFile(file, `${JSON.stringify({ writtenBy: 'storefront build', files: truth })}\n`),
        why: 'it was written by an earlier version of storefront (or by hand), without the proof',
      },
      {
        name: 'a made-up proof',
        make: (file) => writeFile(file, `{"writtenBy":"storefront build","proof":"${'0'.repeat(64)}",${restOf(truth)}`),
        why: "its proof (an HMAC of its contents with the project's key, .storefront/record-key) does not match",
      },
      {
        name: "another project's key",
        make: (file) => writeFile(file, signed(randomBytes(32), truth)),
        why: 'does not match: it was changed or written by hand, or signed with another key',
      },
      {
        name: "the project's key, signed as a record of another folder",
        make: (file) => writeFile(file, signed(key, truth, 'site')),
        why: 'does not match',
      },
      // The right proof, in a link to a record elsewhere: a record is a file of its own beside the folder.
      {
        name: 'through a link',
        make: async (file) => {
          await writeFile(path.join(root, 'elsewhere.json'), signed(randomBytes(32), truth));
          await symlink('elsewhere.json', file);
        },
        why: 'it is a symbolic link, not a plain file',
      },
    ];
    for (const { name, make, why } of crafted) {
      // Named as a build names its records (the folder's own one is the build's, and stays).
      const file = path.join(root, `.dist.files-${inode + 1n}.json`);
      await make(file);
      await refusedForRecord(root, file, why).catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
      expect(await readFile(path.join(dist, 'uploads', 'a.pdf'), 'utf8'), name).toBe(PDF);
      await rm(file);
    }
    // Without them, the file is someone's, as it always was.
    await refusedKeeping(root, 'uploads/a.pdf');
  }, 50_000);

  it('a record that is a FIFO blocks nothing: the build is refused at once, naming it', async () => {
    const { root, dist } = await built();
    await writeFile(path.join(dist, 'notes.txt'), 'mine');
    const fifo = path.join(root, '.dist.files-1.json');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    await refusedForRecord(root, fifo, 'it is a named pipe (FIFO), not a plain file');
    expect(performance.now() - started).toBeLessThan(20_000);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
  });
});

describe('a record that proves nothing stops the build, named with why', () => {
  it('cut in half, empty, `null`, a file of your own named as a record: refused as damaged, nothing deleted; ' +
    'the record whole again, the build goes on', async () => {
    const { root, record } = await built();
    const whole = await readFile(record);
    const damaged: [string, string | Buffer, string][] = [
      ['cut in half', whole.subarray(0, Math.floor(whole.length / 2)), 'it is damaged: cut short'],
      ['empty', '', 'it is damaged: empty'],
      ['null', 'null\n', 'it is damaged, or no record: it does not begin as a record a build writes'],
      ['your own', '{"mine": true}\n', 'it is damaged, or no record'],
    ];
    for (const [name, bytes, why] of damaged) {
      await writeFile(record, bytes);
      const stderr = await refusedForRecord(root, record, why).catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
      // The pages are not blamed for it.
      expect(stderr, name).not.toContain('404.html');
    }
    await writeFile(record, whole);
    const again = await runCli(['--root', root, 'build']);
    expect(again.code, again.stderr).toBe(0);
  }, 40_000);

  it('a 2 GiB record (sparse), one a byte over 64 MB: refused naming the limit, at once, unread', async () => {
    const { root, dist, record } = await built();
    const files = await readdir(dist, { recursive: true });
    for (const [size, said] of [
      [2 * 1024 ** 3, 'it is 2 GB, more than the 64 MB a record may be (it was not read)'],
      [64 * 1024 ** 2 + 1, 'it is 67,108,865 bytes, more than the 64 MB a record may be'],
    ] as const) {
      await truncate(record, size);
      const started = performance.now();
      await refusedForRecord(root, record, said);
      expect(performance.now() - started).toBeLessThan(15_000);
    }
    expect(await readdir(dist, { recursive: true })).toEqual(files);
  }, 40_000);

  it('the record of an earlier version (no proof): refused, saying to delete the folder and the record once; ' +
    'then the build goes on', async () => {
    const { root, dist, record } = await built();
    // As the previous version wrote it: the same files, without the proof.
    const { files } = JSON.parse(await readFile(record, 'utf8')) as { files: unknown };
    await writeFile(record, `${JSON.stringify({ writtenBy: 'storefront build', files })}\n`);
    const stderr = await refusedForRecord(
      root,
      record,
      'it was written by an earlier version of storefront (or by hand), without the proof builds now sign it with',
    );
    expect(stderr).toContain(
      'hint: Records of earlier versions carry no proof: delete the output folder and this record once',
    );
    await rm(dist, { recursive: true });
    await rm(record);
    const again = await runCli(['--root', root, 'build']);
    expect(again.code, again.stderr).toBe(0);
  }, 30_000);
});

describe('records still travel with the project', () => {
  it('a copied project (cp -a) builds, twice: its records prove themselves with the key that came along', async () => {
    const { root } = await built();
    const copy = `${root}-copy`;
    execFileSync('cp', ['-a', root, copy]);
    try {
      for (const round of [1, 2]) {
        const again = await runCli(['--root', copy, 'build']);
        expect(again.code, `${round}: ${again.stderr}`).toBe(0);
      }
      expect((await readdir(copy)).filter((name) => name.startsWith('.dist.'))).toHaveLength(1);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 30_000);

  it('--out outside the project builds twice in a row; a record written by hand beside it is refused', async () => {
    const { root } = await project();
    const outside = `${root}-site`;
    try {
      for (const round of [1, 2]) {
        const result = await runCli(['--root', root, 'build', '--out', outside]);
        expect(result.code, `${round}: ${result.stderr}`).toBe(0);
      }
      const beside = (await readdir(path.dirname(outside))).filter((name) =>
        name.startsWith(`.${path.basename(outside)}.files-`),
      );
      expect(beside).toHaveLength(1);
      await writeFile(path.join(outside, 'notes.txt'), 'mine');
      const forged = path.join(path.dirname(outside), `.${path.basename(outside)}.files-1.json`);
      await writeFile(forged, signed(randomBytes(32), { 'notes.txt': { size: 4, sha256: sha256('mine') } }));
      const before = await hashTree(outside);
      const result = await runCli(['--root', root, 'build', '--out', outside]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`SF171  ${forged}\n`);
      expect(result.stderr).toContain('signed with another key');
      expect(await hashTree(outside)).toBe(before);
      await rm(forged);
    } finally {
      await rm(outside, { recursive: true, force: true });
      for (const name of await readdir(path.dirname(outside)))
        if (name.startsWith(`.${path.basename(outside)}.`))
          await rm(path.join(path.dirname(outside), name), { force: true });
    }
  }, 30_000);

  it("a damaged key is refused, named; a key that is a link, as a link in the build's own folder", async () => {
    const { root, dist } = await built();
    const keyFile = path.join(root, '.storefront', 'record-key');
    const key = await readFile(keyFile);
    const before = await hashTree(dist);
    await writeFile(keyFile, 'not a key\n');
    const damaged = await runCli(['--root', root, 'build']);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(`SF171  ${keyFile}\n`);
    expect(damaged.stderr).toContain('The key builds sign their records with is damaged');
    await rm(keyFile);
    await writeFile(path.join(root, 'elsewhere-key'), key);
    await symlink(path.join(root, 'elsewhere-key'), keyFile);
    const linked = await runCli(['--root', root, 'build']);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('SF143');
    expect(linked.stderr).toContain('.storefront/record-key');
    expect(await hashTree(dist)).toBe(before);
  }, 30_000);
});

describe('a same-size edit by hand is named and kept', () => {
  it(
    "StoreFRONT for Storefront in about.html: refused (SF171), kept; the build's bytes again, " +
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
