/**
 * A host's production install (issue 19): `npm ci --omit=dev && npm run build` on a copy of the
 * repository's files, without TypeScript or any test tool. npm takes the packages from its cache
 * (the test command's own `npm ci` filled it) or from the registry.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from '../helpers.js';

const run = promisify(execFile);
let copy: string | undefined;
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

it('npm ci --omit=dev && npm run build works on the repository files alone', async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'storefront-prod-'));
  const { stdout: files } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of files.split('\0').filter((f) => f && existsSync(path.join(repoRoot, f)))) {
    await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    await cp(path.join(repoRoot, file), path.join(copy, file));
  }
  const env = { ...process.env, NODE_ENV: 'production', npm_config_audit: 'false', npm_config_fund: 'false' };
  await run('npm', ['ci', '--omit=dev', '--prefer-offline'], { cwd: copy, env, timeout: 100_000 });
  for (const devOnly of ['typescript', 'vitest', 'playwright-core', 'lighthouse', '@types/node']) {
    expect(existsSync(path.join(copy, 'node_modules', devOnly)), devOnly).toBe(false);
  }
  const built = await run('npm', ['run', 'build'], { cwd: copy, env, timeout: 60_000 });
  expect(built.stdout).toMatch(/Built \d+ pages/);
  expect(existsSync(path.join(copy, 'dist', 'index.html'))).toBe(true);
  expect(existsSync(path.join(copy, 'dist', 'index.html.br'))).toBe(true);
}, 118_000);
