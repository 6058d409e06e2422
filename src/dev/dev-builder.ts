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

  constructor(
    private entry: string,
    private readonly log: (line: string) => void,
  ) {
    this.worker = this.start();
  }

  build(options: BuildRequest['options']): Promise<BuildOutcome> {
    return new Promise((resolve) => {
      const onMessage = (reply: BuildReply) => {
        if (reply.kind === 'log') return this.log(reply.line);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        resolve(reply);
      };
      const onError = (err: Error) => {
        this.worker.off('message', onMessage);
        // A worker that died cannot build again: the next build gets a new one.
        this.worker = this.start();
        resolve({ kind: 'crashed', message: err.message, stack: err.stack });
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', onError);
      this.worker.postMessage({ options } satisfies BuildRequest);
    });
  }

  /** Loads the code again from `entry` (after the bundle was remade). */
  async restart(entry: string): Promise<void> {
    this.entry = entry;
    await this.worker.terminate();
    this.worker = this.start();
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private start(): Worker {
    // React's production build, as bin/storefront.js chooses for the CLI.
    return new Worker(this.entry, { env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' } });
  }
}
