import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cliPath = path.join(repoRoot, 'bin', 'storefront.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (compiled JavaScript) in a child process, its output through pipes. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      // No colours unless a test asks for them (NO_COLOR: '' with FORCE_COLOR: '1').
      { env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Puts the repository's content/ into a project, in place of what its content/ holds. */
export async function resetContent(root: string): Promise<void> {
  await rm(path.join(root, 'content'), { recursive: true, force: true });
  await cp(path.join(repoRoot, 'content'), path.join(root, 'content'), { recursive: true });
}

/** A throwaway project: a copy of the real content/ in a temporary folder. */
export async function tempProject(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'storefront-test-'));
  await resetContent(root);
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A throwaway copy of a project folder, its output and .cache/ included (a warm start). */
export async function copyOfProject(from: string): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'storefront-test-'));
  await cp(from, root, { recursive: true });
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/**
 * Throwaway projects for one test file, all removed after its tests (even failed ones). Call it
 * at the file's top level: `const project = projectsOfThisFile();`, then `await project()`.
 */
export function projectsOfThisFile(): () => Promise<Awaited<ReturnType<typeof tempProject>>> {
  const made: Awaited<ReturnType<typeof tempProject>>[] = [];
  afterAll(async () => {
    await Promise.all(made.map((p) => p.cleanup()));
  });
  return async () => {
    const one = await tempProject();
    made.push(one);
    return one;
  };
}

/** A throwaway project, built with these `build` arguments; fails the suite when the build does. */
export async function builtProject(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const project = await tempProject();
  const built = await runCli(['--root', project.root, 'build', ...args], env);
  expect(built.code, built.stderr).toBe(0);
  return project;
}

/** Replaces one exact piece of text in a project file; fails loudly when it is not there. */
export async function editFile(root: string, file: string, from: string | RegExp, to: string): Promise<void> {
  const absolute = path.join(root, file);
  const text = await readFile(absolute, 'utf8');
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`editFile: ${String(from)} not found in ${file}`);
  await writeFile(absolute, edited);
}

/** A hash of every file name and content under a folder: equal hashes, identical trees. */
export async function hashTree(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (current: string) => {
    const entries = (await readdir(current, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      hash.update(path.relative(dir, full));
      if (entry.isDirectory()) await walk(full);
      else hash.update(await readFile(full));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

/**
 * A folder's state: its identity (a build swaps a new folder in, with another inode, even when it
 * writes the same files) and a hash of every file. Equal states: the folder was left alone.
 */
export async function folderState(dir: string): Promise<string> {
  return `${(await stat(dir)).ino}:${await hashTree(dir)}`;
}

/** What a host answered, as it sent it. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A raw GET of `pathAsWritten` from `origin`: the path sent exactly as written, no redirect
 * followed, nothing decompressed, so status, headers and bytes are what the host sent.
 */
export function rawGet(
  origin: string,
  pathAsWritten: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path: pathAsWritten, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface CliServer {
  /** The first loopback URL it printed, without a trailing slash: `http://127.0.0.1:4173`. */
  url: string;
  child: ChildProcess;
  /** Everything it has printed so far on stdout and on stderr. */
  stdout: () => string;
  stderr: () => string;
  /** Ctrl-C (SIGTERM), and SIGKILL after 10 s; resolves once it has exited. */
  stop: () => Promise<void>;
}

/**
 * Starts a long-running command of the real CLI (`preview`, `dev`) and resolves once it prints
 * a loopback URL; stops it again when it exits first or does not print one in time.
 */
export async function startCliServer(args: string[], timeoutMs = 10_000): Promise<CliServer> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start: ${stdout}${stderr}`)), timeoutMs);
    const onData = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout + stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${stdout}${stderr}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  return { url, child, stdout: () => stdout, stderr: () => stderr, stop };
}

/**
 * Runs every clean-up step, even when one before it failed (or setup stopped half-way), then throws the first failure.
 */
export async function cleanUp(...steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}

/** Starts `storefront preview` and resolves once it prints its URL. */
export function startPreviewProcess(args: string[]): Promise<CliServer> {
  return startCliServer(['preview', ...args]);
}
