import type { BuildOptions } from './build/build-options.js';
import type { BlogSummary } from './build/build-state.js';
import { cardsDrawnStage, cardsPlannedStage } from './build/cards.js';
import { cmsStage } from './build/cms.js';
import { configStage, usesCms } from './build/config.js';
import { contentStage } from './build/content.js';
import { imagesStage } from './build/images.js';
import { renderStage } from './build/render.js';
import { routesStage } from './build/routes.js';
import { StageList, type StageTime } from './build/run-stages.js';
import { startBuild } from './build/start.js';
import { writeStage } from './build/write.js';
import type { Target } from './config/deploy-target.js';
import type { RouteKind } from './routes/route-table.js';

export { newBuildMemo, type BuildOptions } from './build/build-options.js';

export interface BuildSummary {
  pages: number;
  pagesByKind: Record<RouteKind, number>;
  /** Pages rendered: all of them, unless a dev rebuild found some unchanged in its memo. */
  pagesRendered: number;
  /** Share cards published, and how many of them were drawn (the others came from .cache/share/). */
  shareCards?: { files: number; made: number };
  /** The whole output folder. */
  files: number;
  bytes: number;
  warnings: string[];
  /** Where the blog came from and how long the fetch took. */
  blog: BlogSummary;
  stages: StageTime[];
  /** The host the files were written for, and why that one. */
  target: { name: Target; why: string };
  totalMs: number;
  outDir: string;
}

/**
 * The build, stage by stage: settings → content → route table → CMS posts → images and share
 * cards → render → write (each stage is a file of src/build/).
 * Every check runs before anything is written; the new site replaces the output folder at once
 * at the end (see SiteWriter), so a failed or killed build leaves the previous one as it was.
 */
export async function build(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const { state, times } = await StageList.from(startBuild(options))
    .stage(configStage)
    .stage(contentStage)
    .stage(routesStage)
    .stage(cmsStage, usesCms)
    .stage(routesStage, usesCms)
    .stage(imagesStage)
    .stage(cardsPlannedStage)
    .stage(renderStage)
    .stage(cardsDrawnStage)
    .stage(writeStage)
    .run();
  const { cards, output, pages } = state;
  return {
    pages: pages.written,
    pagesByKind: pages.byKind,
    pagesRendered: pages.rendered,
    shareCards: { files: new Set([...cards.byPath.values()].map((card) => card.src)).size, made: cards.made },
    files: output.files,
    bytes: output.bytes,
    warnings: state.content.warnings,
    blog: state.blog,
    stages: times,
    target: { name: state.target.target, why: state.target.why },
    totalMs: performance.now() - started,
    outDir: state.outDir,
  };
}
