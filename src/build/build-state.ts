/**
 * What the build knows after each stage: every stage is given the state the one before it left
 * and returns it grown by what it made (see run-stages.ts and build() in src/build.ts).
 */
import type { RetryPolicy } from '../cms/retry.js';
import type { Target } from '../config/deploy-target.js';
import type { Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import type { ProblemList } from '../errors/storefront-error.js';
import type { SiteImages } from '../images/process-images.js';
import type { ShareCards } from '../images/share-cards.js';
import type { Asset } from '../output/assets.js';
import type { SiteWriter } from '../output/write-output.js';
import type { RouteKind, RouteTable } from '../routes/route-table.js';
import type { BuildOptions } from './build-options.js';

/** Where the blog came from and how long the fetch took (BuildSummary.blog). */
export interface BlogSummary {
  source: 'local' | 'network' | 'cache';
  posts: number;
  fetchMs?: number;
  /** What the build asked the CMS: "synced with WordPress: 3 post(s) new or changed, 1 left; 43 requests, 221 KB". */
  sync?: string;
  notes: string[];
}

/** Before the first stage: the options resolved and the project's own folders checked (start.ts). */
export interface BuildStart {
  options: BuildOptions;
  root: string;
  outDir: string;
  now: Date;
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
  /** The generator's own folder: templates/static/, the compiled stylesheet and script. */
  generatorRoot: string;
  /** The time limit and retries of every request, to the CMS and to the image hosts alike. */
  requests: { timeoutMs: number; retry: RetryPolicy };
}

/** After config: the settings, the host the site is for, and where images may come from. */
export interface Configured extends BuildStart {
  config: Config;
  target: { target: Target; why: string };
  imageOrigins: string[];
}

/** After content: the content checked, its problems collected (not thrown yet), the blog published. */
export interface ContentLoaded extends Configured {
  contentDir: string;
  content: SiteContent;
  /** Every content problem, thrown together by the routes stage (and the images stage's with them). */
  problems: ProblemList;
  blog: BlogSummary;
}

/** After routes: every page of the site. */
export interface Routed extends ContentLoaded {
  table: RouteTable;
}

/** After images: the posts' images made; the share cards being drawn meanwhile. */
export interface ImagesMade extends Routed {
  images: SiteImages;
  cardsPlanned: Promise<ShareCards>;
}

/** After the cards are planned: each page's card known, their files still being drawn. */
export interface CardsPlanned extends ImagesMade {
  cards: ShareCards;
}

/** After render: every page rendered and written into the new output folder, not yet swapped in. */
export interface PagesWritten extends CardsPlanned {
  output: SiteWriter;
  /** Whether .br and .gz copies are written beside the text files. */
  precompress: boolean;
  stylesheet: Asset;
  script: Asset;
  pages: { written: number; byKind: Record<RouteKind, number>; rendered: number };
}

/** After the share cards are drawn: their files, for the write stage. */
export interface CardsDrawn extends PagesWritten {
  cardFiles: { file: string; contents: Buffer }[];
}
