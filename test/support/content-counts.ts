/**
 * How many pages of each kind the real content makes, counted from content/ as written (not from
 * a build), so that a test of counts holds when a service, a page or a post is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { POSTS_PER_PAGE } from '../../src/routes/route-table.js';
import { repoRoot } from '../helpers.js';

const content = (...parts: string[]) => path.join(repoRoot, 'content', ...parts);
const files = (folder: string, ending: string) => readdirSync(content(folder)).filter((n) => n.endsWith(ending));

/** A local post is published when it is no draft and its date has come. */
function published(file: string): boolean {
  const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(content('blog', file), 'utf8'))?.[1] ?? '';
  const data = parseYaml(front) as { draft?: boolean; date?: string | Date };
  return data.draft !== true && new Date(data.date ?? 0).getTime() <= Date.now();
}

const posts = files('blog', '.md').filter(published).length;

/** The route table's kinds, in the order the build's summary names them. */
export const pageCounts = {
  page: files('pages', '.yaml').length,
  service: files('services', '.yaml').length,
  text: files('pages', '.md').length,
  'blog-list': Math.max(1, Math.ceil(posts / POSTS_PER_PAGE)),
  'blog-post': posts,
  'not-found': 1,
};

export const totalPages = Object.values(pageCounts).reduce((a, b) => a + b, 0);

/** The summary's first words: "Built 20 pages (3 page, 10 service, 2 text, 1 blog-list, 3 blog-post, 1 not-found)". */
export const builtLine = `Built ${totalPages} pages (${Object.entries(pageCounts)
  .map(([kind, n]) => `${n} ${kind}`)
  .join(', ')})`;
