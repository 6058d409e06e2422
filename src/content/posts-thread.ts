/**
 * The worker thread that parses part of a large local blog (posts-worker.ts), so both cores
 * work. The posts are taken in chunks from one shared counter (`ChunkClaims`), so whichever
 * thread is free takes the next chunk and neither waits for the other at the end.
 *
 * With `holdsBodies` it keeps the rendered bodies of its posts instead of sending them back, and
 * later renders and writes those posts' pages itself while this thread renders the rest: a
 * post's page needs nothing of the other posts, and the bodies never cross threads.
 */
import { Worker } from 'node:worker_threads';
import type { WrittenFile } from '../cache/output-manifest.js';
import type { Problem } from '../errors/storefront-error.js';
import type { WriteTarget } from '../output/write-output.js';
import type { RenderSetup } from '../render/render-routes.js';
import type { Route } from '../routes/route-table.js';
import type { Post } from './post.js';

export interface PostsJob {
  root: string;
  dir: string;
  names: string[];
  facts: Readonly<Record<string, string>>;
  /** The next chunk to parse, shared by both threads (see `ChunkClaims`). */
  claims: SharedArrayBuffer;
}

/** Chunks of posts small enough to balance two threads, large enough to cost nothing to claim. */
export const CHUNK = 100;

/** The index of the next chunk of posts to parse, claimed atomically by either thread. */
export class ChunkClaims {
  private readonly next: Int32Array;
  constructor(readonly buffer = new SharedArrayBuffer(4)) {
    this.next = new Int32Array(buffer);
  }

  /** The next unclaimed chunk (its position and names), or undefined when all are taken. */
  claim(names: readonly string[]): { index: number; names: readonly string[] } | undefined {
    const index = Atomics.add(this.next, 0, 1);
    const start = index * CHUNK;
    return start < names.length ? { index, names: names.slice(start, start + CHUNK) } : undefined;
  }
}

/** A chunk of parsed posts (without their bodies when held), or the end of parsing. */
export type PostsMessage = ParsedChunk | 'parsed';

export interface ParsedChunk {
  /** Which chunk of the names (see `ChunkClaims`). */
  index: number;
  posts: Post[];
  problems: Problem[];
}

type PostRoute = Extract<Route, { kind: 'blog-post' }>;

/** The pages of held posts to render: each route with its post named by id. */
export interface PagesRequest {
  setup: RenderSetup;
  routes: (Omit<PostRoute, 'post'> & { postId: string })[];
  target: WriteTarget;
  precompress: boolean;
  /** Whether to compute each page's cache key (not with --no-cache). */
  keyed: boolean;
}

export interface PagesReply {
  pages: { path: string; key: string; written: WrittenFile[] }[];
  /** Pages that could not be rendered; nothing of this build is then kept. */
  failures: Problem[];
  /** Why a page could not be written (the build then fails as for any output error). */
  writeError?: string;
  /** Time spent rendering (as opposed to writing), for the stage figures. */
  renderMs: number;
}

export class PostsThread {
  private readonly worker: Worker;
  private readonly held = new Set<string>();
  private parsedChunks: Promise<ParsedChunk[]> | undefined;

  /**
   * Starts the thread, which loads its code while this one reads the site's other content.
   * `holdsBodies`: keep the bodies and wait for a `PagesRequest`; otherwise bodies are sent back
   * and the thread ends once the posts are parsed.
   */
  constructor(readonly holdsBodies: boolean) {
    this.worker = new Worker(new URL('./posts-worker.js', import.meta.url), { workerData: { holdBodies: holdsBodies } });
    this.worker.once('exit', (code) => (this.exitCode = code));
  }

  /** Set once the thread has ended, however it ended: a request to it then fails at once. */
  private exitCode: number | undefined;

  /** Parses chunks of the posts of `job` while this thread does the same; resolves with the worker's chunks. */
  parse(job: PostsJob): Promise<ParsedChunk[]> {
    this.parsedChunks ??= new Promise((resolve, reject) => {
      const result: ParsedChunk[] = [];
      const onMessage = (message: PostsMessage) => {
        if (message === 'parsed') {
          this.worker.off('message', onMessage);
          // A thread left waiting for pages (the build failed first) must not keep the process alive.
          this.worker.unref();
          return resolve(result);
        }
        if (this.holdsBodies) for (const post of message.posts) this.hold(post);
        result.push(message);
      };
      this.worker.on('message', onMessage);
      this.failures(reject);
      this.worker.postMessage(job);
    });
    return this.parsedChunks;
  }

  /** Whether this thread holds the post's body, and so renders its page. */
  holds(post: Post): boolean {
    return this.held.has(post.id);
  }

  /** Renders and writes the pages of held posts; the thread ends after answering. */
  renderPages(request: PagesRequest): Promise<PagesReply> {
    if (this.exitCode !== undefined) return Promise.reject(new Error(`the posts worker stopped with code ${this.exitCode}`));
    return new Promise((resolve, reject) => {
      this.worker.once('message', (reply: PagesReply) => {
        resolve(reply);
        this.close();
      });
      this.failures(reject);
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  close(): void {
    void this.worker.terminate();
  }

  private failures(reject: (err: Error) => void): void {
    this.worker.once('error', reject);
    this.worker.once('exit', (code) => reject(new Error(`the posts worker stopped with code ${code}`)));
  }

  /** A post whose body stays in the worker: reading it here is a bug, and says so. */
  private hold(post: Post): Post {
    this.held.add(post.id);
    return Object.defineProperty(post, 'contentHtml', {
      enumerable: false,
      get: () => {
        throw new Error(`the body of ${post.source} is held by the posts worker, which renders its page`);
      },
    });
  }
}
