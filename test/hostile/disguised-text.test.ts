/**
 * Text that cannot disguise itself (issue 26, item 2), through the real CLI: a right-to-left
 * override (U+202E) in a name, an address, a slug or a path is refused naming the file, the field
 * and the character, and the earlier build is left byte for byte; right-to-left prose with its
 * marks builds; and what the CLI prints from content or from WordPress shows ESC, CR and the
 * other controls escaped, never obeyed, while its own colours still work.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, hashTree, projectsOfThisFile, resetContent, runCli, type CliResult } from '../helpers.js';
import { FakeWordPress, makePosts } from '../support/fake-wordpress.js';

const RLO = '\u202e';
const ESC = '\x1b';
const project = projectsOfThisFile();

/** No raw control or text-direction character reached the terminal (colour codes aside, when asked for). */
function expectNothingRaw(result: CliResult, colour = false): void {
  const printed = result.stdout + result.stderr;
  const withoutColour = colour ? printed.replace(/\x1b\[(?:2|22|31|32|33|36|39)m/g, '') : printed;
  expect(withoutColour).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
}

describe('a right-to-left override in a short field of identity is refused', () => {
  let root: string;
  let distHash: string;
  const dist = () => path.join(root, 'dist');

  beforeAll(async () => {
    ({ root } = await project());
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    distHash = await hashTree(dist());
  });

  /** Back to the repository's content after each case. */
  const restore = () => resetContent(root);

  const cases: { name: string; breakIt: () => Promise<unknown>; env?: Record<string, string>; expect: string[] }[] = [
    {
      name: "the trader's legal name",
      breakIt: () =>
        editFile(root, 'content/trader.yaml', 'legalName: Example Trading Ltd', `legalName: Example ${RLO}Trading Ltd`),
      expect: ['SF103', 'content/trader.yaml:', '› legalName', 'at character 9'],
    },
    {
      name: "a review's author",
      breakIt: () =>
        writeFile(
          path.join(root, 'content/reviews.yaml'),
          `reviews:\n  - { subCategory: 10, author: "Sam ${RLO}K.", date: 2026-10-01, rating: 5, ` +
            'text: Quick and as described. }\n' +
            'checked: Every review is from a customer whose order we delivered, matched to that order.\n',
        ),
      expect: ['SF103', 'content/reviews.yaml:2', '› reviews[0].author'],
    },
    {
      name: "a review platform's name",
      breakIt: () =>
        writeFile(
          path.join(root, 'content/reviews.yaml'),
          `platform: { name: "Trust${RLO}pilot", url: "https://uk.trustpilot.com/review/x", rating: 4.5, ` +
            'count: 10, readOn: 2026-11-01 }\n',
        ),
      expect: ['SF103', 'content/reviews.yaml:1', '› platform.name'],
    },
    {
      name: 'a package label in the catalogue',
      breakIt: () => editFile(root, 'content/catalogue.yaml', 'name: Followers', `name: Fol${RLO}lowers`),
      expect: ['SF103', 'content/catalogue.yaml:', '› platforms[0].sub[0].name'],
    },
    {
      name: "a package's checkout slug",
      breakIt: () => editFile(root, 'content/catalogue.yaml', 'slug: 100-ig-followers', `slug: 100-ig-${RLO}followers`),
      expect: ['SF103', 'content/catalogue.yaml:', '› platforms[0].sub[0].packages[0].slug'],
    },
    {
      name: 'a redirect path',
      breakIt: () =>
        editFile(root, 'content/redirects.yaml', '{ from: /index, to: / }', `{ from: /in${RLO}dex, to: / }`),
      expect: ['SF103', 'content/redirects.yaml:', '› [0].from'],
    },
    {
      name: 'a page path',
      breakIt: () => editFile(root, 'content/pages/about.yaml', 'path: /about', `path: /ab${RLO}out`),
      expect: ['SF103', 'content/pages/about.yaml:1', '› path'],
    },
    {
      name: "a post's slug",
      breakIt: () =>
        editFile(
          root,
          'content/blog/tiktok-growth-routine.md',
          'slug: tiktok-growth-routine',
          `slug: tiktok-${RLO}growth-routine`,
        ),
      expect: ['SF103', 'content/blog/tiktok-growth-routine.md', '› slug'],
    },
    {
      name: 'the brand name, from BRAND_NAME',
      breakIt: async () => undefined,
      env: { BRAND_NAME: `Shop${RLO}Brand` },
      expect: ['SF140', 'environment variable BRAND_NAME', '› brandName', 'The setting brandName contains'],
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, async () => {
      try {
        await testCase.breakIt();
        const result = await runCli(['--root', root, 'build'], testCase.env);
        expect(result.code, result.stderr).toBe(1);
        for (const fragment of [...testCase.expect, 'U+202E RIGHT-TO-LEFT OVERRIDE'])
          expect(result.stderr).toContain(fragment);
        // What to do, and the character shown escaped, never as itself.
        if (testCase.expect[0] === 'SF103')
          expect(result.stderr).toContain('hint: Retype the value without invisible or text-direction characters');
        expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
        expectNothingRaw(result);
        expect(await hashTree(dist())).toBe(distHash);
      } finally {
        await restore();
      }
    });
  }

  it('reports every such field of a pass together', async () => {
    try {
      await editFile(
        root,
        'content/trader.yaml',
        'legalName: Example Trading Ltd',
        `legalName: Example ${RLO}Trading Ltd`,
      );
      await editFile(root, 'content/trader.yaml', 'town: Exampleton', `town: Example\u200bton`);
      await editFile(root, 'content/redirects.yaml', '{ from: /index, to: / }', `{ from: /in${RLO}dex, to: / }`);
      await editFile(root, 'content/catalogue.yaml', 'name: Followers', `name: Fol${RLO}lowers`);
      const result = await runCli(['--root', root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Found 4 problems:/m);
      expect(result.stderr).toContain('› address.town');
      expect(result.stderr).toContain('U+200B ZERO WIDTH SPACE');
      expect(await hashTree(dist())).toBe(distHash);
    } finally {
      await restore();
    }
  });

  it('refuses an override in prose too, but not the marks and isolates right-to-left text needs', async () => {
    try {
      await editFile(root, 'content/pages/about.yaml', 'heading: Why choose us', `heading: "Why ${RLO}choose us"`);
      const result = await runCli(['--root', root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('content/pages/about.yaml:');
      expect(result.stderr).toContain('› sections[1].heading');
      expect(result.stderr).toContain('U+202E RIGHT-TO-LEFT OVERRIDE');
      expect(result.stderr).toContain('hint: Remove it. Right-to-left text may use the marks U+200F and U+200E');
      expect(await hashTree(dist())).toBe(distHash);
    } finally {
      await restore();
    }
  });
});

describe('right-to-left prose', () => {
  it('builds with U+200F marks and a closed isolate in a page, kept as written', async () => {
    const { root } = await project();
    // "Welcome to our shop (Example)." in Arabic, and in Hebrew with a name in an isolate.
    const arabic = 'مرحبًا بكم في متجرنا\u200f (Example)\u200f.';
    const hebrew = 'ברוכים הבאים לחנות \u2067Example Shop\u2069\u200f.';
    await editFile(
      root,
      'content/pages/about.yaml',
      'intro: The business you buy from when you order on this site, and where to write to it.',
      `intro: "${arabic} ${hebrew}"`,
    );
    const result = await runCli(['--root', root, 'build']);
    expect(result.code, result.stderr).toBe(0);
    const html = await readFile(path.join(root, 'dist', 'about', 'index.html'), 'utf8').catch(() =>
      readFile(path.join(root, 'dist', 'about.html'), 'utf8'),
    );
    expect(html).toContain(arabic);
    expect(html).toContain(hebrew);
  });
});

describe('what the CLI prints shows controls escaped', () => {
  it('a content problem carrying ESC[2J and a CR: escaped, its own colours still written', async () => {
    const { root } = await project();
    // A key that is no field of the file: the problem's message names it as it is.
    await editFile(
      root,
      'content/trader.yaml',
      'legalName: Example Trading Ltd',
      'legalName: Example Trading Ltd\n"\\e[2J\\e]0;pwned\\a\\rSF000 all good": x',
    );
    for (const colour of [false, true]) {
      const result = await runCli(['--root', root, 'build'], colour ? { NO_COLOR: '', FORCE_COLOR: '1' } : {});
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('content/trader.yaml');
      expect(result.stderr).toContain('Unknown field \\x1b[2J\\x1b]0;pwned\\x07\\rSF000 all good.');
      expect(result.stderr).not.toContain(`${ESC}[2J`);
      expect(result.stderr).not.toMatch(/^SF000/m);
      if (colour) expect(result.stderr).toContain(`${ESC}[31mSF103${ESC}[39m`);
      expectNothingRaw(result, colour);
    }
  });

  it(
    'a control character in prose is refused by name, ' +
      'and a line break in a field name cannot print a line of its own',
    async () => {
      const { root } = await project();
      await editFile(root, 'content/pages/about.yaml', 'heading: Why choose us', 'heading: "Why\\rSF000 choose us"');
      await editFile(
        root,
        'content/trader.yaml',
        'legalName: Example Trading Ltd',
        'legalName: Example Trading Ltd\n"x\\nSF000  forged line": x',
      );
      const result = await runCli(['--root', root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('U+000D CARRIAGE RETURN');
      expect(result.stderr).toContain('Unknown field x\\nSF000  forged line.');
      expect(result.stderr).not.toMatch(/^\s*SF000/m);
      expectNothingRaw(result);
    },
  );

  describe('WordPress', () => {
    /** WordPress answering the posts with an error whose message carries controls, when told to. */
    class HostileWordPress extends FakeWordPress {
      refuseWith: string | undefined;
      protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        if (this.refuseWith !== undefined && (req.url ?? '').startsWith('/wp-json/wp/v2/posts')) {
          res.writeHead(403, { 'Content-Type': 'application/json; charset=UTF-8' });
          res.end(JSON.stringify({ code: 'rest_forbidden', message: this.refuseWith, data: { status: 403 } }));
          return;
        }
        return super.handle(req, res);
      }
    }
    const hostileTitle = `Sale${ESC}]0;pwned${ESC}\\${ESC}[2J\rSF000 all good ${RLO}txt.exe`;
    let wp: HostileWordPress;
    let root: string;

    beforeAll(async () => {
      const posts = makePosts(3).map((post, i) => (i === 0 ? { ...post, title: hostileTitle } : post));
      wp = await new HostileWordPress(posts).start();
      ({ root } = await project());
    });
    afterAll(() => wp?.stop());

    const build = (...extra: string[]) =>
      runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--cms-timeout', '2000', '--cms-retries', '0', ...extra]);

    it(
      'a post titled with ESC, CR and an override is refused by name (issue 35), ' + 'and nothing raw is printed',
      async () => {
        const result = await build();
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('The post 1 (growth-note-1) has U+001B ESCAPE in its title after "Sale"');
        expectNothingRaw(result);
        // --stale-ok leaves it out with a warning, and keeps the posts' copy the next case falls back to.
        // The other posts' images are fetched now: a longer timeout, so that a busy machine does not fail it.
        const stale = await build('--stale-ok', '--cms-timeout', '20000');
        expect(stale.code, stale.stderr).toBe(0);
        expect(stale.stderr).toContain('WARNING: SF204');
        expectNothingRaw(stale);
      },
    );

    it("WordPress's error carrying the title: the problem, and the --stale-ok warning, show it escaped", async () => {
      wp.refuseWith = `Sorry, the post “${hostileTitle}” is private.`;
      const escaped = 'Sale\\x1b]0;pwned\\x1b\\\\x1b[2J\\rSF000 all good \\u202etxt.exe';
      const failed = await build();
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('SF201');
      expect(failed.stderr).toContain(escaped);
      expect(failed.stderr).not.toMatch(/^\s*SF000/m);
      expectNothingRaw(failed);

      const stale = await build('--stale-ok');
      expect(stale.code, stale.stderr).toBe(0);
      expect(stale.stderr).toMatch(/WARNING: the CMS could not be reached .*rest_forbidden/);
      expect(stale.stderr).toContain(escaped);
      expect(stale.stderr).not.toMatch(/^\s*SF000/m);
      expectNothingRaw(stale);
    });
  });
});
