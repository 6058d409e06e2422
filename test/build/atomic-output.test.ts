/**
 * The output folder is replaced by renames: a build killed with SIGKILL at any moment leaves it
 * holding exactly the previous build or exactly the new one (or, killed between the two renames,
 * the previous one beside it, which the next build puts back), and the next build removes what
 * the killed one left beside it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, hashTree, runCli, freePort, tempProject } from '../helpers.js';

/** Enough posts that a build takes most of a second here, so that kills land in every stage. */
const POSTS = 600;
const KILLS = 12;

let project: { root: string; cleanup: () => Promise<void> };
let out: string;
const buildArgs = () => ['--root', project.root, 'build', '--posts', 'posts', '--out', 'site'];

/** The footer text of each version of the site: the one change between the two builds. */
const FOOTERS = ['Version A of the footer.', 'Version B of the footer.'] as const;
let current = 0;
/** Sets the footer text (a folded block at first, then one line) to that of `version`. */
async function setFooter(version: number): Promise<void> {
  const file = path.join(project.root, 'content', 'site.yaml');
  const text = await readFile(file, 'utf8');
  const block = /^footerBlurb:.*\n(?:[ \t]+.*\n)*/m;
  expect(text).toMatch(block);
  await writeFile(file, text.replace(block, `footerBlurb: ${FOOTERS[version]}\n`));
}

/** The marker a build writes into a folder of its own; never part of a site. */
const MARKER = '.storefront-build.json';

/** The hash of a site moved aside, without the marker the build put into it. */
async function hashWithoutMarker(dir: string): Promise<string> {
  const copy = `${dir}-copy`;
  await cp(dir, copy, { recursive: true });
  await rm(path.join(copy, MARKER), { force: true });
  try {
    return await hashTree(copy);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

async function writePosts(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const paragraph =
    'Growth on a platform comes from posting often, answering comments and learning what the audience watches. '.repeat(
      12,
    );
  for (let i = 1; i <= POSTS; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    const body = `## Part one\n\n${paragraph}\n\n## Part two\n\n- a point\n- another point\n\n${paragraph}\n`;
    await writeFile(
      path.join(dir, `post-${i}.md`),
      `---\ntitle: "Post number ${i}"\ndate: ${day}\nexcerpt: "What post ${i} is about."\n---\n${body}`,
    );
  }
}

/** Starts a build and kills it with SIGKILL after `ms`; resolves with how it ended. */
function buildKilledAfter(ms: number): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...buildArgs()], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0) resolve('finished');
      else reject(new Error(`the build failed with code ${code}`));
    });
  });
}

const hashes: string[] = [];
let buildMs = 0;

beforeAll(async () => {
  project = await tempProject();
  out = path.join(project.root, 'site');
  await writePosts(path.join(project.root, 'posts'));
  // The two complete builds every state of the folder is compared with.
  for (const version of [1, 0]) {
    await setFooter(version);
    const started = performance.now();
    const built = await runCli(buildArgs());
    buildMs = performance.now() - started;
    expect(built.code, built.stderr).toBe(0);
    hashes[version] = await hashTree(out);
  }
  expect(hashes[0]).not.toBe(hashes[1]);
}, 110_000);

afterAll(() => project?.cleanup());

describe('atomic output', () => {
  it(`a build killed at ${KILLS} moments or more leaves the previous site or the new one, never a mix`, async () => {
    const outcomes: { at: number; ended: string; holds: string }[] = [];
    // Spread over one and a half build times; a build under the load of other tests takes longer
    // than the one timed alone, so the kills go on, later each time, until one lands after the
    // switch (or a build ends first), and sooner when too few land before it: both ends are seen.
    let step = (1.5 * buildMs) / KILLS;
    const killed = () => outcomes.filter((o) => o.ended === 'killed').length;
    for (
      let i = 0;
      i < KILLS || ((!outcomes.some((o) => o.holds === 'new') || killed() < KILLS / 2) && i < 3 * KILLS);
      i++
    ) {
      // The folder holds version `current`; the build makes the other one, killed a little later each time.
      const next = 1 - current;
      await setFooter(next);
      if (i >= KILLS) step *= 1.25;
      const at = Math.round(step * (i + 0.5));
      const ended = await buildKilledAfter(at);
      // Killed between the two renames: the previous site waits beside, for the next build.
      const aside = existsSync(out)
        ? []
        : (await readdir(project.root)).filter((name) => name.startsWith('.site.old-'));
      expect(aside.length, `killed after ${at} ms`).toBe(existsSync(out) ? 0 : 1);
      const hash = aside[0] ? await hashWithoutMarker(path.join(project.root, aside[0])) : await hashTree(out);
      const holds =
        hash === hashes[current]
          ? aside[0]
            ? 'previous, beside'
            : 'previous'
          : hash === hashes[next]
            ? 'new'
            : 'a mix';
      outcomes.push({ at, ended, holds });
      expect(holds, `killed after ${at} ms`).not.toBe('a mix');
      if (holds === 'new') current = next;
      // The build timed before ran slower than these (other tests' load comes and goes): when
      // they end before the kill while too few were killed, the kills come sooner.
      if (ended === 'finished' && killed() < KILLS / 2) step *= 0.6;
    }
    console.log(`atomic output: ${outcomes.map((o) => `${o.at} ms ${o.ended}: ${o.holds}`).join('; ')}`);
    expect(outcomes.filter((o) => o.ended === 'killed').length).toBeGreaterThanOrEqual(KILLS / 2);
    expect(outcomes.some((o) => o.holds.startsWith('previous') && o.ended === 'killed')).toBe(true);
    expect(outcomes.some((o) => o.holds === 'new')).toBe(true);
  }, 110_000);

  it('a previous site moved aside by a build killed between its two renames is put back by the next build ' +
    '(even one that fails), never by preview or check', async () => {
    // As a build leaves it when killed after moving the previous site aside, before moving its own in.
    const leaveAside = async (name: string) => {
      const dead = 2 ** 22 + 1;
      const aside = path.join(project.root, `.${name}.old-${dead}-1`);
      await mkdir(aside);
      await mkdir(path.join(project.root, `.${name}.build-${dead}-2`));
      await writeFile(path.join(aside, 'index.html'), 'the only copy');
      await writeFile(
        path.join(aside, MARKER),
        JSON.stringify({ writtenBy: 'storefront build', kind: 'old', pid: dead, for: `.${name}.build-${dead}-2` }),
      );
      return path.join(project.root, name, 'index.html');
    };
    const catalogue = path.join(project.root, 'content', 'catalogue.yaml');
    const good = await readFile(catalogue, 'utf8');
    await writeFile(catalogue, 'not: [valid');
    try {
      const restored = await leaveAside('by-build');
      const failed = await runCli(['--root', project.root, 'build', '--posts', 'posts', '--out', 'by-build']);
      expect(failed.code).toBe(1);
      expect(await readFile(restored, 'utf8')).toBe('the only copy');
      expect(existsSync(path.join(path.dirname(restored), MARKER))).toBe(false);
    } finally {
      await writeFile(catalogue, good);
    }
    // check and preview read the output folder as it is: there is none.
    const checked = await leaveAside('by-check');
    const check = await runCli(['--root', project.root, 'check', '--out', 'by-check']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('There is no built site to check (no sitemap.xml).');
    expect(existsSync(path.dirname(checked))).toBe(false);
    const previewed = await leaveAside('by-preview');
    const preview = await runCli([
      '--root',
      project.root,
      'preview',
      '--out',
      'by-preview',
      '--port',
      String(await freePort()),
    ]);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toContain('There is no built site to preview.');
    expect(existsSync(path.dirname(previewed))).toBe(false);
  }, 60_000);

  it('the next build removes the folders killed builds left, and keeps only the site', async () => {
    await setFooter(1 - current);
    const built = await runCli(buildArgs());
    expect(built.code, built.stderr).toBe(0);
    expect((await lstat(out)).isDirectory()).toBe(true);
    // Beside the folder: only the record of the files the build wrote.
    const beside = (await readdir(project.root)).filter((name) => name.startsWith('.site.'));
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatch(/^\.site\.files-[\d-]+\.json$/);
    expect(await hashTree(out)).toBe(hashes[1 - current]);
  }, 60_000);
});
