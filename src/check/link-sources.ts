import type { Config } from '../config/load-config.js';
import { loadContent } from '../content/load-content.js';
import type { Place } from '../errors/catalogue.js';
import { ProblemList } from '../errors/storefront-error.js';
import { asRendered, contentLinks, linkPlacer, writtenLink } from '../routes/content-links.js';
import { buildRouteTable } from '../routes/route-table.js';

/**
 * Where the project's content writes a link that `check` found wrong on a page: its file, line,
 * column and field. `leadsTo` tells the link by the address it leads to from the page, served
 * at `pageUrl` (under the site's base path). The content is read once, as the build reads it,
 * when the first problem asks (WordPress's posts are not fetched); none when it cannot be read or
 * no file writes the link (the templates made it).
 */
export type LinkSources = (on: string, pageUrl: string, leadsTo: (url: URL) => boolean) => Promise<Place | undefined>;

export function contentLinkSources(root: string, config: Config): LinkSources {
  let loaded: Promise<Awaited<ReturnType<typeof load>> | undefined> | undefined;
  const load = async () => {
    const content = await loadContent(root, config);
    const table = buildRouteTable(content, new ProblemList());
    return { links: contentLinks(content).links, table, placeOf: linkPlacer(root) };
  };
  return async (on, pageUrl, leadsTo) => {
    loaded ??= load().catch(() => undefined);
    const read = await loaded;
    if (!read) return undefined;
    const basePath = config.basePath;
    const written = writtenLink(read.links, read.table.byPath.get(on)?.source, (link) => {
      const href = asRendered(link.href, basePath);
      return URL.canParse(href, pageUrl) && leadsTo(new URL(href, pageUrl));
    });
    return written && { file: written.file, ...read.placeOf(written), field: written.field };
  };
}
