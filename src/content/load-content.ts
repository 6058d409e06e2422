import { existsSync } from 'node:fs';
import path from 'node:path';
import { imageOrigins, type Config } from '../config/load-config.js';
import { NOTHING_WRITTEN, ProblemList, StorefrontError } from '../errors/storefront-error.js';
import { boundaryOf, insideProject } from '../util/inside-project.js';
import { listFileNames } from '../util/list-files.js';
import { noContentFolder } from '../util/project-folder.js';
import { checkContent } from './check-content.js';
import { contentImageFiles } from './local-image.js';
import { checkContentImage } from './content-image.js';
import { loadLocalPosts, type PostMemo } from './load-posts.js';
import type { YamlMemo } from '../util/source-file.js';
import { readSiteFiles } from './read-site-files.js';
import type { SiteContent } from './site-content.js';

export type { SiteContent };

/** What the content stage keeps between the builds of one `storefront dev` process. */
export interface ContentMemo {
  posts: PostMemo;
  yaml: YamlMemo;
}

export interface LoadContentOptions {
  /** The content folder; `content/` under the root by default. */
  contentDir?: string;
  /** Folder of local blog posts; `content/blog` by default. */
  postsDir?: string;
  /** False when the blog comes from the CMS instead. */
  localPosts?: boolean;
  /** Posts parsed by an earlier build of the same process (`storefront dev` keeps them). */
  memo?: ContentMemo;
  /** The build's time: a review or a "Most popular" period after it is refused. */
  now?: Date;
}

/**
 * Reads and validates all content, collecting every problem before failing once. Nothing is
 * rendered or written until this returns.
 */
export async function loadContent(
  root: string,
  config: Config,
  options: LoadContentOptions = {},
  /** Where problems go; when given, the caller throws them (after its own checks). */
  collected?: ProblemList,
): Promise<SiteContent> {
  const problems = collected ?? new ProblemList();
  const contentDir = options.contentDir ?? path.join(root, 'content');
  // Outside a project folder: one problem, not one for each file the build needs.
  const noContent = noContentFolder(root, contentDir);
  if (noContent) throw new StorefrontError([...problems.items, noContent], NOTHING_WRITTEN);
  const postsDir = options.postsDir ?? path.join(contentDir, 'blog');
  // A posts folder that is a link out of the project is reported once, and not even listed.
  const postsReadable =
    options.localPosts !== false &&
    (!existsSync(postsDir) || insideProject(root, postsDir, problems, boundaryOf(root, postsDir)) !== undefined);
  const postNames = postsReadable ? await listFileNames(postsDir, '.md') : [];
  const files = await readSiteFiles(root, config, contentDir, problems, options.memo?.yaml);
  // When site.yaml itself cannot be read its claims are unknown: every token would look
  // unknown, so token problems are not reported until site.yaml is fixed.
  const tokenProblems = files.siteRead ? problems : new ProblemList();
  const posts = loadLocalPosts(root, postsDir, postNames, files.facts, tokenProblems, {
    memo: options.memo?.posts,
    imageOrigins: imageOrigins(config),
    contentDir,
    linkProblems: problems,
  });
  // content/images/ is published at the site's origin: its links out of the project, files that
  // are not images, and SVGs that are more than pictures are reported here, with the other
  // problems, before anything is written.
  for (const image of contentImageFiles(contentDir, problems, root)) {
    const checked = checkContentImage(image);
    if ('problem' in checked) problems.add(checked.problem);
  }

  // Without these three nothing else can be checked; with them, the cross-file checks run on
  // every file that did parse, so one run reports as much as it can.
  const { site, trader, catalogue, reviews, redirects } = files;
  if (!site || !trader || !catalogue || !redirects) problems.throwIfAny(NOTHING_WRITTEN);
  const content: SiteContent = {
    site: site!,
    trader: trader!,
    catalogue: catalogue!,
    reviews,
    redirects: redirects!,
    pages: files.pages,
    textPages: files.textPages,
    services: files.services,
    posts,
    warnings: [],
    lineOf: files.lineOf,
    unreadable: files.unreadable,
  };
  checkContent(content, problems, options.now ?? new Date());
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
  return content;
}
