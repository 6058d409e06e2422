import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { freePort, repoRoot } from '../helpers.js';

/**
 * The compatibility date wrangler runs the site under. Pinned to the date of the workerd runtime
 * that wrangler 4.86.0 depends on (workerd 1.20260426.1): `compatibilityDate` in
 * node_modules/workerd/lib/main.js, the same value miniflare calls `supportedCompatibilityDate`.
 * A later date makes workerd refuse to start; today's date would make every run depend on the
 * calendar. Move it with the wrangler pin (startWrangler checks it against the installed runtime).
 */
export const WRANGLER_COMPATIBILITY_DATE = '2026-04-26';

const wranglerBin = path.join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

/** The date the installed workerd supports, found the way wrangler finds it (wrangler → miniflare → workerd). */
function workerdCompatibilityDate(): string {
  const miniflare = createRequire(wranglerBin).resolve('miniflare');
  return (createRequire(miniflare)('workerd') as { compatibilityDate: string }).compatibilityDate;
}

export interface WranglerServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Everything wrangler has printed so far, colour codes removed. */
  stdout: () => string;
  stderr: () => string;
  /**
   * SIGTERM to its whole process group (wrangler's own node child and workerd), SIGKILL after 10 s; removes its state
   * folder.
   */
  stop: () => Promise<void>;
}

/** Whether any process of the group `pgid` is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `wrangler pages dev <siteDir>` on 127.0.0.1:`port`, fully local: no login (every CLOUDFLARE_*
 * credential is removed from its environment), no metrics or error reports, no banner (the banner
 * is what asks the registry for a newer wrangler), no download of the `Request.cf` object from
 * workers.cloudflare.com. Its state (.wrangler/ of its working folder, --persist-to, logs, the
 * global config folder it finds through HOME and XDG_CONFIG_HOME) lives in a temporary folder
 * removed by `stop`. Resolves once it answers HTTP; stops it again when it does not.
 */
export async function startWrangler(siteDir: string, port: number, timeoutMs = 60_000): Promise<WranglerServer> {
  const supported = workerdCompatibilityDate();
  if (WRANGLER_COMPATIBILITY_DATE > supported) {
    throw new Error(
      `WRANGLER_COMPATIBILITY_DATE ${WRANGLER_COMPATIBILITY_DATE} is newer than the installed workerd supports ` +
        `(${supported})`,
    );
  }
  const state = await mkdtemp(path.join(tmpdir(), 'storefront-wrangler-'));
  const home = path.join(state, 'home');
  await mkdir(home);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      name.startsWith('CLOUDFLARE_') ||
      name.startsWith('WRANGLER_') ||
      name.startsWith('CF_') ||
      name === 'MINIFLARE_CACHE_DIR'
    )
      delete env[name];
  }
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    WRANGLER_LOG_PATH: path.join(state, 'logs'),
    WRANGLER_REGISTRY_PATH: path.join(state, 'registry'),
    WRANGLER_CACHE_DIR: path.join(state, 'cache'),
    MINIFLARE_CACHE_DIR: path.join(state, 'cache'),
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  });
  const args = [
    wranglerBin,
    'pages',
    'dev',
    siteDir,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    String(await freePort()),
    '--compatibility-date',
    WRANGLER_COMPATIBILITY_DATE,
    '--persist-to',
    path.join(state, 'persist'),
    '--show-interactive-dev-session=false',
  ];
  // Its own process group: wrangler.js starts a second node, which starts workerd.
  const child = spawn(process.execPath, args, { cwd: state, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid!;
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should the test process itself end without afterAll, take the group with it.
  const onExit = () => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // already gone
      }
      const deadline = Date.now() + 10_000;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (groupAlive(pgid)) onExit();
      await exited;
      process.off('exit', onExit);
      await rm(state, { recursive: true, force: true, maxRetries: 5 });
    })());
  const url = `http://127.0.0.1:${port}`;
  const clean = (text: string) => stripVTControlCharacters(text);
  const started = Date.now();
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`wrangler exited (${child.exitCode ?? child.signalCode}): ${clean(stdout + stderr)}`);
      if (Date.now() - started > timeoutMs)
        throw new Error(`wrangler did not answer within ${timeoutMs} ms: ${clean(stdout + stderr)}`);
      try {
        await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stdout: () => clean(stdout), stderr: () => clean(stderr), stop };
}
