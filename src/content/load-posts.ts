import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { codes } from '../errors/codes.js';
import { listFileNames } from '../util/list-files.js';
import type { Problem, ProblemList } from '../errors/storefront-error.js';
import { renderMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
import { unsafeSlugReason } from './post-slug.js';
import { postSchema, type PostFrontMatter } from './schemas.js';
import { displayPath, parseMarkdownText } from './source-file.js';
import { expandTokens } from './tokens.js';
import { escapeMarkup } from '../util/escape.js';

/** Reads the local Markdown blog: one post per `.md` file, newest first. */
export async function loadLocalPosts(
  root: string,
  dir: string,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Promise<Post[]> {
  const names = await listFileNames(dir, '.md');
  if (names.length < PARALLEL_FROM || availableParallelism() < 2) {
    return sortNewestFirst(await parsePostFiles(root, dir, names, facts, problems));
  }
  // A large blog: a worker thread parses and renders the second half while this thread does
  // the first, so both cores work. Posts and problems come back as plain data.
  const half = Math.ceil(names.length / 2);
  const worker = parseInWorker({ root, dir, names: names.slice(half), facts });
  const first = await parsePostFiles(root, dir, names.slice(0, half), facts, problems);
  const second = await worker;
  for (const problem of second.problems) problems.add(problem);
  return sortNewestFirst([...first, ...second.posts]);
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
export async function parsePostFiles(
  root: string,
  dir: string,
  names: readonly string[],
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Promise<Post[]> {
  const posts: Post[] = [];
  names.forEach((name) => {
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
    if (front.image && !/^https?:\/\//.test(front.image.src) && !existsSync(path.join(dir, '..', front.image.src))) {
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
