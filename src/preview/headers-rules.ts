import { REVALIDATE } from '../output/http-headers.js';

/**
 * Reads a Netlify / Cloudflare Pages `_headers` file and answers which headers a path gets,
 * the way those hosts do: every matching rule applies. Patterns are exact paths or end in `*`.
 */
export interface HeaderRule {
  pattern: string;
  headers: [string, string][];
}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules[rules.length - 1];
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

export function matches(pattern: string, pathname: string): boolean {
  if (pattern.endsWith('*')) return pathname.startsWith(pattern.slice(0, -1));
  return pattern === pathname;
}

/** The headers a path gets: every matching rule's, and the hosts' own Cache-Control where no rule gives one. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): [string, string][] {
  const headers = rules.filter((rule) => matches(rule.pattern, pathname)).flatMap((rule) => rule.headers);
  const cached = headers.some(([name]) => name.toLowerCase() === 'cache-control');
  return rules.length > 0 && !cached ? [...headers, ['Cache-Control', REVALIDATE]] : headers;
}
