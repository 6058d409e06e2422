import type { CmsMode } from '../cms/load-cms-posts.js';
import type { Target } from '../config/deploy-target.js';
import type { ContentMemo } from '../content/load-content.js';
import type { PageMemo } from '../render/render-routes.js';

/** `render` counts pages rendered and written (the two are interleaved). */
export type ProgressStage = 'fetch' | 'render';

export interface BuildOptions {
  /** The project root: where content/ and templates/ are. */
  root: string;
  /** Output folder, absolute or relative to the root. */
  outDir: string;
  /** Local blog posts folder (default content/blog). */
  postsDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  now?: Date;
  /** Warnings and notes while the build runs (not the summary). */
  log?: (line: string) => void;
  /** Long work as it goes: CMS pages fetched, pages rendered and written, each of a known total. */
  progress?: (stage: ProgressStage, done: number, total: number) => void;
  /** The folder of the origin the site is served from (`/shop/`); overrides BASE_PATH and the config file. */
  basePath?: string;
  /** WordPress REST API root; overrides CMS_API_URL and the config file. */
  cmsApiUrl?: string;
  /** The host the build is for; overrides DEPLOY_TARGET and the config file. */
  target?: Target;
  /** How the CMS is used: fetch, the cache only, or fetch with the cache as fallback. */
  cmsMode?: CmsMode;
  /** Fetch every post whole, not only what changed since the copy in .cache/cms/. */
  cmsFullFetch?: boolean;
  cmsTimeoutMs?: number;
  cmsRetries?: number;
  /**
   * Write .br and .gz beside every text file, for the nginx and static targets (the other hosts
   * compress by themselves).
   */
  precompress?: boolean;
  /** Show drafts and posts dated after the build, marked and noindex (`build --drafts`, `dev`). */
  drafts?: boolean;
  /** Let example values through for a real site address (a staging build); see checkPlaceholders. */
  allowPlaceholders?: boolean;
  /** Kept between the builds of one `storefront dev` process (see BuildMemo). */
  memo?: BuildMemo;
}

/**
 * What `storefront dev` keeps in memory between the builds of its warm process, so that a
 * rebuild parses only the post files that changed and renders only the pages whose props
 * changed. A build from the command line has none: it reads, renders and writes everything.
 */
export interface BuildMemo extends ContentMemo {
  pages: PageMemo;
}

export function newBuildMemo(): BuildMemo {
  return { posts: new Map(), yaml: new Map(), pages: new Map() };
}
