import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Stamps } from '../util/file-stamp.js';

/** What the worker stamps (see stampFolder). */
export interface StampJob {
  dir: string;
  recursive: boolean;
}

/**
 * A rebuild compares the stamp of every file the previous build wrote with the manifest's:
 * 44,000 stat calls at 40,000 posts. Below this many files, a worker thread costs more to
 * start (30-40 ms) than the calls cost here.
 */
export const STAMP_THREAD_FROM = 1000;

/**
 * The stamps of a folder's files (see stampFolder), taken on a worker thread while this one
 * reads the caches and the content. The calls then cost this thread nothing, and neither does
 * the garbage of their Stats objects, a fifth of what a rebuild of a large blog allocates.
 */
export class StampThread {
  private readonly worker: Worker;
  private readonly result: Promise<Stamps | undefined>;

  constructor(job: StampJob) {
    this.worker = new Worker(new URL('./stamp-worker.js', import.meta.url), { workerData: job });
    this.result = new Promise((resolve) => {
      this.worker.once('message', (flat: string[]) => {
        const stamps: Stamps = new Map();
        for (let i = 0; i < flat.length; i += 2) stamps.set(flat[i]!, flat[i + 1]!);
        resolve(stamps);
      });
      // A message sent before the thread ended arrives before 'exit', and resolving an answered
      // promise again changes nothing.
      this.worker.once('error', () => resolve(undefined));
      this.worker.once('exit', () => resolve(undefined));
    });
  }

  /** The stamps; undefined if the thread failed (the caller then takes them, and reports any error as usual). */
  stamps(): Promise<Stamps | undefined> {
    return this.result;
  }

  /** Ends the thread if it is still at work (a build that failed first). */
  close(): void {
    void this.worker.terminate();
  }

  /** Whether a thread pays for this many files, on this machine. */
  static pays(files: number, threads: number): boolean {
    return threads > 1 && files >= STAMP_THREAD_FROM && availableParallelism() > 1;
  }
}
