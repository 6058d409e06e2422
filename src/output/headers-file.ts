import type { RouteTable } from '../routes/route-table.js';
import { IMMUTABLE, REVALIDATE } from './http-headers.js';

/**
 * Path patterns that cover every page of the route table, kept short: one per top-level page,
 * and `/x/*` for a folder of pages (the blog), rather than one line per post.
 */
export function pagePatterns(table: RouteTable): string[] {
  const patterns = new Set<string>();
  for (const route of table.routes) {
    const [first, ...rest] = route.path.split('/').filter(Boolean);
    if (!first) patterns.add('/');
    else if (rest.length === 0) patterns.add(`/${first}`);
    else patterns.add(`/${first}/*`);
  }
  return [...patterns].sort();
}

/**
 * Netlify and Cloudflare Pages `_headers`. Both merge every rule that matches a path, joining
 * repeated header names, so Cache-Control is never given by two rules for one path: pages get
 * it through their own patterns and hashed assets through /assets/*.
 */
export function headersFile(table: RouteTable, security: Record<string, string>, base = ''): string {
  const block = (pattern: string, headers: Record<string, string>) =>
    [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [
    '# Written by storefront build. Security headers for every response, then caching.',
    block(`${base}/*`, security),
    block(`${base}/assets/*`, { 'Cache-Control': IMMUTABLE }),
    ...pagePatterns(table).map((pattern) => block(base + pattern, { 'Cache-Control': REVALIDATE })),
    '',
  ].join('\n');
}
