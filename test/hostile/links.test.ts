// Symbolic links in the content: one whose target leaves the project is refused (SF143), naming
// the link and its target, before anything is written; the previous build's output stays as it
// was, byte for byte. A link to a file inside the project is followed. Through the real CLI, on
// copies of the content, with the targets in temporary folders outside the project.
import { realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchFolders } from '../../src/dev/watch.js';
import { editFile, hashTree, projectsOfThisFile, runCli, startCliServer, type CliResult } from '../helpers.js';

const project = projectsOfThisFile();
const outsideFolders: string[] = [];
afterAll(async () => {
  await Promise.all(outsideFolders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A new folder outside the project (its real path, as the build names it). */
async function outside(): Promise<string> {
  const dir = realpathSync(await mkdtemp(path.join(tmpdir(), 'storefront-outside-')));
  outsideFolders.push(dir);
  return dir;
}

/** A project built once (its dist/ hashed), then changed by `arrange` and built again with `args`. */
async function rebuiltAfter(
  arrange: (root: string, away: string) => Promise<void>,
  args: string[] = [],
): Promise<{ result: CliResult; before: string; after: string; root: string }> {
  const { root } = await project();
  const first = await runCli(['--root', root, 'build']);
  expect(first.code, first.stderr).toBe(0);
  const before = await hashTree(path.join(root, 'dist'));
  await arrange(root, await outside());
  const result = await runCli(['--root', root, 'build', ...args]);
  return { result, before, after: await hashTree(path.join(root, 'dist')), root };
}

/** Moves a content file out of the project and leaves a link to it in its place; resolves with the target. */
async function moveOut(root: string, file: string, away: string): Promise<string> {
  const target = path.join(away, path.basename(file));
  await copyFile(path.join(root, file), target);
  await rm(path.join(root, file));
  await symlink(target, path.join(root, file));
  return target;
}

/** The build refused the link, naming it and its target, with no stack trace, and left dist/ as it was. */
function expectRefused(run: Awaited<ReturnType<typeof rebuiltAfter>>, link: string, target: string): void {
  const { result, before, after } = run;
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).toMatch(new RegExp(`SF143 +${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
  expect(result.stderr).toContain(`symbolic link to ${target}`);
  expect(result.stderr).toContain('hint:');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(after).toBe(before);
}

describe('a link out of the project is refused, naming the link and its target', () => {
  for (const file of [
    'content/pages/about.yaml',
    'content/pages/privacy-policy.md',
    'content/services/buy-instagram-likes.yaml',
    'content/blog/tiktok-growth-routine.md',
    'content/trader.yaml',
    'content/site.yaml',
    'content/catalogue.yaml',
    'content/redirects.yaml',
    'content/config.yaml',
  ]) {
    it(file, async () => {
      let target = '';
      const run = await rebuiltAfter(async (root, away) => {
        target = await moveOut(root, file, away);
      });
      expectRefused(run, file, target);
    });
  }

  it('content/reviews.yaml (optional: a link where there was no file)', async () => {
    let target = '';
    const run = await rebuiltAfter(async (root, away) => {
      target = path.join(away, 'reviews.yaml');
      await writeFile(target, 'reviews: []\n');
      await symlink(target, path.join(root, 'content', 'reviews.yaml'));
    });
    expectRefused(run, 'content/reviews.yaml', target);
  });

  it('an image file in content/images/, and a post showing it', async () => {
    let target = '';
    const run = await rebuiltAfter(async (root, away) => {
      target = path.join(away, 'secret.svg');
      await writeFile(target, '<svg xmlns="http://www.w3.org/2000/svg"><text>SECRET-SVG</text></svg>');
      await symlink(target, path.join(root, 'content', 'images', 'secret.svg'));
      await editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        /^image:\n {2}src: \S+/m,
        'image:\n  src: /images/secret.svg',
      );
    });
    expectRefused(run, 'content/images/secret.svg', target);
    // The post is told its image is not a file of content/images/; the file is read by no one.
    expect(run.result.stderr).toContain('The image /images/secret.svg is not a file in content/images/.');
    expect(run.result.stderr).not.toContain('SECRET-SVG');
  });

  it('a folder in content/images/, at any depth', async () => {
    let target = '';
    const run = await rebuiltAfter(async (root, away) => {
      target = path.join(away, 'pics');
      await mkdir(target);
      await writeFile(path.join(target, 'notes.txt'), 'SECRET-NOTES');
      await writeFile(path.join(target, 'secret.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      await mkdir(path.join(root, 'content', 'images', 'deep', 'er'), { recursive: true });
      await symlink(target, path.join(root, 'content', 'images', 'deep', 'er', 'linked'));
    });
    expectRefused(run, 'content/images/deep/er/linked', target);
    // One problem for the folder, not one per file behind it.
    expect(run.result.stderr.match(/SF143/g)).toHaveLength(1);
  });

  it('/etc in content/images/', async () => {
    const run = await rebuiltAfter(async (root) => {
      await symlink('/etc', path.join(root, 'content', 'images', 'etc'));
    });
    expectRefused(run, 'content/images/etc', realpathSync('/etc'));
    expect(run.result.stderr).not.toContain('passwd');
  });

  it('build --posts DIR: a folder of the project that is a link out of it', async () => {
    let target = '';
    const run = await rebuiltAfter(
      async (root, away) => {
        target = path.join(away, 'posts');
        await mkdir(target);
        await writeFile(path.join(target, 'secret.md'), '---\ntitle: SECRET-POST\n---\nSECRET\n');
        await symlink(target, path.join(root, 'posts'));
      },
      ['--posts', 'posts'],
    );
    expectRefused(run, 'posts', target);
    expect(run.result.stderr).not.toContain('SECRET-POST');
  });

  it('build --posts DIR: a folder of the project holding a link out of it', async () => {
    let target = '';
    const run = await rebuiltAfter(
      async (root, away) => {
        await mkdir(path.join(root, 'posts'));
        for (const name of ['get-your-instagram-profile-ready.md', 'youtube-monetisation-thresholds-explained.md']) {
          await copyFile(path.join(root, 'content', 'blog', name), path.join(root, 'posts', name));
        }
        target = path.join(away, 'tiktok-growth-routine.md');
        await copyFile(path.join(root, 'content', 'blog', 'tiktok-growth-routine.md'), target);
        await symlink(target, path.join(root, 'posts', 'tiktok-growth-routine.md'));
      },
      ['--posts', 'posts'],
    );
    expectRefused(run, 'posts/tiktok-growth-routine.md', target);
  });

  it('every link of one build is reported together', async () => {
    const targets: string[] = [];
    const run = await rebuiltAfter(async (root, away) => {
      targets.push(await moveOut(root, 'content/pages/about.yaml', away));
      targets.push(await moveOut(root, 'content/services/buy-tiktok-views.yaml', away));
      await symlink('/etc', path.join(root, 'content', 'images', 'etc'));
    });
    expectRefused(run, 'content/pages/about.yaml', targets[0]!);
    expectRefused(run, 'content/services/buy-tiktok-views.yaml', targets[1]!);
    expectRefused(run, 'content/images/etc', realpathSync('/etc'));
  });
});

describe('links inside the project', () => {
  it('a link to a file inside the project is followed (a page, an image)', async () => {
    const { root } = await project();
    await mkdir(path.join(root, 'common'));
    await rename(path.join(root, 'content', 'pages', 'about.yaml'), path.join(root, 'common', 'about.yaml'));
    await symlink('../../common/about.yaml', path.join(root, 'content', 'pages', 'about.yaml'));
    await writeFile(
      path.join(root, 'common', 'badge.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><text>BADGE</text></svg>',
    );
    await symlink('../../common/badge.svg', path.join(root, 'content', 'images', 'badge.svg'));
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    expect(await readFile(path.join(root, 'dist', 'about.html'), 'utf8')).toContain('<h1');
    expect(await readFile(path.join(root, 'dist', 'images', 'badge.svg'), 'utf8')).toContain('BADGE');
  });

  it(
    'a link to a folder under content/images/ is not followed, even inside the project; ' + 'nor one to a hidden file',
    async () => {
      const run = await rebuiltAfter(async (root) => {
        await mkdir(path.join(root, 'common-images'));
        await writeFile(path.join(root, 'common-images', 'a.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
        await symlink('../../common-images', path.join(root, 'content', 'images', 'common'));
        await writeFile(path.join(root, '.env'), 'SECRET=1\n');
        await symlink('../../.env', path.join(root, 'content', 'images', 'env.txt'));
      });
      expect(run.result.code).toBe(1);
      expect(run.result.stderr).toMatch(
        /SF143 +content\/images\/common\n.*the folder .*common-images: the build does not follow links to folders/,
      );
      expect(run.result.stderr).toMatch(/SF143 +content\/images\/env\.txt\n.*a hidden file or folder of the project/);
      expect(run.after).toBe(run.before);
    },
  );
});

describe('storefront dev', () => {
  it('reports a link to /etc made while it runs, as the build does, and serves nothing of /etc', async () => {
    const { root } = await project();
    const dev = await startCliServer(['--root', root, 'dev', '--port', '0'], 30_000);
    try {
      await symlink('/etc', path.join(root, 'content', 'images', 'etc'));
      const started = Date.now();
      while (!/SF143 +content\/images\/etc/.test(dev.stdout() + dev.stderr()) && Date.now() - started < 15_000)
        await new Promise((r) => setTimeout(r, 100));
      expect(dev.stdout() + dev.stderr()).toMatch(
        new RegExp(`SF143 +content/images/etc\\n.*symbolic link to ${realpathSync('/etc')}`),
      );
      for (const address of ['/images/etc/passwd', '/images/etc/hostname']) {
        const response = await fetch(`${dev.url}${address}`);
        expect(response.status, address).toBe(404);
        expect(await response.text()).not.toMatch(/root:/);
      }
    } finally {
      await dev.stop();
    }
  });

  it("the watcher does not follow a link to a folder: a change in the link's target is not seen", async () => {
    const watched = await outside();
    const away = await outside();
    await symlink(away, path.join(watched, 'linked'));
    const batches: string[][] = [];
    const stop = watchFolders([watched], (files) => batches.push(files), 30);
    try {
      await writeFile(path.join(away, 'secret.txt'), 'x');
      await new Promise((r) => setTimeout(r, 500));
      expect(batches).toEqual([]);
      // A change in the watched folder itself is seen (the watcher works).
      await writeFile(path.join(watched, 'page.yaml'), 'a: 1\n');
      const started = Date.now();
      while (batches.length === 0 && Date.now() - started < 3000) await new Promise((r) => setTimeout(r, 20));
      expect(batches.flat()).toContain(path.join(watched, 'page.yaml'));
    } finally {
      stop();
    }
  });
});
