/**
 * The host a build is for. Each gets the files its host reads, in the form it accepts, and
 * nothing it would publish by mistake (see output/host-files.ts). Chosen by `--target`,
 * DEPLOY_TARGET or `target:` in content/config.yaml; otherwise detected from the variables a
 * host's build service sets; otherwise `static`.
 */
export const TARGETS = ['netlify', 'cloudflare', 'github-pages', 'nginx', 'static'] as const;
export type Target = (typeof TARGETS)[number];

/** A host's build service: the variable it sets, and where its settings (SITE_URL) are kept. */
interface BuildService {
  name: string;
  variable: string;
  value: string;
  settings: string;
}

/** The services a build can find itself on. A GitHub Actions run may deploy anywhere, so it sets no target. */
export const BUILD_SERVICES: Partial<Record<Target, BuildService>> = {
  netlify: {
    name: 'Netlify',
    variable: 'NETLIFY',
    value: 'true',
    settings: "Netlify's site settings: Site configuration › Environment variables",
  },
  cloudflare: {
    name: 'Cloudflare Pages',
    variable: 'CF_PAGES',
    value: '1',
    settings: 'the Cloudflare dashboard: Workers & Pages › your project › Settings › Variables and Secrets',
  },
  'github-pages': {
    name: 'GitHub Actions',
    variable: 'GITHUB_ACTIONS',
    value: 'true',
    settings: "the workflow's env, or the repository's Settings › Secrets and variables › Actions › Variables",
  },
};

/**
 * GitHub's terms for Pages (its limits page, "Usage limits"): Pages "is not intended for or
 * allowed to be used as a free web-hosting service to run your online business, e-commerce site,
 * or any other website that is primarily directed at either facilitating commercial transactions
 * or providing commercial software as a service (SaaS)". A `github-pages` build says so and
 * goes on: a warning, as the build cannot know what a site on Pages is for.
 */
export const GITHUB_PAGES_SHOP_WARNING =
  "WARNING: GitHub's terms do not allow GitHub Pages for a site that sells " +
  '(https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits). ' +
  'For the shop, use Netlify, Cloudflare Pages or your own nginx (--target netlify, cloudflare or nginx).';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The target to build for, and why: the setting when there is one (`from` says where it was
 * set), else the host whose build service this is.
 */
export function resolveTarget(setting: Target | '', env: Env, from: string): { target: Target; why: string } {
  if (setting !== '') return { target: setting, why: `from ${from}` };
  for (const target of ['netlify', 'cloudflare'] as const) {
    const service = BUILD_SERVICES[target]!;
    if (env[service.variable] === service.value) return { target, why: `detected: ${service.variable} is set` };
  }
  return { target: 'static', why: 'the default; --target names a host' };
}

/** The host build service this build runs on, if any: its own variable, or the target's. */
export function buildService(target: Target, env: Env): BuildService | undefined {
  const running = (service: BuildService | undefined) =>
    service !== undefined && env[service.variable] === service.value;
  if (running(BUILD_SERVICES[target])) return BUILD_SERVICES[target];
  return [BUILD_SERVICES.netlify, BUILD_SERVICES.cloudflare].find(running);
}

/**
 * What a host's docs say a deploy may hold: past any of these the deploy fails at the host, so
 * the build refuses the site before the output folder is swapped (output/host-limits.ts). Each
 * is counted over what the build writes, and names the page that publishes it.
 */
export interface HostLimits {
  /** The host's name, as its docs write it. */
  host: string;
  /** Files in the whole site. */
  files?: HostLimit;
  /** Bytes of any one file. */
  fileBytes?: HostLimit;
  /** Bytes of all files together. */
  siteBytes?: HostLimit;
  /** Files directly in any one folder (its subfolders' files are theirs). */
  filesPerFolder?: HostLimit;
  /** `_redirects`: rules whose old address is a plain path, and those with `*` or `:name` (or after one). */
  staticRedirects?: HostLimit;
  dynamicRedirects?: HostLimit;
  /** Characters of one `_redirects` rule. */
  redirectChars?: HostLimit;
  /** `_headers`: rules (a path and its headers), and characters of any one line. */
  headerRules?: HostLimit;
  headerLineChars?: HostLimit;
}

export interface HostLimit {
  limit: number;
  /** The host's page that gives it. */
  docs: string;
  /** The setting that chose the value, when one did, e.g. `cfPagesMaxFiles (CF_PAGES_MAX_FILES)`. */
  setting?: string;
}

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

/**
 * The limits of a target's host. Cloudflare Pages: 20,000 files (100,000 on a paid plan: the
 * setting cfPagesMaxFiles), 25 MiB a file, and the rules of `_redirects` and `_headers`. GitHub
 * Pages: a published site of at most 1 GB, which actions/deploy-pages counts as 2^30 bytes.
 * Netlify publishes no limit on a deploy's files or bytes, only 54,000 files in one folder (its
 * "Files per directory limit"). nginx and a plain bucket: none the build can know.
 */
export function hostLimits(target: Target, cfPagesMaxFiles?: number): HostLimits | undefined {
  switch (target) {
    case 'cloudflare':
      return {
        host: 'Cloudflare Pages',
        files: {
          limit: cfPagesMaxFiles ?? CF_PAGES_FREE_FILES,
          docs: `${CF_PAGES_LIMITS}#files`,
          ...(cfPagesMaxFiles !== undefined ? { setting: 'cfPagesMaxFiles (CF_PAGES_MAX_FILES)' } : {}),
        },
        fileBytes: { limit: 25 * 1024 * 1024, docs: `${CF_PAGES_LIMITS}#file-size` },
        staticRedirects: { limit: 2_000, docs: CF_REDIRECTS },
        dynamicRedirects: { limit: 100, docs: CF_REDIRECTS },
        redirectChars: { limit: 1_000, docs: CF_REDIRECTS },
        headerRules: { limit: 100, docs: CF_HEADERS },
        headerLineChars: { limit: 2_000, docs: CF_HEADERS },
      };
    case 'github-pages':
      return {
        host: 'GitHub Pages',
        siteBytes: {
          limit: 1024 ** 3,
          docs: 'https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits',
        },
      };
    case 'netlify':
      return {
        host: 'Netlify',
        filesPerFolder: {
          limit: 54_000,
          docs: 'https://docs.netlify.com/site-deploys/overview/#files-per-directory-limit',
        },
      };
    default:
      return undefined;
  }
}
