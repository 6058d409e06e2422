import type { RouteTable } from '../routes/route-table.js';
import { escapeMarkup } from '../util/escape.js';

/** Every indexable route as an absolute URL; noindex pages are left out. */
export function sitemapXml(table: RouteTable, absolute: (path: string) => string): string {
  const urls = table.routes
    .filter((route) => route.indexable)
    .map((route) => {
      const lastmod = route.lastmod ? `<lastmod>${route.lastmod.toISOString()}</lastmod>` : '';
      return `<url><loc>${escapeMarkup(absolute(route.path))}</loc>${lastmod}</url>`;
    });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    `${urls.join('\n')}\n</urlset>\n`
  );
}

export function robotsTxt(sitemapUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n`;
}
