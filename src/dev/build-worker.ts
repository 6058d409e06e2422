/**
 * The worker thread in which `storefront dev` runs its builds. A worker loads the generator's
 * code afresh, so after a template edit dev starts a new one from the new bundle; between
 * edits of content the same worker builds again and again, warm.
 */
import { parentPort } from 'node:worker_threads';
import { build, newBuildMemo, type BuildOptions, type BuildSummary } from '../build.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';

/** What dev asks for: a build with these options (all plain data). */
export interface BuildRequest {
  options: Omit<BuildOptions, 'log' | 'progress' | 'memo'>;
}

export type BuildReply =
  | { kind: 'log'; line: string }
  | { kind: 'built'; summary: BuildSummary }
  | { kind: 'failed'; problems: Problem[]; footer?: string }
  /** Not a problem with the content: a bug, shown with its stack. */
  | { kind: 'crashed'; message: string; stack?: string };

const port = parentPort!;
/** Parsed posts and rendered pages of this worker's builds: the code is the same until the worker is replaced. */
const memo = newBuildMemo();
port.on('message', async ({ options }: BuildRequest) => {
  const reply = (message: BuildReply) => port.postMessage(message);
  try {
    const summary = await build({ ...options, memo, log: (line) => reply({ kind: 'log', line }) });
    reply({ kind: 'built', summary });
  } catch (err) {
    if (err instanceof StorefrontError) reply({ kind: 'failed', problems: [...err.problems], footer: err.footer });
    else reply({ kind: 'crashed', message: (err as Error).message ?? String(err), stack: (err as Error).stack });
  }
});
