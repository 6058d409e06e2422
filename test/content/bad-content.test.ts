/**
 * One failing fixture per way bad content must be rejected. Each case copies the real content
 * into a temporary project, breaks exactly one thing, runs the real CLI and checks that the
 * message names the file and the field, that no stack trace is printed, and that the output of
 * an earlier, good build is left exactly as it was.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFile, hashTree, runCli, tempProject } from '../helpers.js';

interface Case {
  name: string;
  breakIt: (root: string) => Promise<void>;
  /** Strings the error output must contain: code, file, field, and what is wrong. */
  expect: string[];
}

const cases: Case[] = [
  {
    name: 'malformed YAML',
    breakIt: (root) => editFile(root, 'content/services/buy-instagram-likes.yaml', 'subCategory: 11', 'subCategory: 11\n  bad: [unclosed'),
    expect: ['SF101', 'content/services/buy-instagram-likes.yaml:', 'YAML cannot be read'],
  },
  {
    name: 'malformed front matter',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', 'slug: tiktok-growth-routine', 'slug: "tiktok-growth-routine'),
    expect: ['SF102', 'content/blog/tiktok-growth-routine.md'],
  },
  {
    name: 'missing required field',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', /^title: .*\n/m, ''),
    expect: ['SF103', 'content/services/buy-instagram-likes.yaml', '› title', 'required field is missing'],
  },
  {
    name: 'duplicate product id',
    breakIt: (root) =>
      editFile(root, 'content/catalogue.yaml', '{ id: 1002, quantity: 250', '{ id: 1001, quantity: 250'),
    expect: ['SF110', 'content/catalogue.yaml', 'platforms[0].sub[0].packages[1].id', 'Product id 1001 is already used'],
  },
  {
    name: 'checkout slug naming another quantity',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'slug: 10k-ig-followers', 'slug: 1000-ig-followers'),
    expect: ['SF111', 'content/catalogue.yaml', 'platforms[0].sub[0].packages[6].slug', 'names 1,000, but the package is 10,000'],
  },
  {
    name: 'price with three decimals',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 1.89,', 'price: 1.899,'),
    expect: ['SF112', 'content/catalogue.yaml', 'platforms[0].sub[0].packages[0].price', '1.899'],
  },
  {
    name: 'price that is not positive',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 5.49,', 'price: -5.49,'),
    expect: ['SF112', 'platforms[0].sub[0].packages[2].price'],
  },
  {
    name: 'cross-sell to an unknown service',
    breakIt: (root) => editFile(root, 'content/services/buy-instagram-likes.yaml', 'crossSells: [10, 12]', 'crossSells: [10, 99]'),
    expect: ['SF113', 'content/services/buy-instagram-likes.yaml', 'crossSells[1]', 'Cross-sell 99'],
  },
  {
    name: 'page pointing to an unknown sub-category',
    breakIt: (root) => editFile(root, 'content/services/buy-instagram-likes.yaml', 'subCategory: 11', 'subCategory: 19'),
    expect: ['SF113', 'content/services/buy-instagram-likes.yaml', '› subCategory', 'Sub-category 19'],
  },
  {
    name: 'two routes with the same path',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'path: /buy-instagram-likes', 'path: /buy-instagram-followers'),
    expect: ['SF120', 'buy-instagram', '› path', 'The path /buy-instagram-followers is already the route of'],
  },
  {
    name: 'internal link to a path that is not a route',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        '**Buy Now** takes you to our secure checkout. See [followers](/buy-instagrm-folowers).',
      ),
    expect: ['SF121', 'content/services/buy-instagram-likes.yaml', '› packagesNote', '/buy-instagrm-folowers', 'hint:'],
  },
  {
    name: 'unknown token',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'within {{startTime}}.', 'within {{startTme}}.'),
    expect: ['SF104', 'content/services/buy-instagram-likes.yaml', '› description', '{{startTme}}'],
  },
  {
    name: 'redirect to a page that does not exist',
    breakIt: (root) => editFile(root, 'content/redirects.yaml', 'to: /buy-youtube-views }', 'to: /buy-youtube-veiws }'),
    expect: ['SF122', 'content/redirects.yaml', '[2].to', '/buy-youtube-veiws'],
  },
  {
    name: 'blog slug that is not one path segment',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', 'slug: tiktok-growth-routine', 'slug: ../tiktok'),
    expect: ['SF124', 'content/blog/tiktok-growth-routine.md', '› slug', 'cannot be a page address'],
  },
];

describe('bad content is rejected, every problem named, dist/ untouched', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let distHash: string;
  const out = () => path.join(project.root, 'dist');

  beforeEach(async () => {
    project = await tempProject();
    const good = await runCli(['--root', project.root, 'build']);
    expect(good.code, good.stderr).toBe(0);
    // A file no build writes: it must survive a failed build.
    await mkdir(path.join(out(), 'marker'), { recursive: true });
    await writeFile(path.join(out(), 'marker', 'earlier.txt'), 'from an earlier build');
    distHash = await hashTree(out());
  });

  afterEach(async () => {
    await project.cleanup();
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      await testCase.breakIt(project.root);
      const result = await runCli(['--root', project.root, 'build']);
      expect(result.code).toBe(1);
      for (const fragment of testCase.expect) expect(result.stderr).toContain(fragment);
      expect(result.stderr).toContain('hint:');
      expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(await hashTree(out())).toBe(distHash);
    });
  }

  it('reports every problem of a pass, not only the first', async () => {
    await editFile(project.root, 'content/catalogue.yaml', 'price: 1.89,', 'price: 1.899,');
    await editFile(project.root, 'content/catalogue.yaml', '{ id: 1002, quantity: 250', '{ id: 1001, quantity: 250');
    await editFile(project.root, 'content/catalogue.yaml', 'slug: 10k-ig-followers', 'slug: 1000-ig-followers');
    const catalogueRun = await runCli(['--root', project.root, 'build']);
    expect(catalogueRun.stderr).toContain('The build found 3 problems');
    for (const code of ['SF110', 'SF111', 'SF112']) expect(catalogueRun.stderr).toContain(code);

    // Schema problems in several files are reported together too.
    await editFile(project.root, 'content/services/buy-instagram-likes.yaml', /^title: .*\n/m, '');
    await editFile(project.root, 'content/services/buy-tiktok-likes.yaml', /^breadcrumb: .*\n/m, 'breadcrumbs: Typo\n');
    const schemaRun = await runCli(['--root', project.root, 'build']);
    expect(schemaRun.code).toBe(1);
    expect(schemaRun.stderr).toContain('buy-instagram-likes.yaml:');
    expect(schemaRun.stderr).toContain('› title');
    expect(schemaRun.stderr).toContain('buy-tiktok-likes.yaml');
    expect(schemaRun.stderr).toContain('Unknown field breadcrumbs');
    expect(await hashTree(out())).toBe(distHash);
  });
});
