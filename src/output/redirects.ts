import type { RouteTable } from '../routes/route-table.js';

/**
 * Netlify / Cloudflare Pages `_redirects`: one permanent redirect a line. `force` writes Netlify's
 * `301!`, which redirects even where a file answers the old path (`/index` is index.html);
 * Cloudflare refuses the `!` and always redirects first. Paths are the addresses asked for:
 * under the base path when the site has one.
 */
export function redirectsFile(table: RouteTable, base = '', force = false): string {
  const lines = table.redirects.map(
    (r) => `${base}${encodeURI(r.from)} ${base}${encodeURI(r.to)} 301${force ? '!' : ''}`,
  );
  return `# Written by storefront build from content/redirects.yaml\n${lines.join('\n')}\n`;
}

/** Reads `_redirects` back (used by `preview`, so it serves what the host would). */
export function parseRedirectsFile(text: string): Map<string, { to: string; status: number }> {
  const map = new Map<string, { to: string; status: number }>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [from, to, status] = trimmed.split(/\s+/);
    if (from && to) map.set(from, { to, status: Number.parseInt(status ?? '301', 10) });
  }
  return map;
}
