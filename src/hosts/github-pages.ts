import type { Host } from './host.js';

const PAGES_LIMITS = 'https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits';

/** GitHub Pages: no redirect or header rules, so a page at each old path (docs/hosts/github-pages.md). */
export const githubPages: Host<'github-pages'> = {
  name: 'github-pages',
  title: 'GitHub Pages',
  // A GitHub Actions run may deploy anywhere, so its variable sets no target; SF142 names its settings.
  buildService: {
    name: 'GitHub Actions',
    variable: 'GITHUB_ACTIONS',
    value: 'true',
    settings: "the workflow's env, or the repository's Settings › Secrets and variables › Actions › Variables",
    setsTarget: false,
  },
  files: (make) => make.redirectPages(),
  readBack: 'redirect pages',
  // A published site of at most 1 GB, which actions/deploy-pages counts as 2^30 bytes.
  limits: () => ({ host: 'GitHub Pages', siteBytes: { limit: 1024 ** 3, docs: PAGES_LIMITS } }),
  /**
   * GitHub's terms for Pages (its limits page, "Usage limits"): Pages "is not intended for or
   * allowed to be used as a free web-hosting service to run your online business, e-commerce site,
   * or any other website that is primarily directed at either facilitating commercial transactions
   * or providing commercial software as a service (SaaS)". Said and the build goes on: it cannot
   * know what a site on Pages is for.
   */
  warning:
    "WARNING: GitHub's terms do not allow GitHub Pages for a site that sells " +
    `(${PAGES_LIMITS}). ` +
    'For the shop, use Netlify, Cloudflare Pages or your own nginx (--target netlify, cloudflare or nginx).',
  compresses: true,
  // A project site is served from a folder of its origin (`--base /shop/`).
  servesAtRoot: false,
};
