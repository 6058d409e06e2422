import type { RouteTable } from '../routes/route-table.js';

/**
 * Netlify / Cloudflare Pages `_redirects`: one permanent redirect a line. `301!` makes Netlify
 * redirect even though a small redirect page exists at the old path (for GitHub Pages). Paths
 * are the addresses asked for: under the base path when the site has one.
 */
export function redirectsFile(table: RouteTable, base = ''): string {
  const lines = table.redirects.map((r) => `${base}${encodeURI(r.from)} ${base}${encodeURI(r.to)} 301!`);
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
