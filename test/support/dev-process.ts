import { spawn, type ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';

export interface DevProcess {
  child: ChildProcess;
  url: string;
  /** Everything dev has printed on stderr so far (rebuild lines, problems). */
  output: () => string;
}

/**
 * Starts `storefront --verbose dev --port 0` from the given CLI on a project, and resolves once
 * it prints the address it serves (--verbose makes it name its temporary output folder too).
 */
export async function startDevProcess(cli: string, root: string, timeoutMs: number): Promise<DevProcess> {
  const child = spawn(process.execPath, [cli, '--root', root, '--verbose', 'dev', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`dev did not start: ${stdout}${stderr}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`dev exited with ${code}: ${stdout}${stderr}`)));
  });
  return { child, url, output: () => stderr };
}

/** The dev client has its event stream open and has heard the server's state. */
export const listening = (page: Page) =>
  page.waitForFunction(() => document.documentElement.dataset.storefrontDev === 'live', undefined, { timeout: 5000 });
