import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { codes } from '../errors/codes.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import { PostCache } from '../cache/post-cache.js';
import { fileStamp } from '../util/file-stamp.js';
import { hashText } from '../util/hash.js';
import { renderMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import { cardKeyOf, type Post, type PostCard } from './post.js';
import { ChunkClaims, PostsThread, type ParsedChunk, type PostsJob } from './posts-thread.js';
import { unsafeSlugReason } from './post-slug.js';
import { postSchema, type PostFrontMatter } from './schemas.js';
import { displayPath, parseMarkdownText } from './source-file.js';
import { expandTokens } from './tokens.js';
import { escapeMarkup } from '../util/escape.js';

/** Where parsed posts are kept between builds, and what they were parsed with. */
export interface PostsCacheOptions {
  cacheDir: string;
  codeFingerprint: string;
  /** False: parse every post (the cache is still written for the next build). */
  reuse: boolean;
  /** The post files' stamps by name, when they were taken already (see posts-rebuild.ts). */
  stamps?: ReadonlyMap<string, string>;
}

/** The local blog, and the worker thread that holds the bodies of part of it, if any. */
export interface LocalPosts {
  posts: Post[];
  thread?: PostsThread;
  /** The bodies of the posts taken from the cache, read when their pages are rendered. */
  cachedBodies?: CachedBodies;
}

/**
 * The bodies of posts taken from the build cache, which keeps everything of a post but its
 * body. A body is read (parsed again) when its page is rendered; when many are needed (a change
 * to site.yaml renders every post page again) `load` reads them beforehand, on two threads.
 */
export class CachedBodies {
  private readonly bodies = new Map<string, string>();
  private readonly cached = new Set<Post>();

  constructor(
    private readonly root: string,
    private readonly dir: string,
    private readonly facts: Readonly<Record<string, string>>,
    private readonly worker: PostsWorkerUse,
  ) {}

  /** Records a post taken from the cache; its body is read on first use. */
  add(post: Post): void {
    this.cached.add(post);
  }

  body(name: string): string {
    let body = this.bodies.get(name);
    if (body === undefined) {
      body = readBody(this.root, this.dir, name, this.facts);
      this.bodies.set(name, body);
    }
    return body;
  }

  /** True for a post from the cache whose body has not been read yet. */
  pending(post: Post): boolean {
    return this.cached.has(post) && !this.bodies.has(path.basename(post.source));
  }

  /** Reads the bodies of these posts at once: on two threads when they are many. */
  async load(posts: readonly Post[]): Promise<void> {
    const names = posts.filter((post) => this.pending(post)).map((post) => path.basename(post.source));
    const thread = startPostsThread(names, this.worker === 'none' ? 'none' : 'parse');
    if (!thread) return; // Few: each is read when its page is rendered.
    const problems = new ProblemList();
    const parsed = await parseOnTwoThreads(thread, { root: this.root, dir: this.dir, names, facts: this.facts }, problems);
    // A file changed while the build ran (it was valid a moment ago).
    problems.throwIfAny(NOTHING_WRITTEN);
    for (const post of parsed) this.bodies.set(path.basename(post.source), post.contentHtml);
  }
}

/**
 * Reads the local Markdown blog: one post per `.md` file, newest first. With a cache, posts
 * whose files are unchanged since the previous build are taken from it instead of parsed.
 * A large blog is parsed on two threads; with 'parse-and-render' the worker thread keeps its
 * posts' bodies and later renders their pages (see posts-thread.ts).
 */
export async function loadLocalPosts(
  root: string,
  dir: string,
  /** The post files in `dir` (see listFileNames). */
  names: string[],
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
  {
    cache: cacheOptions,
    worker = 'parse',
    started,
  }: {
    cache?: PostsCacheOptions;
    worker?: PostsWorkerUse;
    /** A thread started early for these posts (see startPostsThread). */
    started?: PostsThread;
  } = {},
): Promise<LocalPosts> {
  const cache =
    cacheOptions && PostCache.open(cacheOptions.cacheDir, root, dir, hashText(cacheOptions.codeFingerprint, JSON.stringify(facts)), cacheOptions.reuse);
  const reused: Post[] = [];
  let toParse = names;
  let cachedBodies: CachedBodies | undefined;
  if (cache && cacheOptions.reuse) {
    toParse = [];
    const bodies = (cachedBodies = new CachedBodies(root, dir, facts, worker));
    for (const name of names) {
      // Concatenated, not path.join: this runs for every post of every rebuild.
      const stamp = cacheOptions.stamps?.get(name) ?? fileStamp(`${dir}${path.sep}${name}`).stamp;
      const post = cache.reuse(name, stamp, () => bodies.body(name));
      // A cached post whose image has gone is parsed again, so the problem is reported with its line.
      if (post && (!post.image || imageExists(dir, post.image.src))) {
        reused.push(post);
        bodies.add(post);
      } else toParse.push(name);
    }
  }
  // A thread started early for a new output folder (every post is parsed then), or now for a
  // rebuild that finds many posts changed. Only the early one keeps bodies: the caller closes it.
  let thread = started ?? startPostsThread(toParse, worker === 'none' ? 'none' : 'parse');
  if (thread && toParse.length < PARALLEL_FROM) {
    thread.close();
    thread = undefined;
  }
  const parsed = thread ? await parseOnTwoThreads(thread, { root, dir, names: toParse, facts }, problems) : parsePostFiles(root, dir, toParse, facts, problems);
  if (thread && !thread.holdsBodies) thread = undefined;
  if (cache) {
    for (const post of parsed) cache.keep(path.basename(post.source), post);
    if (problems.items.length === 0) cache.save();
  }
  return { posts: sortNewestFirst([...reused, ...parsed]), thread, cachedBodies };
}

/** 'none': everything on this thread; 'parse': a worker parses part of a large blog; 'parse-and-render': and renders those pages. */
export type PostsWorkerUse = 'none' | 'parse' | 'parse-and-render';

/**
 * A worker thread for a large blog, started before the rest of the content is read so that
 * its start-up is hidden; undefined when the blog is small or there is one core.
 */
export function startPostsThread(names: readonly string[], worker: PostsWorkerUse): PostsThread | undefined {
  if (worker === 'none' || names.length < PARALLEL_FROM || availableParallelism() < 2) return undefined;
  return new PostsThread(worker === 'parse-and-render');
}

/** Parses the posts in chunks on this thread and the worker, and puts the chunks back in name order. */
async function parseOnTwoThreads(thread: PostsThread, job: Omit<PostsJob, 'claims'>, problems: ProblemList): Promise<Post[]> {
  const claims = new ChunkClaims();
  const chunks: ParsedChunk[] = [];
  try {
    const theirs = thread.parse({ ...job, claims: claims.buffer });
    // Awaited below; if this thread fails first, the worker is ended and its answer never comes.
    theirs.catch(() => {});
    for (let chunk = claims.claim(job.names); chunk; chunk = claims.claim(job.names)) {
      const found = new ProblemList();
      chunks.push({ index: chunk.index, posts: parsePostFiles(job.root, job.dir, chunk.names, job.facts, found), problems: found.items });
    }
    chunks.push(...(await theirs));
  } catch (err) {
    thread.close();
    throw err;
  }
  chunks.sort((a, b) => a.index - b.index);
  for (const chunk of chunks) for (const problem of chunk.problems) problems.add(problem);
  return chunks.flatMap((chunk) => chunk.posts);
}

/** The body of one post, parsed again: for a cached post whose page has to be rendered. */
function readBody(root: string, dir: string, name: string, facts: Readonly<Record<string, string>>): string {
  const problems = new ProblemList();
  const [post] = parsePostFiles(root, dir, [name], facts, problems);
  // The file changed while the build ran (it was valid a moment ago).
  problems.throwIfAny(NOTHING_WRITTEN);
  return post!.contentHtml;
}

function imageExists(dir: string, src: string): boolean {
  return /^https?:\/\//.test(src) || existsSync(path.join(dir, '..', src));
}

/**
 * A copy of a string that holds no reference to the file it came from. Parsers return slices
 * and concatenations of the source text, which keep the whole file alive for as long as the
 * post lives: for 40,000 posts that is hundreds of megabytes.
 */
function own(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Below this many posts a worker thread costs more to start (it loads its own copy of the parsers) than it saves; measured on 2 cores. */
const PARALLEL_FROM = 2000;

/** Reads, checks and renders the given post files (in this thread). */
export function parsePostFiles(
  root: string,
  dir: string,
  names: readonly string[],
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Post[] {
  const posts: Post[] = [];
  names.forEach((name) => {
    const contentKey = fileStamp(path.join(dir, name)).stamp;
    // readFileSync on purpose: for thousands of small files it is several times faster than
    // fs/promises (one call instead of open, stat, read and close through the thread pool),
    // and nothing else waits on this thread meanwhile.
    const text = readFileSync(path.join(dir, name), 'utf8');
    const source = parseMarkdownText(displayPath(root, path.join(dir, name)), text, problems);
    if (!source) return;
    expandTokens(source, facts, problems);
    const front = parseWithSchema(postSchema, source, problems, 'See docs/content-model.md, "Blog posts".') as
      | PostFrontMatter
      | undefined;
    if (!front) return;
    const slug = front.slug ?? name.replace(/\.md$/, '');
    const reason = unsafeSlugReason(slug);
    if (reason) {
      problems.add({
        code: codes.badPostSlug,
        file: source.file,
        field: 'slug',
        line: source.lineOf(['slug']),
        message: `The slug "${slug}" cannot be a page address: ${reason}.`,
        hint: 'Use lowercase words joined by hyphens, e.g. how-to-grow-on-tiktok.',
      });
      return;
    }
    if (front.image && !imageExists(dir, front.image.src)) {
      problems.add({
        code: codes.missingFile,
        file: source.file,
        field: 'image.src',
        line: source.lineOf(['image', 'src']),
        message: `The image ${front.image.src} is not in content/images/.`,
        hint: 'Put the image in content/images/ and write its path as /images/name.svg, or use an https:// URL.',
      });
    }
    const body = renderMarkdown(source.body ?? '');
    const card: PostCard = {
      slug,
      titleHtml: own(escapeMarkup(front.title)),
      titleText: own(front.title),
      excerptHtml: own(escapeMarkup(front.excerpt)),
      excerptText: own(front.excerpt),
      date: front.date,
      modified: front.modified ?? front.date,
      image: front.image,
    };
    posts.push({
      id: source.file,
      ...card,
      contentHtml: own(body.html),
      contentKey,
      cardKey: cardKeyOf(card),
      links: body.links.map(own),
      source: source.file,
    });
  });
  return posts;
}

export function sortNewestFirst(posts: Post[]): Post[] {
  return posts.sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug));
}
