import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { ProblemList, type Problem } from '../errors/storefront-error.js';
import { escapeMarkup } from '../util/escape.js';
import { renderMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
import { unsafeSlugReason } from './post-slug.js';
import { postSchema, type PostFrontMatter } from './schemas.js';
import { displayPath, MAX_FILE_BYTES, parseMarkdownText } from '../util/source-file.js';
import { expandTokens } from './tokens.js';

/** One post file, read and parsed: the post, or the problems that kept it out. */
export interface ParsedPost {
  post?: Post;
  problems: readonly Problem[];
}

/** Reads and parses one post file. */
export function parsePostFile(root: string, dir: string, name: string, facts: Readonly<Record<string, string>>): ParsedPost {
  // readFileSync on purpose: for thousands of small files it is several times faster than
  // fs/promises, and nothing else waits on this thread meanwhile.
  return parsePostText(root, dir, name, readFileSync(path.join(dir, name), 'utf8'), facts);
}

export function parsePostText(root: string, dir: string, name: string, text: string, facts: Readonly<Record<string, string>>): ParsedPost {
  const problems = new ProblemList();
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_FILE_BYTES) {
    problems.add({
      code: codes.frontMatterSyntax,
      file: displayPath(root, path.join(dir, name)),
      message: `The post is ${Math.round(bytes / 1024)} KB, more than the ${MAX_FILE_BYTES / 1024 / 1024} MB a post may be.`,
      hint: 'Split the post, or keep large data (images, exports) out of it.',
    });
    return { problems: problems.items };
  }
  const post = parsePost(displayPath(root, path.join(dir, name)), name, text, facts, problems);
  return { post, problems: problems.items };
}

/** One post file's text, checked and rendered; undefined (and problems) when it cannot be. */
function parsePost(file: string, name: string, text: string, facts: Readonly<Record<string, string>>, problems: ProblemList): Post | undefined {
  const source = parseMarkdownText(file, text, problems);
  if (!source) return undefined;
  expandTokens(source, facts, problems);
  const front = parseWithSchema(postSchema, source, problems, 'See docs/content-model.md, "Blog posts".') as PostFrontMatter | undefined;
  if (!front) return undefined;
  const slug = front.slug ?? name.replace(/\.md$/, '');
  const reason = unsafeSlugReason(slug);
  if (reason) {
    problems.add({
      code: codes.badPostSlug,
      file,
      field: 'slug',
      line: source.lineOf(['slug']),
      message: `The slug "${slug}" cannot be a page address: ${reason}.`,
      hint: 'Use lowercase words joined by hyphens, e.g. how-to-grow-on-tiktok.',
    });
    return undefined;
  }
  const body = renderMarkdown(source.body ?? '');
  return {
    id: file,
    slug,
    titleHtml: own(escapeMarkup(front.title)),
    titleText: own(front.title),
    excerptHtml: own(escapeMarkup(front.excerpt)),
    excerptText: own(front.excerpt),
    date: front.date,
    modified: front.modified ?? front.date,
    image: front.image,
    contentHtml: own(body.html),
    links: body.links.map(own),
    source: file,
  };
}

/**
 * A copy of a string that holds no reference to the file it came from. Parsers return slices
 * and concatenations of the source text, which keep the whole file alive for as long as the
 * post lives: for 40,000 posts that is hundreds of megabytes.
 */
function own(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

