import { localImageFile } from './local-image.js';
import path from 'node:path';
import { isAllowedImage } from '../config/load-config.js';
import { problem, type Place } from '../errors/catalogue.js';
import { ProblemList, type Problem } from '../errors/storefront-error.js';
import { parsePostFile, type ParsedPost } from './parse-post.js';
import type { Post } from './post.js';
import { boundaryOf, insideProject } from '../util/inside-project.js';
import { displayPath, MARKDOWN_FILE, parseMarkdownText } from '../util/source-file.js';
import { readBounded } from '../util/read-bounded.js';

/**
 * Why a post's image cannot be shown: not in content/images/, or from a host the site takes no
 * images from; as the problem at a place, which is looked for only then.
 */
function imageProblem(
  contentDir: string,
  src: string,
  imageOrigins: readonly string[],
): ((place: Place) => Problem) | undefined {
  if (!/^https?:\/\//.test(src))
    return localImageFile(contentDir, src) ? undefined : (place) => problem('postImageNotInContent', { src }, place);
  if (isAllowedImage(src, imageOrigins)) return undefined;
  const origin = URL.canParse(src) ? new URL(src).origin : src;
  return (place) => problem('postImageHostRefused', { origin }, place);
}

/**
 * Posts parsed by an earlier build of the same process, by file name, with the text and facts
 * they were parsed from: `storefront dev` keeps one, so a rebuild parses only the files that
 * changed. A build from the command line starts without one.
 */
export type PostMemo = Map<string, ParsedPost & { text: string; facts: string }>;

/**
 * Reads the local Markdown blog: one post per `.md` file in `dir` (see listFileNames), checked
 * and rendered, newest first. A post with a problem is left out and the problem listed.
 */
export function loadLocalPosts(
  root: string,
  dir: string,
  names: readonly string[],
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
  {
    memo,
    imageOrigins = [],
    contentDir = path.join(dir, '..'),
    linkProblems = problems,
  }: {
    memo?: PostMemo;
    imageOrigins?: readonly string[];
    contentDir?: string;
    /** Where a post that links out of the project is reported, when `problems` may be dropped. */
    linkProblems?: ProblemList;
  } = {},
): Post[] {
  // A post that is a link out of the project (or out of the --posts folder, when that is outside
  // the project) is a problem, and its target is not read.
  const boundary = boundaryOf(root, dir);
  const files = names.flatMap((name) => {
    const real = insideProject(root, path.join(dir, name), linkProblems, boundary);
    return real ? [{ name, real }] : [];
  });
  // Each post is checked (a regular file, at most 1 MB) before it is read, one at a time; one
  // that is not is reported, whatever becomes of the token problems, and left out.
  const read = (name: string, real: string) =>
    readBounded(
      real,
      displayPath(root, path.join(dir, name)),
      MARKDOWN_FILE,
      linkProblems,
      path.join(dir, name),
    )?.toString('utf8');
  const parsed = memo
    ? parseWithMemo(memo, root, dir, files, facts, read)
    : files.flatMap(({ name, real }) => {
        const text = read(name, real);
        return text === undefined ? [] : [{ ...parsePostFile(root, dir, name, facts, text), text }];
      });
  const posts: Post[] = [];
  for (const { post, problems: found, text } of parsed) {
    for (const problem of found) problems.add(problem);
    if (!post) continue;
    // Checked at every build, as the image may come or go without the post changing.
    const imageWrong = post.image && imageProblem(contentDir, post.image.src, imageOrigins);
    if (imageWrong) {
      problems.add(
        imageWrong({
          file: post.source,
          field: 'image.src',
          line: parseMarkdownText(post.source, text, new ProblemList())?.lineOf(['image', 'src']),
        }),
      );
    }
    posts.push(post);
  }
  return sortNewestFirst(posts);
}

/** The post files, each parsed again only when its text or the facts changed; the memo keeps these files only. */
function parseWithMemo(
  memo: PostMemo,
  root: string,
  dir: string,
  files: readonly { name: string; real: string }[],
  facts: Readonly<Record<string, string>>,
  read: (name: string, real: string) => string | undefined,
): (ParsedPost & { text: string })[] {
  const factsKey = JSON.stringify(facts);
  const present = new Set(files.map(({ name }) => name));
  for (const name of memo.keys()) if (!present.has(name)) memo.delete(name);
  return files.flatMap(({ name, real }) => {
    const text = read(name, real);
    if (text === undefined) {
      memo.delete(name);
      return [];
    }
    let parsed = memo.get(name);
    if (!parsed || parsed.text !== text || parsed.facts !== factsKey) {
      parsed = { text, facts: factsKey, ...parsePostFile(root, dir, name, facts, text) };
      memo.set(name, parsed);
    }
    return [parsed];
  });
}

export function sortNewestFirst(posts: Post[]): Post[] {
  return posts.sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug));
}
