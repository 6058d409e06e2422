/**
 * Every read has a bound (issue 35, item 6): a file's type and size are checked before it is
 * read, through the real CLI. A named pipe, a socket or a device in the content is refused by
 * name (it used to hang the build, or be left out without a word), a post or content file over
 * 1 MB and a file of content/images/ over 25 MB by their size (sparse files, so nothing large is
 * written); a refused build leaves the output folder's bytes as they were. content/images/ is
 * copied as streams; dev stops on the first SIGTERM or Ctrl-C whatever its rebuild is doing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkContentImage } from '../../src/content/content-image.js';
import { readCacheFile } from '../../src/util/inside-project.js';
import { readOwnFile } from '../../src/util/read-bounded.js';
import { builtProject, cliPath, folderState, runCli } from '../helpers.js';
import { startDevProcess } from '../support/dev-process.js';

let project: Awaited<ReturnType<typeof builtProject>>;
let before: string;
beforeEach(async () => {
  project = await builtProject();
  before = await folderState(dist());
}, 60_000);
afterEach(() => project?.cleanup());

const dist = () => path.join(project.root, 'dist');
const at = (file: string) => path.join(project.root, file);
const mkfifo = (file: string) => execFileSync('mkfifo', [at(file)]);
/** A file of `bytes` bytes that takes no room on the disk. */
async function sparse(file: string, bytes: number): Promise<void> {
  await writeFile(at(file), '');
  await truncate(at(file), bytes);
}

/**
 * Builds, expects it refused with each [code, file, words] and the output folder untouched; answers within `withinMs`.
 */
async function refused(expected: [string, string, string][], withinMs = 15_000): Promise<string> {
  const started = performance.now();
  const built = await runCli(['--root', project.root, 'build']);
  expect(performance.now() - started).toBeLessThan(withinMs);
  expect(built.code, built.stderr).toBe(1);
  for (const [code, file, words] of expected) {
    const block = built.stderr
      .split(/\n(?= {2}SF\d{3} )/)
      .find((b) => b.trimStart().startsWith(`${code} `) && b.includes(file));
    expect(block, `${code} ${file} in:\n${built.stderr}`).toBeDefined();
    expect(block).toContain(words);
  }
  expect(built.stderr).not.toMatch(/SF90[01]/);
  expect(await folderState(dist())).toBe(before);
  return built.stderr;
}

describe('a file that is not a regular file', () => {
  it('site.yaml as a named pipe is refused by name at once, not waited on', async () => {
    await rm(at('content/site.yaml'));
    mkfifo('content/site.yaml');
    await refused([['SF141', 'content/site.yaml', 'This is a named pipe (FIFO), not a file']]);
  }, 60_000);

  it('a post, a page and a service as named pipes, and a post that links to one, ' +
    'are each refused by name', async () => {
    mkfifo('content/blog/pipe.md');
    mkfifo('content/pages/pipe.yaml');
    mkfifo('content/services/pipe.yaml');
    await mkdir(at('content/drafts'));
    mkfifo('content/drafts/fifo');
    await symlink('../drafts/fifo', at('content/blog/linked.md'));
    await refused([
      ['SF141', 'content/blog/pipe.md', 'This is a named pipe (FIFO), not a file'],
      ['SF141', 'content/pages/pipe.yaml', 'This is a named pipe (FIFO), not a file'],
      ['SF141', 'content/services/pipe.yaml', 'This is a named pipe (FIFO), not a file'],
      ['SF141', 'content/blog/linked.md', 'This is a symbolic link to a named pipe (FIFO), not a file'],
    ]);
  }, 60_000);

  it('a post that links to a folder is named, not an EISDIR', async () => {
    await mkdir(at('content/notes'));
    await symlink('../notes', at('content/blog/folder.md'));
    await refused([['SF141', 'content/blog/folder.md', 'This is a symbolic link to a folder, not a file']]);
  }, 60_000);

  it('a socket as a post is refused by name', async () => {
    // A Unix socket's path may be at most about 100 bytes: the test's temporary folder is short enough.
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(at('content/blog/socket.md'), resolve));
    try {
      await refused([['SF141', 'content/blog/socket.md', 'This is a socket, not a file']]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it.skipIf(process.getuid?.() !== 0)(
    'a device (/dev/zero made again with mknod) in content/images/ is refused by name',
    async () => {
      execFileSync('mknod', [at('content/images/zero.png'), 'c', '1', '5']);
      await refused([['SF141', 'content/images/zero.png', 'This is a device, not a file']]);
    },
    60_000,
  );

  it('in content/images/, ' +
    'a named pipe and a link to one are each refused by name (the link is not called a folder)', async () => {
    mkfifo('content/images/pipe.png');
    await mkdir(at('content/media'));
    mkfifo('content/media/fifo');
    await symlink('../media/fifo', at('content/images/linked.png'));
    const stderr = await refused([
      ['SF141', 'content/images/pipe.png', 'This is a named pipe (FIFO), not a file'],
      ['SF141', 'content/images/linked.png', 'This is a symbolic link to a named pipe (FIFO), not a file'],
    ]);
    expect(stderr).not.toContain('to the folder');
  }, 60_000);
});

/** A build through the CLI, killed after `ms`: a hang is a failure, not a test that never ends. */
function buildWithin(ms: number): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, '--root', project.root, 'build'],
      { env: { ...process.env, NO_COLOR: '1' }, timeout: ms, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const killed = error?.killed === true;
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr, killed });
      },
    );
  });
}

const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

describe('nothing blocks: every file is opened without waiting and judged on the open file (issue 43, item 2)', () => {
  it("a post's image content/images/x.png as a named pipe: the build ends at once, naming the file", async () => {
    mkfifo('content/images/x.png');
    const post = at('content/blog/tiktok-growth-routine.md');
    await writeFile(post, (await readFile(post, 'utf8')).replace('/images/tiktok-routine.svg', '/images/x.png'));
    const built = await buildWithin(15_000);
    expect(built.killed, 'the build hung').toBe(false);
    expect(built.code, built.stderr).toBe(1);
    expect(built.stderr).toMatch(/SF141 [^\n]*content\/images\/x\.png[\s\S]*named pipe \(FIFO\), not a file/);
    expect(built.stderr).not.toMatch(/SF90[01]/);
  }, 60_000);

  it("a named pipe renamed over a post's image again and again while builds run: " +
    'each build ends (built, or the file named), none hangs', async () => {
    const post = at('content/blog/tiktok-growth-routine.md');
    await writeFile(post, (await readFile(post, 'utf8')).replace('/images/tiktok-routine.svg', '/images/x.png'));
    writeFileSync(at('content/images/x.png'), tinyPng);
    let turn = 0;
    let swapping = true;
    // A regular PNG and a pipe by turns, each made beside it and renamed over it (as an editor saves).
    const swap = () => {
      if (!swapping) return;
      const next = at(`content/images/.swap-${turn}`);
      if (turn % 2 === 0) execFileSync('mkfifo', [next]);
      else writeFileSync(next, tinyPng);
      renameSync(next, at('content/images/x.png'));
      turn += 1;
      setTimeout(swap, 1);
    };
    swap();
    try {
      for (let run = 0; run < 3; run++) {
        const built = await buildWithin(20_000);
        expect(built.killed, `build ${run} hung:\n${built.stderr}`).toBe(false);
        expect(built.stderr).not.toMatch(/SF90[01]/);
        if (built.code !== 0) expect(built.stderr).toMatch(/content\/images\/x\.png|\/images\/x\.png/);
      }
    } finally {
      swapping = false;
    }
  }, 120_000);

  it('the readers given a named pipe answer at once: an image, a cache file, a file of .storefront/', async () => {
    mkfifo('content/images/y.png');
    const checked = checkContentImage({ name: 'y.png', real: at('content/images/y.png') });
    expect('problem' in checked && checked.problem.message).toContain('named pipe (FIFO), not a file');
    await mkdir(at('.cache/share'), { recursive: true });
    mkfifo('.cache/share/card.png');
    expect(await readCacheFile(at('.cache/share/card.png'), project.root)).toBeUndefined();
    expect(readOwnFile(at('.cache/share/card.png'), 1024)).toBeUndefined();
    await writeFile(at('.cache/share/big.png'), Buffer.alloc(2048));
    expect(await readCacheFile(at('.cache/share/big.png'), project.root, 1024)).toBeUndefined();
    expect(readOwnFile(at('.cache/share/big.png'), 1024)).toBeUndefined();
    expect(readOwnFile(at('.cache/share/big.png'), 4096)?.length).toBe(2048);
  });
});

describe('a file over its limit is refused by its size before it is read', () => {
  it('a 3 GB post, a 600 MB page and a 2 MB service, quickly (none is read)', async () => {
    await sparse('content/blog/huge.md', 3 * 1024 ** 3);
    await sparse('content/pages/huge.yaml', 600 * 1024 ** 2);
    await sparse('content/services/big.yaml', 2 * 1024 ** 2);
    await refused(
      [
        ['SF102', 'content/blog/huge.md', 'The file is 3 GB, more than the 1 MB a content file may be'],
        ['SF101', 'content/pages/huge.yaml', 'The file is 600 MB, more than the 1 MB a content file may be'],
        ['SF101', 'content/services/big.yaml', 'The file is 2 MB, more than the 1 MB a content file may be'],
      ],
      10_000,
    );
  }, 60_000);

  it('a 3 GB file and one of 25 MB and a byte in content/images/ are refused, naming each file', async () => {
    await sparse('content/images/huge.jpg', 3 * 1024 ** 3);
    await sparse('content/images/over.png', 25 * 1024 ** 2 + 1);
    await refused(
      [
        ['SF206', 'content/images/huge.jpg', 'The file is 3 GB, more than the 25 MB a file in content/images/ may be'],
        [
          'SF206',
          'content/images/over.png',
          'The file is 26,214,401 bytes, more than the 25 MB a file in content/images/ may be',
        ],
      ],
      10_000,
    );
  }, 60_000);

  it('files of content/images/ up to 25 MB are published (a raster byte for byte)', async () => {
    await sparse('content/images/exactly.png', 25 * 1024 ** 2);
    // Only images are published there (by their first bytes): a PNG's signature, then zeros.
    const png = await open(at('content/images/exactly.png'), 'r+');
    await png.write(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 0, 8, 0);
    await png.close();
    const own = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#123456"/>' +
        '</svg>\n',
    );
    await writeFile(at('content/images/small.svg'), own);
    const built = await runCli(['--root', project.root, 'build', '--precompress']);
    expect(built.code, built.stderr).toBe(0);
    expect((await stat(path.join(dist(), 'images/exactly.png'))).size).toBe(25 * 1024 ** 2);
    // An SVG is published as rebuilt from its allow-list (item 3): the same drawing.
    expect(await readFile(path.join(dist(), 'images/small.svg'), 'utf8')).toMatch(/<rect [^>]*fill="#123456"/);
    expect(existsSync(path.join(dist(), 'images/small.svg.br'))).toBe(true);
  }, 60_000);
});

describe('dev', () => {
  it('reports a post that links to a named pipe, builds on, and stops on the first SIGTERM, ' +
    'its temporary folder removed', async () => {
    const dev = await startDevProcess(cliPath, project.root, 30_000);
    const temp = /Building into (\S+)/.exec(dev.output())![1]!;
    try {
      await mkdir(at('content/drafts'));
      mkfifo('content/drafts/fifo');
      await symlink('../drafts/fifo', at('content/blog/linked.md'));
      await expect
        .poll(() => dev.output(), { timeout: 15_000 })
        .toContain('This is a symbolic link to a named pipe (FIFO), not a file');
      // It still rebuilds: the link gone, the site is built again.
      await rm(at('content/blog/linked.md'));
      await expect.poll(() => dev.output(), { timeout: 15_000 }).toMatch(/Rebuilt after/);
      const exited = new Promise<number | null>((resolve) => dev.child.once('exit', (code) => resolve(code)));
      const stopped = performance.now();
      dev.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(performance.now() - stopped).toBeLessThan(3000);
      expect(existsSync(path.dirname(temp))).toBe(false);
    } finally {
      dev.child.kill('SIGKILL');
    }
  }, 60_000);

  it('stops on the first Ctrl-C in the middle of a long rebuild, without waiting for it', async () => {
    const dev = await startDevProcess(cliPath, project.root, 30_000);
    const temp = /Building into (\S+)/.exec(dev.output())![1]!;
    try {
      // 1,500 posts at once: a rebuild of several seconds.
      const text = await readFile(at('content/blog/tiktok-growth-routine.md'), 'utf8');
      await Promise.all(
        Array.from({ length: 1500 }, (_, i) =>
          writeFile(at(`content/blog/copy-${i}.md`), text.replace(/^slug: .*$/m, `slug: copy-${i}`)),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = new Promise<number | null>((resolve) => dev.child.once('exit', (code) => resolve(code)));
      const stopped = performance.now();
      dev.child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(performance.now() - stopped).toBeLessThan(2500);
      expect(dev.output()).not.toMatch(/Rebuilt after|SF900/);
      expect(existsSync(path.dirname(temp))).toBe(false);
    } finally {
      dev.child.kill('SIGKILL');
    }
  }, 60_000);
});
