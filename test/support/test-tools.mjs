// Where the programs the tests drive are, on Debian (scripts/install-test-deps.sh installs them)
// or anywhere else through the environment: CHROMIUM_PATH, NGINX_PATH and NGINX_BROTLI_MODULE.
// Plain JavaScript, so that scripts/check-test-tools.mjs can read it before anything is compiled.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const DEBIAN_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** Chromium or Chrome, for playwright-core: CHROMIUM_PATH, else Debian's. */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Chromium's flags for the tests and scripts: headless, and kept off the network it has no business with. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** playwright-core's launch options for that Chromium. */
export const chromiumLaunchOptions = () => ({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });

/** nginx: NGINX_PATH, else the one on PATH. */
export const nginxPath = () => process.env.NGINX_PATH || 'nginx';

/** `nginx -V`: its version and the options it was built with (on stderr), or undefined when it cannot run. */
function nginxBuild() {
  const result = spawnSync(nginxPath(), ['-V'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stderr + result.stdout : undefined;
}

/** nginx's own mime.types, beside the configuration file it was built to read. */
export function nginxMimeTypes() {
  const conf = /--conf-path=(\S+)/.exec(nginxBuild() ?? '')?.[1];
  return conf ? path.join(path.dirname(conf), 'mime.types') : '/etc/nginx/mime.types';
}

/**
 * The brotli_static module to load, or '' when nginx has it built in. NGINX_BROTLI_MODULE, else
 * Debian's; undefined when there is none (the tests serve precompressed .br files with it).
 */
export function brotliModule() {
  const file = process.env.NGINX_BROTLI_MODULE || DEBIAN_BROTLI_MODULE;
  if (existsSync(file)) return file;
  return /brotli/.test(nginxBuild() ?? '') ? '' : undefined;
}

/** What the tests need and is missing here, each with what to do about it. */
export function missingTestTools() {
  const missing = [];
  const runs = (file, args) => {
    try {
      execFileSync(file, args, { stdio: 'ignore', timeout: 30_000 });
      return true;
    } catch (err) {
      return err.code !== 'ENOENT' && err.code !== 'EACCES' && err.status !== 127;
    }
  };
  const where = (variable, value) =>
    process.env[variable] ? `${variable}=${value} does not run` : `${value} was not found`;
  if (!runs(chromiumPath(), ['--version']))
    missing.push(
      `Chromium: ${where('CHROMIUM_PATH', chromiumPath())}. Install Chromium or Chrome and set CHROMIUM_PATH to ` +
        'its program.',
    );
  if (!nginxBuild())
    missing.push(`nginx: ${where('NGINX_PATH', nginxPath())}. Install nginx and set NGINX_PATH to its program.`);
  else if (brotliModule() === undefined)
    missing.push(
      "nginx's brotli_static module: not found. Install it (Debian: libnginx-mod-http-brotli-static) and set " +
        'NGINX_BROTLI_MODULE to its .so file.',
    );
  for (const tool of ['tar', 'rsync', 'zip', 'unzip']) {
    if (!runs(tool, ['--version']))
      missing.push(`${tool}: not on PATH. Install it (the tests copy the built site with it, as a user would).`);
  }
  return missing;
}
