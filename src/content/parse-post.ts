import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import { ProblemList, type Problem } from '../errors/storefront-error.js';
import { escapeMarkup } from '../util/escape.js';
import { renderCheckedMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
import { unsafeSlugReason } from './post-slug.js';
import { postSchema, type PostFrontMatter } from './schemas.js';
import { displayPath, parseMarkdownText } from '../util/source-file.js';
import { expandTokens } from './tokens.js';

/** One post file, read and parsed: the post, or the problems that kept it out. */
export interface ParsedPost {
  post?: Post;
  problems: readonly Problem[];
}

/**
 * Parses one post file's text, read by the caller with readBounded (checked on the open file,
 * never waited on, at most MARKDOWN_FILE's limit).
 */
export function parsePostFile(
  root: string,
  dir: string,
  name: string,
  facts: Readonly<Record<string, string>>,
  text: string,
): ParsedPost {
  const problems = new ProblemList();
  const post = parsePost(displayPath(root, path.join(dir, name)), name, text, facts, problems);
  return { post, problems: problems.items };
}

/** One post file's text, checked and rendered; undefined (and problems) when it cannot be. */
function parsePost(
  file: string,
  name: string,
  text: string,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Post | undefined {
  const source = parseMarkdownText(file, text, problems);
  if (!source) return undefined;
  expandTokens(source, facts, problems);
  const front = parseWithSchema(postSchema, source, problems, 'See docs/content-model.md, "Blog posts".') as
    | PostFrontMatter
    | undefined;
  if (!front) return undefined;
  const slug = front.slug ?? name.replace(/\.md$/, '');
  const reason = unsafeSlugReason(slug);
  if (reason) {
    problems.add(
      problem('postSlugNotAddress', { slug, reason }, { file, field: 'slug', line: source.lineOf(['slug']) }),
    );
    return undefined;
  }
  const { markdown: body, disguise } = renderCheckedMarkdown(source.body ?? '');
  if (disguise) {
    // The body has no check before this one: it is checked as rendered, references decoded.
    const line = source.bodyLine === undefined ? undefined : source.bodyLine + disguise.line - 1;
    problems.add(problem('bodyDisguise', disguise, { file, field: 'body', line }));
    return undefined;
  }
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
    ...(front.draft ? { draft: true } : {}),
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
