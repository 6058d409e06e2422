/**
 * Messages name the cause (issue 35, item 7), through the real CLI: a slug too long for a file
 * name, a page whose file name the disk refuses, a post that is a link to a folder or to a named
 * pipe, a link to a named pipe in content/images/, a file over 2 GiB there, and `check
 * --checkout` against a checkout without the Store API whose Buy Now addresses redirect to
 * another site. Where a build is refused, the output folder of the build before is checked byte
 * for byte.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { builtProject, editFile, folderState, repoRoot, runCli } from '../helpers.js';
import { FakeStoreApi, productsOf } from '../support/fake-store-api.js';
import { LoopbackServer } from '../support/loopback-server.js';

type Project = Awaited<ReturnType<typeof builtProject>>;
let project: Project;
const POST = 'content/blog/tiktok-growth-routine.md';

// One built project for the build cases: each case changes it, is refused, and undoes its change.
beforeAll(async () => {
  project = await builtProject();
}, 60_000);
afterAll(() => project?.cleanup());

/** Runs `build` with the project's output as it was; expects it refused with the output untouched. */
async function refusedBuild(): Promise<string> {
  const dist = path.join(project.root, 'dist');
  const before = await folderState(dist);
  const result = await runCli(['--root', project.root, 'build']);
  expect(result.code, result.stdout).toBe(1);
  expect(await folderState(dist)).toBe(before);
  // Nothing beside it either: no half-written site left behind (.dist.files-… is the build's record).
  expect((await readdir(project.root)).filter((name) => /^\.dist\.(build|old)-/.test(name))).toEqual([]);
  expect(result.stderr).not.toMatch(/SF90[01]/);
  return result.stderr;
}

/** Runs `test` with `file` of the project edited, and puts the file back however it ends. */
async function withEdit<T>(file: string, from: RegExp, to: string, test: () => Promise<T>): Promise<T> {
  const text = await readFile(path.join(project.root, file), 'utf8');
  await editFile(project.root, file, from, to);
  try {
    return await test();
  } finally {
    await writeFile(path.join(project.root, file), text);
  }
}
const withSlug = <T>(slug: string, test: () => Promise<T>) => withEdit(POST, /^slug: .*$/m, `slug: ${slug}`, test);

/** Runs `test` with these links (name → target) made in the project, and removes them (and `made`) however it ends. */
async function withLinks<T>(links: Record<string, string>, made: string[], test: () => Promise<T>): Promise<T> {
  try {
    for (const [name, target] of Object.entries(links)) await symlink(target, path.join(project.root, name));
    return await test();
  } finally {
    for (const name of [...Object.keys(links), ...made])
      await rm(path.join(project.root, name), { recursive: true, force: true });
  }
}

describe('a post slug too long for a file name', () => {
  it('of 300 characters is refused before anything is written, naming the post and the limit', async () => {
    const stderr = await withSlug('a'.repeat(300), refusedBuild);
    expect(stderr).toMatch(/SF124 {2}content\/blog\/tiktok-growth-routine\.md:\d+ › slug/);
    expect(stderr).toContain('it is 300 bytes long, and a slug may be at most 247');
    expect(stderr).not.toContain('ENAMETOOLONG');
  }, 60_000);

  it('counts bytes, not letters: 124 × "é" (248 bytes) is refused', async () => {
    const stderr = await withSlug('é'.repeat(124), refusedBuild);
    expect(stderr).toContain('it is 248 bytes long, and a slug may be at most 247');
  }, 60_000);

  it('of 247 bytes, the limit, is built, its precompressed page included', async () => {
    await withSlug('b'.repeat(247), async () => {
      const result = await runCli(['--root', project.root, 'build', '--precompress']);
      expect(result.code, result.stderr).toBe(0);
    });
    expect(await readdir(path.join(project.root, 'dist', 'blog'))).toContain(`${'b'.repeat(247)}.html.br`);
  }, 60_000);
});

describe('a page whose file name the disk refuses', () => {
  it("is SF160 naming the file as the site has it (cut short), the disk's limit, and what to shorten", async () => {
    // A second page like About, at an address of 300 characters.
    const about = await readFile(path.join(project.root, 'content/pages/about.yaml'), 'utf8');
    await writeFile(
      path.join(project.root, 'content/pages/long.yaml'),
      about.replace(/^path: \/about$/m, `path: /${'c'.repeat(300)}`),
    );
    const stderr = await withLinks({}, ['content/pages/long.yaml'], refusedBuild);
    expect(stderr).toContain(
      'The output could not be written: a file or folder name is longer than the disk allows (255 bytes): ' +
        `${'c'.repeat(100)}… (305 bytes).`,
    );
    expect(stderr).toContain('hint: Shorten the path of the page');
    // The temporary folder the system named is not shown.
    expect(stderr).not.toContain('.dist.build-');
    expect(stderr).toContain('The output folder was not changed');
  }, 60_000);
});

describe('a post that is no file', () => {
  it('a link to a folder is SF141 naming the post, not SF901 EISDIR', async () => {
    await mkdir(path.join(project.root, 'content/drafts'));
    const stderr = await withLinks({ 'content/blog/notes.md': '../drafts' }, ['content/drafts'], refusedBuild);
    expect(stderr).toContain('SF141  content/blog/notes.md');
    expect(stderr).toContain(
      'This is a symbolic link to a folder, not a file: the build reads regular files only, ' +
        'and nothing was read from it.',
    );
    expect(stderr).not.toContain('EISDIR');
  }, 60_000);

  it('a link to a named pipe is SF141 naming the post, and the build does not wait on the pipe', async () => {
    execFileSync('mkfifo', [path.join(project.root, 'content/pipe')]);
    const stderr = await withLinks({ 'content/blog/piped.md': '../pipe' }, ['content/pipe'], refusedBuild);
    expect(stderr).toContain('SF141  content/blog/piped.md');
    expect(stderr).toContain('This is a symbolic link to a named pipe (FIFO), not a file');
  }, 30_000);
});

describe('content/images/', () => {
  it('a link to a named pipe is called a named pipe, not a folder', async () => {
    execFileSync('mkfifo', [path.join(project.root, 'content/pipe')]);
    const stderr = await withLinks({ 'content/images/drawing.svg': '../pipe' }, ['content/pipe'], refusedBuild);
    expect(stderr).toContain('SF141  content/images/drawing.svg');
    expect(stderr).toContain(
      'This is a symbolic link to a named pipe (FIFO), not a file: the build reads regular files only, ' +
        'and nothing was read from it.',
    );
    expect(stderr).not.toContain('link to the folder');
  }, 30_000);

  it('a file of 3 GiB is SF206 naming it, before anything is read (a sparse file: no disk used)', async () => {
    const huge = path.join(project.root, 'content/images/huge.png');
    await writeFile(huge, '');
    await truncate(huge, 3 * 1024 ** 3);
    const stderr = await withLinks({}, ['content/images/huge.png'], refusedBuild);
    expect(stderr).toContain('SF206  content/images/huge.png');
    expect(stderr).toContain(
      'The file is 3 GB, more than the 25 MB a file in content/images/ may be: it was not read.',
    );
    expect(stderr).not.toContain('internal error');
  }, 30_000);
});

/** A site elsewhere: counts every request that reaches it. */
class Elsewhere extends LoopbackServer {
  readonly requests: string[] = [];
  protected handle(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Elsewhere</title>');
  }
}

/** A checkout without the Store API whose product pages redirect: to `elsewhere`, or to themselves (a loop). */
class MovedShop extends FakeStoreApi {
  redirect: (pathname: string) => string = () => '/';
  protected override handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.origin);
    if (!url.pathname.startsWith('/product/')) {
      super.handle(req, res);
      return;
    }
    this.requests.push(`${req.method} ${url.pathname}`);
    res.writeHead(302, { Location: this.redirect(url.pathname) }).end();
  }
}

describe('check --checkout without a Store API', () => {
  const catalogue = parseYaml(readFileSync(path.join(repoRoot, 'content/catalogue.yaml'), 'utf8'));
  const packages = productsOf(catalogue).length;
  let shop: MovedShop;
  let elsewhere: Elsewhere;
  beforeAll(async () => {
    shop = await new MovedShop(productsOf(catalogue)).start();
    shop.storeApi = false;
    elsewhere = await new Elsewhere().start();
    // The project's pages are built for this checkout; check crawls them first.
    const built = await runCli(['--root', project.root, 'build'], { CHECKOUT_URL: shop.origin });
    expect(built.code, built.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await shop?.stop();
    await elsewhere?.stop();
  });

  it('follows no redirect to another origin: no request reaches it, ' +
    'each package is SF401 and the summary says what was not verified', async () => {
    shop.redirect = (pathname) => `${elsewhere.origin}${pathname}`;
    const result = await runCli(['--root', project.root, 'check', '--checkout'], { CHECKOUT_URL: shop.origin });
    expect(result.code).toBe(1);
    expect(elsewhere.requests).toEqual([]);
    expect(result.stderr.match(/SF401 /g)?.length).toBe(packages);
    expect(result.stderr).toContain(
      `Instagram Followers, 100: its Buy Now redirects to ${elsewhere.origin}, another site than the checkout; ` +
        'the check follows no redirect there, so this package is not verified.',
    );
    expect(result.stdout).toContain(
      `Checkout ${shop.origin} has no WooCommerce Store API: 0 of ${packages} Buy Now links answer 200 on its ` +
        `own site, ${packages} redirect to another site (not followed); price, currency and stock are not verified.`,
    );
    // One HEAD each: a GET would meet the same redirect.
    expect(shop.requests.filter((r) => r.startsWith('GET /product/'))).toEqual([]);
  }, 60_000);

  it('a redirect loop on the checkout itself ends after 5 redirects, with a problem for each package', async () => {
    shop.redirect = (pathname) => pathname;
    const productRequests = () => shop.requests.filter((r) => / \/product\//.test(r)).length;
    const before = productRequests();
    const result = await runCli(['--root', project.root, 'check', '--checkout'], { CHECKOUT_URL: shop.origin });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Instagram Followers, 100: its Buy Now answers nothing (more than 5 redirects), not a product page.',
    );
    // HEAD and GET, each the first request and 5 redirects.
    expect(productRequests() - before).toBe(packages * 2 * 6);
    expect(result.stdout).toContain(
      `0 of ${packages} Buy Now links answer 200 on its own site; price, currency and stock are not verified.`,
    );
  }, 60_000);
});
