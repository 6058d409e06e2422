import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliModule, nginxMimeTypes, nginxPath } from './test-tools.mjs';

/**
 * A real nginx (Debian's, installed by scripts/install-test-deps.sh, or NGINX_PATH) serving a built folder
 * through the generated include, with its own pid, logs and temp files under `workDir`. A site
 * built for a base path is served from a root that holds it under that folder (`include`).
 */
export async function startNginx(
  siteDir: string,
  workDir: string,
  port: number,
  include = path.join(siteDir, '_nginx.conf'),
): Promise<{ url: string; stop: () => Promise<void> }> {
  await mkdir(path.join(workDir, 'temp'), { recursive: true });
  const brotli = brotliModule();
  const temp = (name: string) => `${name}_temp_path ${path.join(workDir, 'temp', name)};`;
  const conf = `
daemon off;
worker_processes 1;
pid ${path.join(workDir, 'nginx.pid')};
error_log ${path.join(workDir, 'error.log')} warn;
${brotli ? `load_module ${brotli};` : ''}
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 64; }
http {
  include ${nginxMimeTypes()};
  default_type application/octet-stream;
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    root ${siteDir};
    ${brotli !== undefined ? 'brotli_static on;' : ''}
    include ${include};
  }
}
`;
  const confPath = path.join(workDir, 'nginx.conf');
  await writeFile(confPath, conf);
  const child: ChildProcess = spawn(
    nginxPath(),
    ['-p', workDir, '-c', confPath, '-e', path.join(workDir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGQUIT');
    });
  // Wait until it answers (or fails).
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) {
      const log = existsSync(path.join(workDir, 'error.log'))
        ? await readFile(path.join(workDir, 'error.log'), 'utf8')
        : '';
      throw new Error(`nginx exited: ${stderr}${log}`);
    }
    try {
      await fetch(url);
      return { url, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new Error(`nginx did not start: ${stderr}`);
}
