// The global flags and the error format on every command, through the real CLI: exit codes of
// help and version, flag errors commander finds, --quiet on check, --verbose on preview.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, repoRoot, runCli, startPreviewProcess } from '../helpers.js';

describe('exit codes', () => {
  it('help and version exit 0; no command prints the help and exits 1', async () => {
    const help = await runCli(['build', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: storefront build');
    // The global options are listed under every command.
    expect(help.stdout).toContain('--quiet');
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const none = await runCli([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Usage: storefront');
  });
});

describe('a rejected command line', () => {
  it.each([
    [['build', '--cms'], '--cms', 'argument missing'],
    [['build', 'extra'], 'build', 'too many arguments'],
    [['--root', path.join(repoRoot, 'no-such-folder'), 'build'], '--root', 'does not exist'],
    [['build', '--quiet', '--verbose'], '--quiet', 'cannot be used with'],
  ])('%j is SF170 with the flag, a hint, exit 1 and no help dump', async (args, subject, words) => {
    const result = await runCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Found a problem:\n\n {2}SF170 {2}/);
    expect(result.stderr).toContain(`SF170  ${subject}`);
    expect(result.stderr).toContain(words);
    expect(result.stderr).toContain('hint: ');
    expect(result.stderr).not.toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it.each([
    [
      ['biuld'],
      'biuld',
      "unknown command 'biuld'. Did you mean build?",
      'hint: Write build instead of biuld; `storefront --help` lists the commands.',
    ],
    [
      ['build', '--otu', 'x'],
      '--otu',
      "unknown option '--otu'. Did you mean --out?",
      'hint: Write --out instead of --otu; `storefront build --help`',
    ],
    [
      ['catalogue', 'pul'],
      'pul',
      "unknown command 'pul'. Did you mean pull?",
      'hint: Write pull instead of pul; `storefront catalogue --help`',
    ],
    [
      ['build', '--target', 'netlfy'],
      '--target',
      'Allowed choices are netlify, cloudflare, github-pages, nginx, static. Did you mean netlify?',
      'hint: Write netlify instead of netlfy;',
    ],
  ])(
    '%j: the guess joins the message, indented like every line of the problem',
    async (args, subject, message, hint) => {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Found a problem:\n\n  SF170  ${subject}\n  `);
      expect(result.stderr).toContain(`${message}\n  ${hint}`);
      expect(result.stderr).not.toContain('(Did you mean');
      expect(result.stderr).not.toContain('\\n');
      // Under the heading, every line is empty or indented.
      for (const line of result.stderr.trimEnd().split('\n').slice(1))
        expect(line, result.stderr).toMatch(/^(| {2}\S.*)$/);
    },
  );

  it('--debug adds a stack trace', async () => {
    const result = await runCli(['--debug', 'build', '--nope']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF170');
    expect(result.stderr).toMatch(/^\s+at /m);
  });
});

describe('global flags on the other commands', () => {
  let project: Awaited<ReturnType<typeof builtProject>>;
  beforeAll(async () => {
    project = await builtProject(['--quiet']);
  });
  afterAll(() => project?.cleanup());

  it('check --quiet prints the problems only', async () => {
    const result = await runCli([
      'check',
      '--quiet',
      '--out',
      path.join(repoRoot, 'test', 'fixtures', 'check-broken-site'),
    ]);
    expect(result.code).toBe(1);
    // Not the list of external links it prints otherwise.
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Found \d+ problems:/);
  });

  it('preview --verbose prints every request it answers', async () => {
    const preview = await startPreviewProcess(['--verbose', '--out', path.join(project.root, 'dist'), '--port', '0']);
    try {
      let stderr = '';
      preview.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      expect((await fetch(`${preview.url}/about`)).status).toBe(200);
      expect((await fetch(`${preview.url}/no-such-page`)).status).toBe(404);
      // Printed when each response has finished, which may be after fetch has resolved.
      await expect.poll(() => stderr).toContain('200 GET /about');
      await expect.poll(() => stderr).toContain('404 GET /no-such-page');
    } finally {
      await preview.stop();
    }
  });
});
