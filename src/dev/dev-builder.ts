import { Worker } from 'node:worker_threads';
import type { BuildReply, BuildRequest } from './build-worker.js';

export type BuildOutcome = Exclude<BuildReply, { kind: 'log' }>;

/**
 * Runs builds one at a time in a worker thread loaded from a generator bundle (see
 * DevGeneratorBundle). The worker stays up between builds, so rebuilds run warm; `restart`
 * replaces it when the code changed.
 */
export class DevBuilder {
  private worker: Worker;
  private stopped = false;
  /** Workers that have ended: one is replaced before it is given a build it would never answer. */
  private readonly ended = new WeakSet<Worker>();

  constructor(
    private entry: string,
    private readonly log: (line: string) => void,
  ) {
    this.worker = this.start();
  }

  build(options: BuildRequest['options']): Promise<BuildOutcome> {
    if (this.ended.has(this.worker)) this.worker = this.start();
    const worker = this.worker;
    return new Promise((resolve) => {
      const finish = (outcome: BuildOutcome) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (reply: BuildReply) => {
        if (reply.kind === 'log') return this.log(reply.line);
        finish(reply);
      };
      // A worker that died cannot build again: the next build gets a new one.
      const onError = (err: Error) => {
        if (this.worker === worker && !this.stopped) this.worker = this.start();
        finish({ kind: 'crashed', message: err.message, stack: err.stack });
      };
      // Ended without an error (process.exit in the code, terminate): the build would never answer.
      const onExit = (code: number) => {
        if (this.worker === worker && !this.stopped) this.worker = this.start();
        finish({
          kind: 'crashed',
          message: `The build worker ended with exit code ${code} before the build finished.`,
        });
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ options } satisfies BuildRequest);
    });
  }

  /** Loads the code again from `entry` (after the bundle was remade). */
  async restart(entry: string): Promise<void> {
    this.entry = entry;
    await this.worker.terminate();
    this.worker = this.start();
  }

  /**
   * Ends the worker, whatever its build is doing; true once it has ended. A worker blocked in a
   * system call (a read that never returns) cannot end, and waiting for it would keep dev from
   * stopping: after `waitMs` the answer is false, and the caller cannot exit the usual way.
   */
  async stop(waitMs = 1000): Promise<boolean> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    const ended = await Promise.race([this.worker.terminate().then(() => true as const), waited]);
    clearTimeout(timer);
    return ended;
  }

  private start(): Worker {
    // React's production build, as bin/storefront.js chooses for the CLI.
    const worker = new Worker(this.entry, { env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' } });
    // A worker whose code throws while no build waits on it would otherwise take dev down with
    // an unhandled 'error' event; the next build reports it (the worker has ended by then).
    worker.on('error', () => {});
    worker.once('exit', () => this.ended.add(worker));
    return worker;
  }
}
