import { IMMUTABLE } from './http-headers.js';

/**
 * Netlify and Cloudflare Pages `_headers`: the security headers on every path, and a year's
 * caching for the hashed assets. Pages and the other files keep the hosts' own Cache-Control,
 * which is REVALIDATE on both. No rule for pages: both hosts join a header that two matching
 * rules give, and Netlify's `/blog/*` also matches `/blog`, so a page rule beside a folder rule
 * would send Cache-Control twice.
 */
export function headersFile(security: Record<string, string>, base = ''): string {
  const block = (pattern: string, headers: Record<string, string>) =>
    [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [
    '# Written by storefront build. Security headers for every response, then caching.',
    block(`${base}/*`, security),
    block(`${base}/assets/*`, { 'Cache-Control': IMMUTABLE }),
    '',
  ].join('\n');
}
