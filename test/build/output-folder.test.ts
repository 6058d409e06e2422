/**
 * The output folder belongs to the user (issue 25): it is a real folder that the tools a user
 * runs on it see whole, and a build never deletes or overwrites a file it did not write: a
 * folder holding one is refused before any work, byte for byte as it was.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashTree, projectsOfThisFile, runCli } from '../helpers.js';
import { restoreOutputFolder } from '../../src/output/output-folder.js';

const project = projectsOfThisFile();

/** Every file under a folder, relative, sorted: what the tools must each see. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('the output folder is a real folder', () => {
  let root: string;
  let dist: string;
  let files: string[];
  let bytes: number;

  beforeAll(async () => {
    ({ root } = await project());
    dist = path.join(root, 'dist');
    const built = await runCli(['--root', root, 'build', '--precompress']);
    expect(built.code, built.stderr).toBe(0);
    files = await filesUnder(dist);
    bytes = (await Promise.all(files.map((f) => stat(path.join(dist, f))))).reduce((sum, s) => sum + s.size, 0);
  });

  it('is a folder, not a link, holding every page', async () => {
    expect((await lstat(dist)).isDirectory()).toBe(true);
    expect(files.filter((f) => f.endsWith('.html')).length).toBeGreaterThan(20);
    expect(files).toContain('index.html');
  });

  it('find, du, tar, cp -r, rsync -a and zip -r see every file', async () => {
    expect(
      lines(run('find', ['dist', '-type', 'f'], root))
        .map((f) => path.relative('dist', f))
        .sort(),
    ).toEqual(files);
    expect(run('find', ['dist', '-name', '*.html'], root).split('\n').filter(Boolean).length).toBe(
      files.filter((f) => f.endsWith('.html')).length,
    );
    // du counts blocks, never less than the bytes of the files.
    expect(Number(run('du', ['-sk', 'dist'], root).split('\t')[0]) * 1024).toBeGreaterThanOrEqual(bytes);

    run('tar', ['czf', 'site.tgz', 'dist'], root);
    expect(
      lines(run('tar', ['tzf', 'site.tgz'], root))
        .filter((f) => !f.endsWith('/'))
        .map((f) => path.relative('dist', f))
        .sort(),
    ).toEqual(files);

    const expected = await hashTree(dist);
    run('cp', ['-r', 'dist', 'copied'], root);
    expect(await hashTree(path.join(root, 'copied'))).toBe(expected);
    await mkdir(path.join(root, 'host'));
    run('rsync', ['-a', 'dist', 'host/'], root);
    expect(await hashTree(path.join(root, 'host', 'dist'))).toBe(expected);

    run('zip', ['-qr', 'site.zip', 'dist'], root);
    await mkdir(path.join(root, 'unzipped'));
    run('unzip', ['-q', 'site.zip', '-d', 'unzipped'], root);
    expect(await hashTree(path.join(root, 'unzipped', 'dist'))).toBe(expected);
  });

  it('the record of what the build wrote is beside the folder, not in it', async () => {
    const beside = (await readdir(root)).filter((name) => name.startsWith('.dist.'));
    expect(beside).toHaveLength(1);
    const record = JSON.parse(await readFile(path.join(root, beside[0]!), 'utf8')) as {
      files: Record<string, { size: number }>;
    };
    expect(
      Object.keys(record.files)
        .map((f) => f.split('/').join(path.sep))
        .sort(),
    ).toEqual(files);
    for (const [file, { size }] of Object.entries(record.files))
      expect((await stat(path.join(dist, file))).size, file).toBe(size);
    expect(files.some((f) => path.basename(f).startsWith('.'))).toBe(false);
  });
});

describe('a build never deletes or overwrites a file it did not write', () => {
  /** The three files of the issue: a page, a price list and a certificate challenge. */
  const usersFiles = async (dir: string) => {
    await mkdir(path.join(dir, 'uploads'), { recursive: true });
    await mkdir(path.join(dir, '.well-known', 'acme-challenge'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<p>my own page</p>');
    await writeFile(path.join(dir, 'uploads', 'price-list.pdf'), '%PDF-1.4 price list');
    await writeFile(path.join(dir, '.well-known', 'acme-challenge', 'abc'), 'abc.token');
  };

  it(
    "a folder of the user's files (index.html, uploads/price-list.pdf, .well-known/acme-challenge/abc) " +
      'is refused before any work, byte for byte as it was',
    async () => {
      const { root } = await project();
      const out = path.join(root, 'public');
      await usersFiles(out);
      const before = await hashTree(out);
      const result = await runCli(['--root', root, 'build', '--out', 'public']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SF171');
      expect(result.stderr).toContain(
        'The output folder holds files that no build wrote: .well-known/acme-challenge/abc, index.html, ' +
          'uploads/price-list.pdf.',
      );
      expect(result.stderr).toMatch(
        /hint: Move those files elsewhere, or build into an empty or new folder with --out/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(await hashTree(out)).toBe(before);
      // Refused before any work: nothing was made beside the folder either.
      expect((await readdir(root)).filter((name) => name.startsWith('.public.'))).toEqual([]);
    },
  );

  it('files added to a built folder are named (five at most) and kept; once moved out, the build goes on', async () => {
    const { root } = await project();
    const dist = path.join(root, 'dist');
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
    await usersFiles(path.join(root, 'mine'));
    run('cp', ['-r', 'mine/uploads', 'mine/.well-known', 'dist/'], root);
    for (const n of [1, 2, 3, 4]) await writeFile(path.join(dist, `notes-${n}.txt`), 'mine');
    const before = await hashTree(dist);
    const result = await runCli(['--root', root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'The output folder holds files that no build wrote: .well-known/acme-challenge/abc, notes-1.txt, ' +
        'notes-2.txt, notes-3.txt, notes-4.txt and 1 more.',
    );
    expect(await hashTree(dist)).toBe(before);

    run('rm', ['-r', 'dist/uploads', 'dist/.well-known', ...[1, 2, 3, 4].map((n) => `dist/notes-${n}.txt`)], root);
    const again = await runCli(['--root', root, 'build']);
    expect(again.code, again.stderr).toBe(0);
  });

  it("a file of the build changed by hand is someone's work: named as changed, and kept", async () => {
    const { root } = await project();
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
    const robots = path.join(root, 'dist', 'robots.txt');
    await writeFile(robots, 'User-agent: *\nDisallow: /private\n');
    const result = await runCli(['--root', root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no build wrote: robots.txt (changed since a build wrote it).');
    expect(await readFile(robots, 'utf8')).toBe('User-agent: *\nDisallow: /private\n');
    // A file browser's own files are no one's work.
    await rm(robots);
    await writeFile(path.join(root, 'dist', '.DS_Store'), 'finder');
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
  });

  it('a project copied elsewhere (cp -a, a backup, a cache) builds again: the records come along', async () => {
    const { root } = await project();
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
    const copy = `${root}-copy`;
    run('cp', ['-a', root, copy], path.dirname(root));
    try {
      const again = await runCli(['--root', copy, 'build']);
      expect(again.code, again.stderr).toBe(0);
    } finally {
      run('rm', ['-rf', copy], path.dirname(root));
    }
  });

  it('three builds at once, three times: each succeeds, and the folder is one whole site', async () => {
    const { root } = await project();
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
    const whole = await hashTree(path.join(root, 'dist'));
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([1, 2, 3].map(() => runCli(['--root', root, 'build'])));
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      expect(await hashTree(path.join(root, 'dist'))).toBe(whole);
    }
    expect((await readdir(root)).filter((name) => name.startsWith('.dist.'))).toHaveLength(1);
  }, 90_000);

  it(
    'a previous site moved aside by a killed build whose process id this process has now is put back, ' +
      'without its marker',
    async () => {
      const { root } = await project();
      const aside = path.join(root, `.dist.old-${process.pid}-1700000000000000`);
      const made = `.dist.build-${process.pid}-1700000000000001`;
      await mkdir(aside);
      await mkdir(path.join(root, made));
      await writeFile(path.join(aside, 'index.html'), 'the only copy');
      await writeFile(
        path.join(aside, '.storefront-build.json'),
        JSON.stringify({ writtenBy: 'storefront build', kind: 'old', pid: process.pid, for: made }),
      );
      restoreOutputFolder(path.join(root, 'dist'));
      expect(await readdir(path.join(root, 'dist'))).toEqual(['index.html']);
      expect(await readFile(path.join(root, 'dist', 'index.html'), 'utf8')).toBe('the only copy');
    },
  );

  it("a folder made again in place of the built one, with a page of someone's own, is refused", async () => {
    const { root } = await project();
    expect((await runCli(['--root', root, 'build'])).code).toBe(0);
    run('mv', ['dist', 'moved'], root);
    await mkdir(path.join(root, 'dist'));
    await writeFile(path.join(root, 'dist', 'index.html'), 'not from a build');
    const result = await runCli(['--root', root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no build wrote: index.html (changed since a build wrote it).');
  });

  it(
    '--out through a link into content/ or .git/ is refused where it really is, ' + 'and nothing there changes',
    async () => {
      const { root } = await project();
      await mkdir(path.join(root, '.git'));
      await writeFile(path.join(root, '.git', 'config'), '[core]\n');
      await symlink('content', path.join(root, 'c2'));
      await symlink('.git', path.join(root, 'g2'));
      const content = await hashTree(path.join(root, 'content'));
      for (const out of ['c2/site', 'c2/images', 'g2/site', 'g2']) {
        const result = await runCli(['--root', root, 'build', '--out', out]);
        expect(result.code, out).toBe(1);
        expect(result.stderr, out).toContain('SF170');
      }
      expect(await hashTree(path.join(root, 'content'))).toBe(content);
      expect(await readdir(path.join(root, '.git'))).toEqual(['config']);
    },
  );

  it('a link, the one earlier versions made included, is refused: what it points to is left as it is', async () => {
    const { root } = await project();
    // As those versions left it: dist → .dist.build-<pid>-<time>, and a file of the user's put in through it.
    const old = '.dist.build-4194305-1700000000000';
    await mkdir(path.join(root, old));
    await writeFile(path.join(root, old, 'index.html'), 'an old build');
    await writeFile(path.join(root, old, 'user-notes.txt'), 'mine');
    await symlink(old, path.join(root, 'dist'));
    const before = await hashTree(path.join(root, old));
    const result = await runCli(['--root', root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'it is a link, and the build replaces a folder, never what a link points to (if an earlier version of ' +
        'storefront made it, move any file of yours out of the folder it points to, then delete both)',
    );
    expect(await hashTree(path.join(root, old))).toBe(before);
  });
});
