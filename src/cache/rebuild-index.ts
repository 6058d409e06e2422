import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteKind } from '../routes/route-table.js';
import { hashText } from '../util/hash.js';
import { removeOrphans } from './orphans.js';

/** Bumped when the layout below changes. */
const FORMAT = 1;

/** A post file as the build that wrote the index read it. */
export interface IndexedPost {
  stamp: string;
  cardKey: string;
  slug: string;
}

export interface RebuildIndexHeader {
  /** The output folder (first, for removeOrphans). */
  folder: string;
  /** The key of everything the build was made from but the post files (see rebuildInputs). */
  inputs: string;
  /** The paths of the routes that are not posts, and of the redirects: what a post may link to besides another post. */
  otherPaths: string[];
  warnings: string[];
  pagesByKind: Partial<Record<RouteKind, number>>;
  /** The generation of the output manifest that build saved (see journaled-file.ts). */
  manifest: string;
  /** The output folder's files: how many, their bytes, and a key of their names (see `outputNamesKey`). */
  output: { files: number; bytes: number; names: string };
}

/** A key of the names of an output folder's files, in any order. */
export function outputNamesKey(names: Iterable<string>): string {
  return hashText(...[...names].sort());
}

/**
 * What the previous build into an output folder was made from and wrote, in a form a rebuild
 * can check in a few milliseconds (see posts-rebuild.ts): the key of its inputs, the stamp and
 * card key of every post file, and the names of the files in the output folder. The posts cache
 * and the output manifest hold all of this and more, but as JSON that takes 25 ms to read at
 * 4,000 posts, a tenth of the time such a rebuild may take.
 *
 * `.cache/build/rebuild-<hash of the output folder>.txt`: the header as one line of JSON (with
 * the number of posts), then a line per post: `name TAB stamp TAB cardKey TAB slug`.
 */
export interface RebuildIndex {
  header: RebuildIndexHeader;
  /** By file name in the posts folder. */
  posts: Map<string, IndexedPost>;
}

/** An index as read: its text is kept, so that a rebuild's few changes are made in place (see `updateRebuildIndex`). */
export interface ReadRebuildIndex extends RebuildIndex {
  readonly text: string;
}

function indexFile(cacheDir: string, outDir: string): string {
  return path.join(cacheDir, `rebuild-${hashText(outDir)}.txt`);
}

/** The index of the previous build into this folder; undefined when there is none or it cannot be read. */
export function readRebuildIndex(cacheDir: string, outDir: string): ReadRebuildIndex | undefined {
  let text: string;
  try {
    text = readFileSync(indexFile(cacheDir, outDir), 'utf8');
  } catch {
    return undefined;
  }
  let at = text.indexOf('\n');
  let stored: RebuildIndexHeader & { format: number; postCount: number };
  try {
    stored = JSON.parse(text.slice(0, at)) as typeof stored;
  } catch {
    return undefined;
  }
  const { format, postCount, ...header } = stored;
  if (format !== FORMAT || header.folder !== outDir || !text.endsWith('\n')) return undefined;
  // Taken apart with indexOf rather than split: a line per post.
  const posts = new Map<string, IndexedPost>();
  for (let i = 0; i < postCount; i++) {
    const start = at + 1;
    const end = text.indexOf('\n', start);
    const tab1 = text.indexOf('\t', start);
    const tab2 = text.indexOf('\t', tab1 + 1);
    const tab3 = text.indexOf('\t', tab2 + 1);
    if (end < 0 || tab1 < 0 || tab2 < 0 || tab3 < 0 || tab3 > end) return undefined;
    posts.set(text.slice(start, tab1), { stamp: text.slice(tab1 + 1, tab2), cardKey: text.slice(tab2 + 1, tab3), slug: text.slice(tab3 + 1, end) });
    at = end;
  }
  return posts.size === postCount && at === text.length - 1 ? { header, posts, text } : undefined;
}

/**
 * Writes the index of this build. None is written (and an older one is removed) when a name
 * would not fit the format: such a folder is always rebuilt the full way.
 */
export function writeRebuildIndex(cacheDir: string, index: RebuildIndex): void {
  const unfit = (name: string) => name.includes('\t') || name.includes('\n');
  if ([...index.posts.keys()].some(unfit)) {
    removeRebuildIndex(cacheDir, index.header.folder);
    return;
  }
  const lines = [JSON.stringify({ ...index.header, format: FORMAT, postCount: index.posts.size })];
  for (const [name, post] of index.posts) lines.push(`${name}\t${post.stamp}\t${post.cardKey}\t${post.slug}`);
  const file = save(cacheDir, index.header.folder, `${lines.join('\n')}\n`);
  removeOrphans(cacheDir, 'rebuild', file, '.txt');
}

/**
 * Saves the index read with a new header and new stamps of some post files (the same files as
 * before: a posts-only rebuild adds and removes none), changed in place in the text.
 */
export function updateRebuildIndex(cacheDir: string, index: ReadRebuildIndex, header: RebuildIndexHeader, postStamps: ReadonlyMap<string, string>): void {
  const { text } = index;
  const parts = [JSON.stringify({ ...header, format: FORMAT, postCount: index.posts.size })];
  let copied = text.indexOf('\n');
  for (const [name, post] of index.posts) {
    const stamp = postStamps.get(name);
    if (stamp === undefined || stamp === post.stamp) continue;
    // The post's line starts with its name and a tab; the stamp runs to the next tab.
    const start = text.indexOf(`\n${name}\t`, copied) + name.length + 2;
    parts.push(text.slice(copied, start), stamp);
    copied = text.indexOf('\t', start);
  }
  parts.push(text.slice(copied));
  save(cacheDir, index.header.folder, parts.join(''));
}

function save(cacheDir: string, outDir: string, text: string): string {
  const file = indexFile(cacheDir, outDir);
  mkdirSync(cacheDir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
  return file;
}

/** For a build that leaves no index (a CMS blog, no cache): the one an earlier build left no longer tells what the folder holds. */
export function removeRebuildIndex(cacheDir: string, outDir: string): void {
  rmSync(indexFile(cacheDir, outDir), { force: true });
}
