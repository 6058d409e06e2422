import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { codes } from '../errors/codes.js';
import { listFileNames } from '../util/list-files.js';
import { NOTHING_WRITTEN, ProblemList, type Problem } from '../errors/storefront-error.js';
import { PostCache } from '../cache/post-cache.js';
import { fileStamp } from '../util/file-stamp.js';
import { hashText } from '../util/hash.js';
import { renderMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
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
}

/**
 * Reads the local Markdown blog: one post per `.md` file, newest first. With a cache, posts
 * whose files are unchanged since the previous build are taken from it instead of parsed.
 */
export async function loadLocalPosts(
  root: string,
  dir: string,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
  cacheOptions?: PostsCacheOptions,
): Promise<Post[]> {
  const names = await listFileNames(dir, '.md');
  const cache =
    cacheOptions && PostCache.open(cacheOptions.cacheDir, dir, hashText(cacheOptions.codeFingerprint, JSON.stringify(facts)), cacheOptions.reuse);
  const reused: Post[] = [];
  let toParse = names;
  if (cache && cacheOptions.reuse) {
    toParse = [];
    for (const name of names) {
      const post = cache.reuse(name, fileStamp(path.join(dir, name)).stamp, () => readBody(root, dir, name, facts));
      // A cached post whose image has gone is parsed again, so the problem is reported with its line.
      if (post && (!post.image || imageExists(dir, post.image.src))) reused.push(post);
      else toParse.push(name);
    }
  }
  const parsed = await parsePosts(root, dir, toParse, facts, problems);
  if (cache) {
    for (const post of parsed) cache.keep(path.basename(post.source), post);
    if (problems.items.length === 0) cache.save();
  }
  return sortNewestFirst([...reused, ...parsed]);
}

async function parsePosts(
  root: string,
  dir: string,
  names: readonly string[],
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Promise<Post[]> {
  if (names.length < PARALLEL_FROM || availableParallelism() < 2) return parsePostFiles(root, dir, names, facts, problems);
  // A large blog: a worker thread parses and renders the second half while this thread does
  // the first, so both cores work. Posts and problems come back as plain data.
  const half = Math.ceil(names.length / 2);
  const worker = parseInWorker({ root, dir, names: names.slice(half), facts });
  const first = await parsePostFiles(root, dir, names.slice(0, half), facts, problems);
  const second = await worker;
  for (const problem of second.problems) problems.add(problem);
  return [...first, ...second.posts];
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

export interface PostsJob {
  root: string;
  dir: string;
  names: string[];
  facts: Readonly<Record<string, string>>;
}

function parseInWorker(job: PostsJob): Promise<{ posts: Post[]; problems: Problem[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./posts-worker.js', import.meta.url), { workerData: job });
    const result: { posts: Post[]; problems: Problem[] } = { posts: [], problems: [] };
    worker.on('message', (message: 'done' | { posts: Post[]; problems: Problem[] }) => {
      if (message === 'done') return resolve(result);
      for (const post of message.posts) result.posts.push(post);
      for (const problem of message.problems) result.problems.push(problem);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the posts worker stopped with code ${code}`));
    });
  });
}

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
    posts.push({
      id: source.file,
      slug,
      titleHtml: own(escapeMarkup(front.title)),
      titleText: own(front.title),
      excerptHtml: own(escapeMarkup(front.excerpt)),
      excerptText: own(front.excerpt),
      contentHtml: own(body.html),
      contentKey,
      links: body.links.map(own),
      date: front.date,
      modified: front.modified ?? front.date,
      image: front.image,
      source: source.file,
    });
  });
  return posts;
}

export function sortNewestFirst(posts: Post[]): Post[] {
  return posts.sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug));
}
