import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { renderMarkdown } from './markdown.js';
import { parseWithSchema } from './parse-with-schema.js';
import type { Post } from './post.js';
import { unsafeSlugReason } from './post-slug.js';
import { postSchema, type PostFrontMatter } from './schemas.js';
import { runParallel } from '../util/run-parallel.js';
import { displayPath, parseMarkdownText } from './source-file.js';
import { expandTokens } from './tokens.js';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Reads the local Markdown blog: one post per `.md` file, newest first. */
export async function loadLocalPosts(
  root: string,
  dir: string,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): Promise<Post[]> {
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
  const posts: Post[] = [];
  // Files are read many at a time (the disk is idle otherwise) and parsed in order.
  const texts = await runParallel(names, 64, (name) => readFile(path.join(dir, name), 'utf8'));
  names.forEach((name, i) => {
    const source = parseMarkdownText(displayPath(root, path.join(dir, name)), texts[i]!, problems);
    texts[i] = '';
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
      titleHtml: escapeHtml(front.title),
      titleText: front.title,
      excerptHtml: escapeHtml(front.excerpt),
      excerptText: front.excerpt,
      contentHtml: body.html,
      links: body.links,
      date: front.date,
      modified: front.modified ?? front.date,
      image: front.image,
      source: source.file,
    });
  });
  return sortNewestFirst(posts);
}

export function sortNewestFirst(posts: Post[]): Post[] {
  return posts.sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug));
}
