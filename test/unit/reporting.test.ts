// The pieces of the CLI's output on their own, where every case can be set up exactly: how
// often plain progress lines come, when colour and redrawing are allowed, the --verbose stage
// lines scripts/bench.mjs reads, and errors that are not the user's (SF900, SF901).
import { describe, expect, it } from 'vitest';
import type { BuildSummary } from '../../src/build.js';
import { stageLines, summaryDetail } from '../../src/cli/build-report.js';
import { plainPalette } from '../../src/cli/colours.js';
import { ProgressDisplay } from '../../src/cli/progress.js';
import { formatError } from '../../src/cli/report-error.js';
import { canRedraw, wantsColour } from '../../src/cli/terminal.js';
import { StorefrontError } from '../../src/errors/storefront-error.js';
import { codeFrame } from '../../src/util/code-frame.js';
import { editDistance, nearest } from '../../src/util/nearest.js';

function plainLines(total: number, minStep = 1): string[] {
  const written: string[] = [];
  const display = new ProgressDisplay('lines', { write: (text: string) => written.push(text) });
  for (let done = 1; done <= total; done++)
    display.update('render', `Rendering pages: ${done} of ${total}`, done, total, minStep);
  return written;
}

describe('plain progress lines', () => {
  it('are one per tenth of the work and one for the end, however much work there is', () => {
    const lines = plainLines(40_000, 100);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('Rendering pages: 4000 of 40000\n');
    expect(lines.at(-1)).toBe('Rendering pages: 40000 of 40000\n');
    expect(lines.join('')).not.toMatch(/[\r\x1b]/);
  });

  it('are not printed for less than the least step, except the last', () => {
    expect(plainLines(20, 100)).toEqual(['Rendering pages: 20 of 20\n']);
    // The CMS fetch: every page of a short fetch has its line (test/cms expects "page 3 of 3").
    expect(plainLines(3)).toHaveLength(3);
  });

  it('are none with --quiet', () => {
    const written: string[] = [];
    const display = new ProgressDisplay('off', { write: (text: string) => written.push(text) });
    display.update('render', 'Rendering pages: 1 of 1', 1, 1);
    display.status('Reading');
    expect(written).toEqual([]);
  });
});

describe('the bar on a terminal', () => {
  it('is redrawn in place, lifted off for other output, and erased at the end', () => {
    let screen = '';
    const display = new ProgressDisplay('bar', { write: (text: string) => (screen += text), columns: 80 });
    for (let done = 1; done <= 1000; done++) display.update('render', `Rendering pages: ${done} of 1000`, done, 1000);
    // Once per percent, not once per page.
    expect(screen.split('\r\x1b[2K').length - 1).toBeLessThanOrEqual(101);
    expect(screen).toContain('Rendering pages: 1000 of 1000');
    expect(screen).toMatch(/█{30} 100%$/);
    display.end();
    expect(screen.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('never wraps a narrow terminal', () => {
    let last = '';
    const display = new ProgressDisplay('bar', { write: (text: string) => (last = text), columns: 24 });
    display.update('render', 'Rendering pages: 1200 of 4000', 1200, 4000);
    expect(last.replace('\r\x1b[2K', '').length).toBeLessThan(24);
  });
});

describe('terminal decisions', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it('colour: a terminal, never with NO_COLOR, forced by FORCE_COLOR', () => {
    expect(wantsColour(tty, {})).toBe(true);
    expect(wantsColour(pipe, {})).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '' })).toBe(true); // empty is unset (no-color.org)
    expect(wantsColour(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColour(pipe, { FORCE_COLOR: '0' })).toBe(false);
    expect(wantsColour(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('redrawing: a terminal outside CI', () => {
    expect(canRedraw(tty, {})).toBe(true);
    expect(canRedraw(pipe, {})).toBe(false);
    expect(canRedraw(tty, { CI: 'true' })).toBe(false);
    expect(canRedraw(tty, { CI: '1' })).toBe(false);
    expect(canRedraw(tty, { CI: 'false' })).toBe(true);
    expect(canRedraw(tty, { FORCE_COLOR: '1' })).toBe(true);
  });
});

const summary: BuildSummary = {
  pages: 320,
  pagesByKind: {
    page: 3,
    service: 10,
    text: 2,
    'blog-list': 4,
    'blog-post': 300,
    'not-found': 1,
  } as BuildSummary['pagesByKind'],
  pagesRendered: 320,
  files: 351,
  bytes: 3_400_000,
  warnings: [],
  blog: { source: 'network', posts: 300, fetchMs: 1200, notes: [] },
  target: { name: 'static', why: 'the default; --target names a host' },
  stages: [
    { name: 'config', ms: 12 },
    { name: 'content', ms: 93 },
    { name: 'routes', ms: 4 },
    { name: 'cms', ms: 1210 },
    { name: 'routes', ms: 5 },
    { name: 'render', ms: 240 },
    { name: 'write', ms: 120 },
  ],
  totalMs: 1700,
  outDir: '/tmp/site/dist',
};

describe('the build summary', () => {
  it('--verbose: scripts/bench.mjs finds every stage and takes nothing else for one', () => {
    const stderr = stageLines(summary, 'content/blog').join('\n');
    // The pattern of scripts/bench.mjs, as it reads stderr.
    const found = [...stderr.matchAll(/^\s+(\w+)\s+([\d.]+) s$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(found).toEqual(summary.stages.map((stage) => [stage.name, Number((stage.ms / 1000).toFixed(3))]));
    expect(stderr).toContain('300 posts fetched from the CMS');
    expect(stderr).toContain('320 pages rendered (1333 a second)');
    expect(stderr).toContain('351 files written (3.2 MB)');
  });

  it('by default: each stage once', () => {
    const [stages] = summaryDetail(summary, plainPalette);
    expect(stages).toBe(
      '  stages: config 0.01 s · content 0.09 s · routes 0.01 s · cms 1.21 s · render 0.24 s · write 0.12 s',
    );
  });
});

describe('errors that are not the user’s', () => {
  it('a bug is SF900, with the advice to rerun with --debug and report it, and no stack', () => {
    const text = formatError(new TypeError("Cannot read properties of undefined (reading 'slug')"), false);
    expect(text).toContain('SF900  internal error');
    expect(text).toContain(
      "An unexpected error stopped the command: TypeError: Cannot read properties of undefined (reading 'slug')",
    );
    expect(text).toMatch(/hint: .*--debug.*report it/);
    expect(text).not.toMatch(/^\s+at /m);
  });

  it('--debug adds the stack of what was thrown', () => {
    expect(formatError(new Error('boom'), true)).toMatch(/^\s+at /m);
  });

  it('a refusal of the operating system is SF901, with the path and a hint', () => {
    const err = Object.assign(new Error("ENOSPC: no space left on device, write '/srv/dist/a.html'"), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/srv/dist/a.html',
    });
    const text = formatError(err, false);
    expect(text).toContain('SF901  /srv/dist/a.html');
    expect(text).toContain('hint: The disk is full');
  });
});

describe('a code frame', () => {
  const text = 'claims:\n  startTime about 15 minutes\n  growthWindow: 24 to 48 hours\n';

  it('is the line before, the line marked, a caret under the column, the line after', () => {
    expect(codeFrame(text, 2, 3)).toEqual([
      '  1 | claims:',
      '> 2 |   startTime about 15 minutes',
      '    |   ^',
      '  3 |   growthWindow: 24 to 48 hours',
    ]);
    // The first and the last line have no line before or after; line numbers are aligned.
    expect(codeFrame(text, 1, 1)).toEqual(['> 1 | claims:', '    | ^', '  2 |   startTime about 15 minutes']);
    expect(codeFrame(`${'x: 1\n'.repeat(9)}y: [\n`, 10, 4)).toEqual(['   9 | x: 1', '> 10 | y: [', '     |    ^']);
    expect(codeFrame(text, 9, 1)).toEqual([]);
  });

  it('shows controls escaped, with the caret still under its character, and cuts a long line around it', () => {
    const [, marked, caret] = codeFrame('a: 1\nb: "\x1b[2J" x\n', 2, 11);
    expect(marked).toBe('> 2 | b: "\\x1b[2J" x');
    expect(caret!.indexOf('^') - caret!.indexOf('|')).toBe(marked!.indexOf(' x') + 1 - marked!.indexOf('|'));
    const [long, under] = codeFrame(`k: ${'y'.repeat(500)}: z`, 1, 504);
    expect(long!.length).toBeLessThan(120);
    expect(long![under!.indexOf('^')]).toBe(':');
  });

  it('is printed under the message, escaped like the rest of the problem', () => {
    const text = formatError(
      new StorefrontError({
        code: 'SF101',
        file: 'content/site.yaml',
        line: 2,
        column: 3,
        message: 'The YAML cannot be read.',
        frame: ['> 2 | a\x1b[2J', '    |   ^'],
        hint: 'Fix it.',
      }),
      false,
    );
    expect(text).toContain(
      '  SF101  content/site.yaml:2:3\n  The YAML cannot be read.\n  > 2 | a\\x1b[2J\n      |   ^\n  hint: Fix it.',
    );
  });
});

describe('the nearest known word', () => {
  it('is at most two edits away (one for a short word), a swap of neighbours one edit, case ignored', () => {
    expect(editDistance('pirce', 'price')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(nearest('pirce', ['id', 'quantity', 'price', 'slug'])).toBe('price');
    expect(nearest('cardz', ['steps', 'cards', 'prose'])).toBe('cards');
    expect(nearest('Price', ['price'])).toBe('price');
    expect(nearest('breadcrumbs', ['breadcrumb', 'title'])).toBe('breadcrumb');
    expect(nearest('ratingLine', ['heading', 'intro', 'buttons'])).toBeUndefined();
    expect(nearest('x', ['q', 'a'])).toBeUndefined();
    expect(nearest('fo', ['to', 'of'])).toBe('to');
  });
});
