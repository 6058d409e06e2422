import { siteRoot } from '../config/load-config.js';
import { NOTHING_WRITTEN } from '../errors/storefront-error.js';
import { checkContentLinks } from '../routes/check-links.js';
import { buildRouteTable } from '../routes/route-table.js';
import type { ContentLoaded, Routed } from './build-state.js';
import type { Stage } from './run-stages.js';

/**
 * Every page of the site, and the links of the content checked against them. The problems
 * collected since the content stage are thrown here, all together: nothing has been fetched or
 * written yet. Runs again after the cms stage, with the CMS's posts.
 */
export const routesStage: Stage<ContentLoaded, Routed> = { name: 'routes', run: routeSite };

function routeSite(state: ContentLoaded): Routed {
  const { content, problems } = state;
  const table = buildRouteTable(content, problems);
  checkContentLinks(content, table, siteRoot(state.config), state.root, problems);
  problems.throwIfAny(NOTHING_WRITTEN);
  return { ...state, table };
}
