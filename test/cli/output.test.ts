// What the CLI prints, through the real CLI: progress on a terminal and off one, colours and
// NO_COLOR, --quiet and --verbose, and the one format of every error.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli, tempProject } from '../helpers.js';

const POSTS = 300;
const ESC = '\x1b[';
let project: Awaited<ReturnType<typeof tempProject>>;
const build = (...args: string[]) => ['--root', project.root, 'build', '--posts', 'posts', '--out', 'dist', ...args];

beforeAll(async () => {
  project = await tempProject();
  await mkdir(path.join(project.root, 'posts'));
  for (let i = 1; i <= POSTS; i++) {
    const date = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
    await writeFile(
      path.join(project.root, 'posts', `post-${i}.md`),
      `---\ntitle: "Post ${i}"\ndate: ${date}\nslug: post-${i}\nexcerpt: "Excerpt ${i}."\n---\nBody ${i}.\n`,
    );
  }
});
afterAll(() => project?.cleanup());

describe('progress', () => {
  it('is a few plain lines when the output is not a terminal: no redrawing, no colour', async () => {
    const result = await runCli(build());
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('Rendering pages:'));
    const total = POSTS + 45; // the posts, their 25 list pages, and the site's pages
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(11);
    expect(lines.at(-1)).toMatch(/^Rendering pages: (\d+) of \1$/);
    expect(Number(/of (\d+)/.exec(lines.at(-1)!)![1])).toBeGreaterThan(total - 30);
    expect(result.stderr).not.toContain('\r');
    expect(result.stderr + result.stdout).not.toContain(ESC);
  });

  it('is a bar redrawn in place on a terminal, and plain lines there too when CI is set', async () => {
    // `script` runs the CLI on a pseudo-terminal, as a person at a terminal would.
    const onTerminal = (env: Record<string, string | undefined>) =>
      new Promise<string>((resolve, reject) => {
        const command = `${process.execPath} ${cliPath} ${build().join(' ')}`;
        execFile(
          'script',
          ['-qec', command, '/dev/null'],
          { env: { ...env, PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm' } },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        );
      });
    const terminal = await onTerminal({});
    expect(terminal).toContain('\r');
    expect(terminal).toMatch(/Rendering pages: \d+ of \d+\s+[█░]+\s+\d+%/);
    expect(terminal).toContain(`${ESC}32mBuilt`); // the summary in green
    const ci = await onTerminal({ CI: 'true' });
    expect(ci).not.toMatch(/[█░]/);
    expect(ci).toMatch(/^Rendering pages: \d+ of \d+\r?$/m);
  });
});

describe('colours', () => {
  it('are used where forced, and never when NO_COLOR is set', async () => {
    const forced = await runCli(['build', '--nope'], { NO_COLOR: '', FORCE_COLOR: '1' });
    expect(forced.stderr).toContain(`${ESC}31mSF170`);
    const both = await runCli(['build', '--nope'], { NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(both.stderr).toContain('SF170');
    expect(both.stderr).not.toContain(ESC);
  });
});

describe('--quiet and --verbose', () => {
  it('--quiet prints nothing when all is well, and only the problem when it is not', async () => {
    const ok = await runCli(build('--quiet'));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toBe('');
    const failed = await runCli([
      '--root',
      project.root,
      '--quiet',
      'build',
      '--posts',
      'no-such-folder',
      '--cms',
      'not a url',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^Found (a problem|\d+ problems):/);
  });

  it('--verbose adds the time and the work of each stage', async () => {
    const result = await runCli(build('--verbose'));
    expect(result.code).toBe(0);
    for (const stage of ['config', 'content', 'routes', 'render', 'write']) {
      expect(result.stderr).toMatch(new RegExp(`^  ${stage}\\s+[\\d.]+ s$`, 'm'));
    }
    expect(result.stderr).toContain(`${POSTS} posts from posts`);
    expect(result.stdout).toMatch(/^Built \d+ pages \(.*\) and \d+ other files/);
    expect(result.stdout).toMatch(/stages: config [\d.]+ s · content/);
  });

  it('--quiet and --verbose together are refused', async () => {
    const result = await runCli(['--quiet', '--verbose', 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF170');
  });
});

describe('errors', () => {
  it.each([
    [['build', '--nope'], '--nope', 'storefront build --help'],
    [['preview', '--port', 'abc'], '--port', 'storefront preview --help'],
    [['deploy'], 'deploy', 'storefront --help'],
  ])('a rejected command line (%j) has a code, the flag, a hint and no stack', async (args, subject, hint) => {
    const result = await runCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`SF170  ${subject.replace(/-/g, '\\-')}`));
    expect(result.stderr).toContain(`hint: \`${hint}\``);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('a port in use is a problem with a code and a hint, not a stack trace', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as { port: number }).port;
      await runCli(build());
      const result = await runCli(['--root', project.root, 'preview', '--out', 'dist', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SF901');
      expect(result.stderr).toContain(`127.0.0.1:${port}`);
      expect(result.stderr).toContain('hint: Another program listens on this port');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
