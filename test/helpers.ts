import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

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

/** A throwaway project: a copy of the real content/ in a temporary folder. */
export async function tempProject(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'storefront-test-'));
  await cp(path.join(repoRoot, 'content'), path.join(root, 'content'), { recursive: true });
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A throwaway project, built with these `build` arguments; fails the suite when the build does. */
export async function builtProject(args: string[] = [], env: Record<string, string> = {}): Promise<{ root: string; cleanup: () => Promise<void> }> {
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

/** Starts `storefront preview` and resolves once it prints its URL. */
export async function startPreviewProcess(args: string[]): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, 'preview', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`preview did not start: ${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`preview exited with ${code}: ${output}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  return { url, child, stop };
}
