/**
 * bin/storefront.js runs the CommonJS bundle with a V8 code cache beside it. On a copy of the
 * generator (so the shared lib/ is left alone): a run without a cache writes one, a run with it
 * is accepted by V8 and leaves it as it is, a rebuilt bundle gets a cache of its own, and a
 * damaged cache is replaced without a word, the command working the same throughout.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers.js';

let generator: string;
const bundleDir = () => path.join(generator, 'lib', 'bundle');
/** The code caches beside the bundle: main.cjs.<size>-<mtime>.v8-cache. */
const cacheFiles = async () => (await readdir(bundleDir())).filter((name) => /^main\.cjs\.\d+-\d+\.v8-cache$/.test(name));
const cacheFile = async () => {
  const files = await cacheFiles();
  expect(files).toHaveLength(1);
  return path.join(bundleDir(), files[0]!);
};

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(generator, 'bin', 'storefront.js'), ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  generator = await mkdtemp(path.join(tmpdir(), 'storefront-code-cache-'));
  for (const part of ['bin', 'src', 'templates', 'content', 'lib/bundle', 'lib/assets', 'package.json']) {
    await cp(path.join(repoRoot, part), path.join(generator, part), { recursive: true });
  }
  await symlink(path.join(repoRoot, 'node_modules'), path.join(generator, 'node_modules'), 'dir');
  for (const name of await cacheFiles()) await rm(path.join(bundleDir(), name));
});

afterAll(async () => {
  if (generator) await rm(generator, { recursive: true, force: true });
});

describe('the V8 code cache of the CLI', () => {
  it('is written by a run that finds none, then used as it is', async () => {
    const version = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')).version as string;
    const first = await run(['--version']);
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(version);
    const written = await stat(await cacheFile());
    expect(written.size).toBeGreaterThan(100_000);

    const second = await run(['--root', generator, 'build', '--out', path.join(generator, 'dist')]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^Built 20 pages/);
    // Accepted by V8: not written again.
    expect((await stat(await cacheFile())).mtimeMs).toBe(written.mtimeMs);
  });

  it('is not used by a rebuilt bundle, even of the same length', async () => {
    const old = await cacheFile();
    // The same bytes written again: a new modification time, as after `npm run compile`.
    const bundle = path.join(bundleDir(), 'main.cjs');
    await writeFile(bundle, await readFile(bundle));
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    const names = await cacheFiles();
    expect(names).toHaveLength(2);
    await rm(old);
  });

  it('is replaced when damaged, and the command still works', async () => {
    const file = await cacheFile();
    await writeFile(file, 'not a code cache');
    const result = await run(['--root', generator, 'build', '--out', path.join(generator, 'dist')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/problem|warning|cache/i);
    expect((await stat(file)).size).toBeGreaterThan(100_000);
  });
});
