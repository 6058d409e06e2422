import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.resolve('scripts/check-test-tools.mjs');

/** `npm test` starts with this check: it must stop, naming what is missing, before anything runs. */
describe('the check before the tests', () => {
  it('passes on this machine, where the tests run', async () => {
    const { stdout, stderr } = await run(process.execPath, [script]);
    expect(stdout + stderr).toBe('');
  });

  it('names a missing Chromium and nginx, with what to set, and exits 1', async () => {
    const failed = await run(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chrome', NGINX_PATH: '/nonexistent/nginx' },
    }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(
      'Chromium: CHROMIUM_PATH=/nonexistent/chrome does not run. Install Chromium or Chrome and set ' +
        'CHROMIUM_PATH to its program.',
    );
    expect(failed?.stderr).toContain(
      'nginx: NGINX_PATH=/nonexistent/nginx does not run. Install nginx and set NGINX_PATH to its program.',
    );
  });

  it('runs before anything else in npm test', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(pkg.scripts.test.startsWith('node scripts/check-test-tools.mjs && ')).toBe(true);
  });
});
