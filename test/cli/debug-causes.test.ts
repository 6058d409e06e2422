// A problem made of another error (a refusal of the system wrapped into SF160) keeps it as its
// cause: --debug prints the stack of what was thrown, then each cause's after "Caused by:";
// without --debug the output is the problems alone, as it always was. Through the real CLI: a
// build whose page has a file name the disk refuses (ENAMETOOLONG).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatError } from '../../src/cli/report-error.js';
import { problem } from '../../src/errors/catalogue.js';
import { StorefrontError } from '../../src/errors/storefront-error.js';
import { runCli, tempProject } from '../helpers.js';

let project: Awaited<ReturnType<typeof tempProject>>;
// Not in CI: a CI runner's build also warns of the example address, and this test holds the whole output.
const NOT_CI = { CI: '' };

beforeAll(async () => {
  project = await tempProject();
  // A second page like About, at an address of 300 characters: its file name is too long.
  const about = await readFile(path.join(project.root, 'content/pages/about.yaml'), 'utf8');
  await writeFile(
    path.join(project.root, 'content/pages/long.yaml'),
    about.replace(/^path: \/about$/m, `path: /${'c'.repeat(300)}`),
  );
});
afterAll(() => project?.cleanup());

describe('a wrapped error through the CLI', () => {
  it('without --debug: the problem, its hint and the footer, and nothing of the cause', async () => {
    const result = await runCli(['--root', project.root, 'build'], NOT_CI);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'Found a problem:',
        '',
        `  SF160  ${path.join(project.root, 'dist')}`,
        '  The output could not be written: a file or folder name is longer than the disk allows (255 bytes): ' +
          `${'c'.repeat(100)}… (305 bytes).`,
        '  hint: Shorten the path of the page (content/pages/) or redirect that makes it.',
        '',
        'The output folder was not changed: it holds the previous build, if there was one.',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it("with --debug: the same, then the problem's stack, then the system's error and its stack", async () => {
    const plain = await runCli(['--root', project.root, 'build'], NOT_CI);
    const result = await runCli(['--root', project.root, 'build', '--debug'], NOT_CI);
    expect(result.code).toBe(1);
    // The problems first, as without --debug.
    expect(result.stderr.startsWith(plain.stderr.replace(/\n$/, ''))).toBe(true);
    const debug = result.stderr.slice(plain.stderr.length);
    expect(debug).toMatch(/^\nStorefrontError: SF160 The output could not be written: .*\n {4}at /);
    expect(debug).toMatch(/\nCaused by: Error: ENAMETOOLONG: name too long, open '[^']*c{200}[^']*\.html'\n {4}at /);
    // The cause's stack comes after the problem's, and goes down to where the file was written.
    const caused = debug.indexOf('Caused by:');
    expect(debug.indexOf('    at ')).toBeLessThan(caused);
    expect(debug.slice(caused)).toMatch(/\n {4}at writeFileSync /);
  }, 60_000);
});

describe('formatError with --debug', () => {
  const wrapped = (cause: unknown) =>
    new StorefrontError(problem('outputDiskReadOnly', {}, { file: 'dist' }), undefined, { cause });

  it('prints each cause of a chain once, each after "Caused by:"', () => {
    const root = new Error('the first');
    const middle = new Error('the second', { cause: root });
    const text = formatError(wrapped(middle), true);
    expect(text.match(/^Caused by: Error: the (first|second)$/gm)).toEqual([
      'Caused by: Error: the second',
      'Caused by: Error: the first',
    ]);
    expect(formatError(wrapped(middle), false)).not.toContain('Caused by');
  });

  it('stops at a cause seen before, and prints a cause that is no error as it is', () => {
    const loop = new Error('a loop');
    loop.cause = loop;
    expect(formatError(wrapped(loop), true).match(/Caused by/g)).toHaveLength(1);
    expect(formatError(wrapped('ENOSPC\x1b[2J'), true)).toContain('Caused by: ENOSPC\\x1b[2J');
  });
});
