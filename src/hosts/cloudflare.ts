import type { Host } from './host.js';

/** Cloudflare Pages: files per site on the free plan, and on a paid plan (since 2026-01-23; Cloudflare's changelog). */
export const CF_PAGES_FREE_FILES = 20_000;
export const CF_PAGES_PAID_FILES = 100_000;
const CF_PAGES_LIMITS = 'https://developers.cloudflare.com/pages/platform/limits/';
/**
 * Cloudflare Pages' `_redirects` and `_headers`, whose rules past a limit are ignored without an
 * error. Redirects: "A project is limited to 2,000 static redirects and 100 dynamic redirects, for
 * a combined total of 2,100 redirects. Each redirect declaration has a 1,000-character limit."
 * (wrangler's own parser allows 2,000 characters; the docs' 1,000 is held.) Headers: "A project
 * is limited to 100 header rules. Each line in the _headers file has a 2,000 character limit."
 */
const CF_REDIRECTS = 'https://developers.cloudflare.com/pages/configuration/redirects/#per-file';
const CF_HEADERS = 'https://developers.cloudflare.com/pages/configuration/headers/';

/** Cloudflare Pages: `_redirects` and `_headers` (docs/hosts/cloudflare.md). */
export const cloudflare: Host<'cloudflare'> = {
  name: 'cloudflare',
  title: 'Cloudflare Pages',
  buildService: {
    name: 'Cloudflare Pages',
    variable: 'CF_PAGES',
    value: '1',
    settings: 'the Cloudflare dashboard: Workers & Pages › your project › Settings › Variables and Secrets',
    setsTarget: true,
  },
  // Plain `301`: Cloudflare refuses Netlify's `301!` ("Got 301!").
  files: (make) => [make.redirects(false), make.headers()],
  readBack: 'rule files',
  // 20,000 files (100,000 on a paid plan: the setting cfPagesMaxFiles), 25 MiB a file, and the
  // rules of `_redirects` and `_headers`.
  limits: ({ cfPagesMaxFiles }) => ({
    host: 'Cloudflare Pages',
    files: {
      limit: cfPagesMaxFiles ?? CF_PAGES_FREE_FILES,
      docs: `${CF_PAGES_LIMITS}#files`,
      ...(cfPagesMaxFiles !== undefined ? { setting: 'cfPagesMaxFiles (CF_PAGES_MAX_FILES)' } : {}),
      paidPlan: CF_PAGES_PAID_FILES,
    },
    fileBytes: { limit: 25 * 1024 * 1024, docs: `${CF_PAGES_LIMITS}#file-size` },
    staticRedirects: { limit: 2_000, docs: CF_REDIRECTS },
    dynamicRedirects: { limit: 100, docs: CF_REDIRECTS },
    redirectChars: { limit: 1_000, docs: CF_REDIRECTS },
    headerRules: { limit: 100, docs: CF_HEADERS },
    headerLineChars: { limit: 2_000, docs: CF_HEADERS },
  }),
  compresses: true,
  servesAtRoot: true,
};
