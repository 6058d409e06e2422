import type { Host } from './host.js';

/** Netlify: `_redirects` and `_headers` (docs/hosts/netlify.md). */
export const netlify: Host<'netlify'> = {
  name: 'netlify',
  title: 'Netlify',
  buildService: {
    name: 'Netlify',
    variable: 'NETLIFY',
    value: 'true',
    settings: "Netlify's site settings: Site configuration › Environment variables",
    setsTarget: true,
  },
  // `301!`: Netlify serves a file at the old path before a plain rule (its "shadowing").
  files: (make) => [make.redirects(true), make.headers()],
  readBack: 'rule files',
  // Netlify publishes no limit on a deploy's files or bytes, only this one.
  limits: () => ({
    host: 'Netlify',
    filesPerFolder: {
      limit: 54_000,
      docs: 'https://docs.netlify.com/site-deploys/overview/#files-per-directory-limit',
    },
  }),
  compresses: true,
  servesAtRoot: true,
};
