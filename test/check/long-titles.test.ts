/**
 * `storefront check` warns of every page whose <title> is over 60 characters (issue 33): the
 * page, the length, the title and what to shorten; a warning, so the exit code stays 0.
 * One temporary project: every content title made short, then one made long and rebuilt.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTitle } from '../../src/check/page-titles.js';
import { editFile, runCli, tempProject } from '../helpers.js';

const BRAND = 'Test Brand';
const env = { BRAND_NAME: BRAND };
const LONG = 'Buy TikTok Likes & Views – a title made long on purpose for this test';
const SERVICE_FILE = 'content/services/buy-tiktok-likes.yaml';

let project: Awaited<ReturnType<typeof tempProject>>;

async function buildAndCheck(): Promise<Awaited<ReturnType<typeof runCli>>> {
  const built = await runCli(['--root', project.root, 'build'], env);
  expect(built.code, built.stderr).toBe(0);
  return runCli(['--root', project.root, 'check'], env);
}

beforeAll(async () => {
  project = await tempProject();
  // Every page's own title short (`Page 1`...), whatever the real content says today.
  let n = 0;
  for (const dir of ['content/pages', 'content/services', 'content/blog']) {
    for (const file of await readdir(path.join(project.root, dir))) {
      if (!/\.(ya?ml|md)$/.test(file)) continue;
      const absolute = path.join(project.root, dir, file);
      const text = await readFile(absolute, 'utf8');
      await writeFile(
        absolute,
        text.replace(/^title: .*$/m, () => `title: Page ${++n}`),
      );
    }
  }
  expect(n).toBeGreaterThanOrEqual(18);
});

afterAll(async () => {
  await project?.cleanup();
});

describe('check: titles over 60 characters', () => {
  it('does not warn when every title is 60 characters or fewer', async () => {
    const result = await runCli(['--root', project.root, 'build'], env);
    expect(result.code, result.stderr).toBe(0);
    const html = await readFile(path.join(project.root, 'dist', 'buy-tiktok-likes.html'), 'utf8');
    expect(pageTitle(html)).toMatch(/^Page \d+ \| Test Brand$/);
    const check = await runCli(['--root', project.root, 'check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).not.toMatch(/warning|<title>/i);
    expect(check.stdout).toMatch(/Checked \d+ pages and \d+ links: no broken links/);
  });

  it('warns of a long title with the page, its length and the title, and still exits 0', async () => {
    await editFile(project.root, SERVICE_FILE, /^title: .*$/m, `title: "${LONG}"`);
    const result = await buildAndCheck();
    expect(result.code, result.stderr).toBe(0);
    const full = `${LONG} | ${BRAND}`;
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('on /buy-tiktok-likes › <title>');
    // The length a reader counts: the entity &amp; is one character, the dash one.
    expect(lines[0]).toContain(`The title is ${[...full].length} characters, over 60: "${full}"`);
    expect(lines[0]).toContain('shorten the `title:` field');
    expect(result.stdout).toMatch(/Checked \d+ pages and \d+ links: no broken links/);
  });

  it('prints no warning with --quiet, and exits 0', async () => {
    const result = await runCli(['--root', project.root, '--quiet', 'check'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('pageTitle', () => {
  it('reads the text of <title> as a visitor sees it', () => {
    expect(pageTitle('<head><title>Tom &amp; Jerry&#x27;s – shop | Brand</title></head>')).toBe(
      "Tom & Jerry's – shop | Brand",
    );
    expect(pageTitle('<head><meta charset="utf-8"></head>')).toBeUndefined();
  });
});
