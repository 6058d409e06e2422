import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parsePostFile, type ParsedPost } from './parse-post.js';

/**
 * Below this many posts a second thread costs more to start (it loads its own copy of the
 * parsers, about 0.1 s) than it saves; measured on 2 cores.
 */
const POOL_FROM = 500;

/** Posts are claimed in chunks: small enough to balance the threads, large enough to cost nothing to claim. */
const CHUNK = 50;

/** What a parse worker is given (see parse-worker.ts). */
export interface ParseJob {
  root: string;
  dir: string;
  names: readonly string[];
  facts: Readonly<Record<string, string>>;
  /** The index of the next chunk to parse, shared by the threads. */
  next: SharedArrayBuffer;
}

/** A chunk of parsed posts from a worker, by its index, or 'done'. */
export type ParseReply = { index: number; parsed: ParsedPost[] } | 'done';

/** The next unclaimed chunk of `names`, claimed atomically by whichever thread asks first. */
export function claimChunk(job: ParseJob): { index: number; names: readonly string[] } | undefined {
  const index = Atomics.add(new Int32Array(job.next), 0, 1);
  const start = index * CHUNK;
  return start < job.names.length ? { index, names: job.names.slice(start, start + CHUNK) } : undefined;
}

/**
 * A worker thread that parses chunks of a large blog's post files while this thread does the
 * same: Markdown is most of a large blog's build. Started before the site's other files are
 * read, so that loading its code (about 0.15 s) overlaps that; each post is parsed by the same
 * code wherever it runs, and only parsed posts cross threads.
 */
export class ParsePool {
  private readonly worker: Worker;

  private constructor(workerFile: string) {
    this.worker = new Worker(workerFile);
    // A pool left unused (the build failed first) must not keep the process alive.
    this.worker.unref();
  }

  /** A pool for this many posts, or undefined when one thread does as well (few posts, one core, no compiled worker). */
  static start(posts: number): ParsePool | undefined {
    const workerFile = fileURLToPath(new URL('./parse-worker.js', import.meta.url));
    // Run from the TypeScript sources (the tests) there is no compiled worker: one thread.
    if (posts < POOL_FROM || availableParallelism() < 2 || !existsSync(workerFile)) return undefined;
    return new ParsePool(workerFile);
  }

  /** Reads and parses the post files, in order; the pool ends after. */
  async parse(root: string, dir: string, names: readonly string[], facts: Readonly<Record<string, string>>): Promise<ParsedPost[]> {
    const job: ParseJob = { root, dir, names, facts, next: new SharedArrayBuffer(4) };
    const chunks: ParsedPost[][] = [];
    try {
      const theirs = new Promise<void>((resolve, reject) => {
        this.worker.on('message', (reply: ParseReply) => (reply === 'done' ? resolve() : void (chunks[reply.index] = reply.parsed)));
        this.worker.once('error', reject);
        this.worker.once('exit', (code) => reject(new Error(`the parse worker stopped with code ${code}`)));
      });
      // Awaited below; if this thread fails first, the worker is ended and its answer never comes.
      theirs.catch(() => {});
      this.worker.ref();
      this.worker.postMessage(job);
      for (let chunk = claimChunk(job); chunk; chunk = claimChunk(job)) {
        chunks[chunk.index] = chunk.names.map((name) => parsePostFile(root, dir, name, facts));
      }
      await theirs;
    } finally {
      this.close();
    }
    return chunks.flat();
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** Reads and parses the post files, in order: with the pool when there is one, else on this thread. */
export async function parsePostFiles(
  root: string,
  dir: string,
  names: readonly string[],
  facts: Readonly<Record<string, string>>,
  pool?: ParsePool,
): Promise<ParsedPost[]> {
  return pool ? pool.parse(root, dir, names, facts) : names.map((name) => parsePostFile(root, dir, name, facts));
}
