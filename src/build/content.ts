import { statSync } from 'node:fs';
import path from 'node:path';
import { loadContent, type SiteContent } from '../content/load-content.js';
import { checkPlaceholders, isReservedHost } from '../content/placeholders.js';
import { publishedPosts } from '../content/publishing.js';
import { problem } from '../errors/catalogue.js';
import { ProblemList, StorefrontError } from '../errors/storefront-error.js';
import type { Configured, ContentLoaded } from './build-state.js';
import { usesCms } from './config.js';
import type { Stage } from './run-stages.js';

/**
 * The content files read and checked, and the local blog's posts published. Every content
 * problem is collected (schemas, cross-file rules, then routes and links) and reported together
 * by the routes stage, before the CMS is asked for anything.
 */
export const contentStage: Stage<Configured, ContentLoaded> = { name: 'content', run: readContent };

async function readContent(state: Configured): Promise<ContentLoaded> {
  const { options, root, config } = state;
  const contentDir = path.join(root, 'content');
  const postsDir = options.postsDir ? path.resolve(root, options.postsDir) : path.join(contentDir, 'blog');
  if (options.postsDir && !statSync(postsDir, { throwIfNoEntry: false })?.isDirectory()) {
    // A mistyped folder would otherwise publish the site without its blog.
    throw new StorefrontError(problem('postsFolderMissing', {}, { file: options.postsDir, field: '--posts' }));
  }
  const problems = new ProblemList();
  const content = await loadContent(
    root,
    config,
    { contentDir, postsDir, localPosts: !usesCms(state), memo: options.memo, now: state.now },
    problems,
  );
  const notes: string[] = [];
  content.posts = publish(state, content.posts, notes);
  if (!options.allowPlaceholders && !isReservedHost(new URL(config.siteUrl).hostname))
    checkPlaceholders(config, content.trader, problems);
  return { ...state, contentDir, content, problems, blog: { source: 'local', posts: content.posts.length, notes } };
}

/**
 * The posts the site shows, local or from the CMS: drafts and posts dated after the build are
 * left out here, before routes, links and the feed (or, with --drafts, shown and counted in a note).
 */
export function publish(state: Configured, posts: SiteContent['posts'], notes: string[]): SiteContent['posts'] {
  const { drafts } = state.options;
  const shown = publishedPosts(posts, state.now, drafts === true);
  const unpublished = drafts ? shown.filter((post) => post.unpublished).length : posts.length - shown.length;
  const what = drafts ? 'shown, marked and noindex' : 'left out (build --drafts shows them)';
  if (unpublished > 0) notes.push(`${unpublished} draft or scheduled post(s) ${what}.`);
  return shown;
}
