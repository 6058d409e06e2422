/**
 * `preview` and `dev` against what an adversary (or an accident) puts in their way, through the
 * real CLI: links in the served folder to a file, a folder and the project outside it; a build
 * that removes a page under a running `preview`; methods dev's own addresses do not take; dev
 * ended by SIGHUP and SIGTERM; a foreign `Host` (DNS rebinding); ports that are not plain decimal.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliPath,
  projectsOfThisFile,
  runCli,
  startCliServer,
  startPreviewProcess,
  type CliServer,
} from '../helpers.js';

const project = projectsOfThisFile();
/** Every server a test starts, stopped after the file's tests even when one fails. */
const started: CliServer[] = [];
const outside: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await Promise.all(outside.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw request (any method, any Host header), no redirect followed. */
function ask(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A built copy of the project with --precompress, as a host would serve it. */
async function builtCopy(): Promise<string> {
  const { root } = await project();
  const built = await runCli(['--root', root, 'build', '--precompress', '--quiet']);
  expect(built.code, built.stderr).toBe(0);
  return root;
}

async function preview(root: string): Promise<CliServer> {
  const server = await startPreviewProcess(['--root', root, '--out', 'dist', '--port', '0']);
  started.push(server);
  return server;
}

async function dev(root: string): Promise<CliServer> {
  const server = await startCliServer(['--root', root, '--verbose', 'dev', '--port', '0'], 30_000);
  started.push(server);
  return server;
}

/** The temporary folder dev said it builds into. */
const devFolder = (server: CliServer): string => {
  const folder = /Building into (\S+)/.exec(server.stderr())?.[1];
  expect(folder, server.stderr()).toBeTruthy();
  return path.dirname(folder!);
};

/** Sends a signal and resolves with the exit code once the process has ended. */
function endWith(server: CliServer, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve(server.child.exitCode);
    server.child.once('exit', (code) => resolve(code));
    server.child.kill(signal);
  });
}

/** Links to things outside the folder, and one to a file inside it; returns what each must not show. */
async function plantLinks(dir: string, root: string): Promise<void> {
  const elsewhere = await mkdtemp(path.join(tmpdir(), 'storefront-elsewhere-'));
  outside.push(elsewhere);
  await writeFile(path.join(elsewhere, 'secret.txt'), 'SECRET=outside');
  await writeFile(path.join(elsewhere, 'page.html'), '<p>SECRET=outside</p>');
  await symlink('/etc/passwd', path.join(dir, 'passwd'));
  await symlink('/etc', path.join(dir, 'etc'));
  await symlink(elsewhere, path.join(dir, 'elsewhere'));
  await symlink(path.join(elsewhere, 'secret.txt'), path.join(dir, 'secret.txt'));
  await symlink(path.join(elsewhere, 'page.html'), path.join(dir, 'leak.html'));
  await symlink(root, path.join(dir, 'up'));
  await symlink('robots.txt', path.join(dir, 'alias.txt'));
}

/** The paths the links above would leak through. */
const LEAKS = [
  '/passwd',
  '/etc/passwd',
  '/etc/hostname',
  '/elsewhere/secret.txt',
  '/elsewhere/page',
  '/secret.txt',
  '/leak',
  '/up/content/site.yaml',
  '/up/content/catalogue.yaml',
];

function expectNoLeak(answer: Answer, p: string): void {
  expect(answer.status, p).toBe(404);
  expect(answer.body, p).not.toContain('root:');
  expect(answer.body, p).not.toContain('SECRET=outside');
  expect(answer.body, p).not.toMatch(/^\s*(site|brand|products):/m);
}

describe('preview', () => {
  let root: string;
  beforeAll(async () => {
    root = await builtCopy();
  });

  it(
    'starts with links in its folder to a file, a folder (/etc, a temporary one) and the project outside, ' +
      'and answers 404 through each',
    async () => {
      const dist = path.join(root, 'dist');
      await plantLinks(dist, root);
      try {
        const server = await preview(root);
        try {
          for (const p of LEAKS) {
            expectNoLeak(await ask(server.url + p), p);
            expectNoLeak(await ask(server.url + p, { headers: { 'accept-encoding': 'br, gzip' } }), `${p} (br, gzip)`);
          }
          // A link to a file inside the folder is the file.
          const alias = await ask(`${server.url}/alias.txt`);
          expect(alias.status).toBe(200);
          expect(alias.body).toContain('User-agent');
          // Precompressed copies, ETag and 304 as before.
          const page = await ask(`${server.url}/about`, { headers: { 'accept-encoding': 'br' } });
          expect(page.status).toBe(200);
          expect(page.headers['content-encoding']).toBe('br');
          expect(page.headers.vary).toBe('Accept-Encoding');
          const etag = String(page.headers.etag);
          expect(etag).toMatch(/^W\/"\d+-\d+"$/);
          expect(
            (await ask(`${server.url}/about`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } })).status,
          ).toBe(304);
        } finally {
          await server.stop();
        }
      } finally {
        // A build refuses a folder holding files it did not write.
        for (const name of ['passwd', 'etc', 'elsewhere', 'secret.txt', 'leak.html', 'up', 'alias.txt'])
          await rm(path.join(dist, name), { force: true });
      }
    },
  );

  it(
    'keeps answering while a build that removes a page swaps the folder under it, ' + 'then serves the new build',
    async () => {
      const server = await preview(root);
      const post = '/blog/youtube-monetisation-thresholds-explained';
      expect((await ask(server.url + post)).status).toBe(200);
      const statuses = new Map<string, number>();
      const failures: string[] = [];
      let building = true;
      const hammer = (async () => {
        while (building) {
          for (const p of [post, '/', '/about', '/assets/does-not-exist.css']) {
            try {
              const { status } = await ask(server.url + p, { headers: { 'accept-encoding': p === '/' ? 'br' : '' } });
              statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
            } catch (err) {
              failures.push(`${p}: ${(err as Error).message}`);
            }
          }
        }
      })();
      await rename(
        path.join(root, 'content', 'blog', 'youtube-monetisation-thresholds-explained.md'),
        path.join(root, 'removed-post.md'),
      );
      const built = await runCli(['--root', root, 'build', '--precompress', '--quiet']);
      building = false;
      await hammer;
      expect(built.code, built.stderr).toBe(0);
      expect(failures).toEqual([]);
      expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining(['200']));
      expect([...statuses.keys()].filter((status) => status !== '200' && status !== '404')).toEqual([]);
      expect(server.child.exitCode).toBeNull();
      expect(server.stderr()).not.toContain('SF901');
      // After the build: the removed page is gone, the others are the new build's.
      const removed = await ask(server.url + post);
      expect(removed.status).toBe(404);
      expect(removed.body).toContain('PAGE NOT FOUND');
      expect((await ask(`${server.url}/about`)).status).toBe(200);
      expect((await ask(`${server.url}/blog`)).body).not.toContain('youtube-monetisation-thresholds-explained');
      await server.stop();
    },
  );

  it('answers 403 to a foreign Host, as against DNS rebinding, and 200 to its own names', async () => {
    const server = await preview(root);
    try {
      const port = new URL(server.url).port;
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `localhost.evil.example:${port}`,
        `127.0.0.1.nip.io:${port}`,
        'x y',
        `localhost:${port}@evil.example`,
      ]) {
        const answer = await ask(`${server.url}/`, { headers: { host } });
        expect(answer.status, host).toBe(403);
        expect(answer.body, host).not.toContain('<html');
      }
      for (const host of [
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        `[::1]:${port}`,
        `shop.localhost:${port}`,
        `LOCALHOST:${port}`,
      ]) {
        expect((await ask(`${server.url}/`, { headers: { host } })).status, host).toBe(200);
      }
    } finally {
      await server.stop();
    }
  });
});

describe('dev', () => {
  let root: string;
  let first: CliServer;
  let second: CliServer;
  beforeAll(async () => {
    root = (await project()).root;
    [first, second] = await Promise.all([dev(root), dev(root)]);
  }, 90_000);

  it('answers 405 with Allow to other methods than GET and HEAD on its own addresses', async () => {
    for (const p of ['/__storefront/events', '/__storefront/dev.js']) {
      for (const method of ['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
        const answer = await ask(first.url + p, { method });
        expect(answer.status, `${method} ${p}`).toBe(405);
        expect(answer.headers.allow, `${method} ${p}`).toBe('GET, HEAD');
      }
    }
    expect((await ask(`${first.url}/__storefront/dev.js`)).status).toBe(200);
    expect((await ask(`${first.url}/__storefront/events`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 403 to a foreign Host on pages, the client and the event stream, and 200 at localhost:PORT', async () => {
    const port = new URL(first.url).port;
    for (const p of ['/', '/__storefront/dev.js', '/__storefront/events']) {
      const foreign = await ask(first.url + p, { headers: { host: `evil.example:${port}` } });
      expect(foreign.status, p).toBe(403);
      expect(foreign.body, p).not.toContain('__storefront');
    }
    const page = await ask(`${first.url}/`, { headers: { host: `localhost:${port}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('/__storefront/dev.js');
  });

  it('answers 404 through links in its folder to files and folders outside it', async () => {
    const site = path.join(devFolder(first), 'site');
    await plantLinks(site, root);
    for (const p of LEAKS) expectNoLeak(await ask(first.url + p), p);
    expect((await ask(`${first.url}/alias.txt`)).status).toBe(200);
  });

  it('removes its temporary folder when ended by SIGHUP (a closed terminal) or SIGTERM, and exits 0', async () => {
    const folders = [devFolder(first), devFolder(second)];
    expect(folders.every((folder) => existsSync(folder))).toBe(true);
    const [hup, term] = await Promise.all([endWith(first, 'SIGHUP'), endWith(second, 'SIGTERM')]);
    expect(hup, first.stderr()).toBe(0);
    expect(term, second.stderr()).toBe(0);
    expect(folders.filter((folder) => existsSync(folder))).toEqual([]);
  });

  it('removes its temporary folder when ended by SIGHUP during its first build', async () => {
    const child = spawn(process.execPath, [cliPath, '--root', root, '--verbose', 'dev', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => /Building into (\S+)/.exec(stderr)?.[1], { timeout: 20_000 }).toBeTruthy();
      child.kill('SIGHUP');
      expect(await exited, stderr).toBe(0);
      expect(existsSync(path.dirname(/Building into (\S+)/.exec(stderr)![1]!))).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('--port', () => {
  it(
    'takes plain decimal digits only: 0x50, 1e3, " 80", "+80" and the like are SF170, ' +
      'before anything is built or served',
    async () => {
      const { root } = await project();
      const values = [
        '0x50',
        '0X50',
        '1e3',
        ' 80',
        '80 ',
        '+80',
        '-1',
        '80.0',
        '0b1010',
        '0o120',
        '65536',
        '',
        '１２３',
      ];
      for (const command of ['preview', 'dev']) {
        const results = await Promise.all(values.map((value) => runCli(['--root', root, command, '--port', value])));
        results.forEach((result, i) => {
          const value = `${command} --port ${JSON.stringify(values[i])}`;
          expect(result.code, value).toBe(1);
          expect(result.stdout, value).toBe('');
          expect(result.stderr, value).toContain('SF170  --port');
          expect(result.stderr, value).toContain('must be a whole number from 0 to 65535, in decimal digits.');
          expect(result.stderr, value).not.toContain('Building');
        });
      }
      // Plain digits still do, leading zeros included: this project has no build to serve.
      const plain = await runCli(['--root', root, 'preview', '--port', '0000']);
      expect(plain.stderr).toContain('SF141');
      expect(plain.stderr).not.toContain('SF170');
    },
  );
});
