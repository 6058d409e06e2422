import type { Redirect } from '../content/schemas.js';
import { outputFile, type RouteTable } from '../routes/route-table.js';
import { escapeMarkup } from '../util/escape.js';

/**
 * For hosts without redirect rules (GitHub Pages, a plain bucket): a small page at each old
 * path that points search engines to the new page (canonical) and moves visitors on (meta
 * refresh, and a link). A redirect whose file would be a page's own file (`/index` is
 * index.html) gets none: that address already serves the page.
 */
export function redirectPages(
  table: RouteTable,
  absolute: (path: string) => string,
  base = '',
): { file: string; contents: string }[] {
  const taken = new Set(table.routes.map((route) => outputFile(route.path)));
  return table.redirects
    .filter((redirect: Redirect) => !taken.has(outputFile(redirect.from)))
    .map((redirect) => {
      const target = absolute(redirect.to);
      const to = escapeMarkup(base + encodeURI(redirect.to));
      return {
        file: outputFile(redirect.from),
        contents:
          '<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><title>Moved</title>' +
          `<meta name="robots" content="noindex"><link rel="canonical" href="${escapeMarkup(target)}">` +
          `<meta http-equiv="refresh" content="0; url=${to}"></head>` +
          `<body><p>This page has moved to <a href="${to}">${escapeMarkup(target)}</a>.</p></body></html>\n`,
      };
    });
}
