import { hostLimits } from '../config/deploy-target.js';
import { hostNamed } from '../hosts/hosts.js';
import { siteRoot } from '../config/load-config.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import { scriptAsset, stylesheetAsset } from '../output/assets.js';
import { SiteWriter } from '../output/write-output.js';
import { renderOptions, renderRoutes } from '../render/render-routes.js';
import { type PageAnchors, readAnchors } from '../routes/check-fragments.js';
import { fragmentProblems } from '../routes/check-links.js';
import { outputFile, type RouteKind } from '../routes/route-table.js';
import type { CardsPlanned, PagesWritten } from './build-state.js';
import type { Stage, StageTools } from './run-stages.js';

/**
 * Every page rendered, and written into the new output folder as it is, so memory stays flat
 * however many there are. Its time is the rendering's; the writing's is the write stage's.
 */
export const renderStage: Stage<CardsPlanned, PagesWritten> = { name: 'render', run: renderPages };

async function renderPages(state: CardsPlanned, tools: StageTools): Promise<PagesWritten> {
  const { options, config, content, table, target, generatorRoot } = state;
  const [stylesheet, script] = await Promise.all([stylesheetAsset(generatorRoot), scriptAsset(generatorRoot)]);
  const output = SiteWriter.open(state.outDir, state.root, hostLimits(target.target, config.cfPagesMaxFiles));
  // Whatever stage fails from here on, the new folder goes and the previous site stays.
  tools.onFailure(() => output.abort());
  // A host that compresses by itself would only publish .br and .gz copies.
  const precompress = options.precompress === true && !hostNamed(target.target).compresses;
  if (options.precompress && !precompress)
    state.log(`note: no .br or .gz copies for ${target.target}: the host compresses by itself.`);
  const byKind = {} as Record<RouteKind, number>;
  let written = 0;
  // Each page's ids and links to fragments, for the fragment check once all are rendered.
  const anchors = new Map<string, PageAnchors>();
  const render = await renderRoutes(
    config,
    content,
    table.routes,
    renderOptions(stylesheet.file, script.file, state.now, state.images, state.cards.byPath),
    async (route, html) => {
      byKind[route.kind] = (byKind[route.kind] ?? 0) + 1;
      written += 1;
      anchors.set(route.path, readAnchors(html));
      options.progress?.('render', written, table.routes.length);
      await output.write({ file: outputFile(route.path), contents: html }, precompress);
    },
    options.memo?.pages,
  );
  tools.splitTime(render.ms, 'write');
  // Before anything is swapped in: a link to a part of a page that is not there fails the build.
  const problems = new ProblemList();
  fragmentProblems(anchors, content, table, siteRoot(config), state.root, problems);
  problems.throwIfAny(NOTHING_WRITTEN);
  const pages = { written, byKind, rendered: render.rendered };
  return { ...state, output, precompress, stylesheet, script, pages };
}
