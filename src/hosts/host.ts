/**
 * A host a build can be for: everything the generator knows about it, in one module per host
 * (src/hosts/<name>.ts), listed once in hosts.ts. This folder runs before the config stage (the
 * settings check a target's name), so a host imports nothing of the pipeline: it says which
 * files it gets, and output/host-files.ts makes them with the makers it is handed.
 */
export interface Host<Name extends string = string> {
  /** The target: what `--target`, DEPLOY_TARGET and `target:` take; its page is docs/hosts/<name>.md. */
  name: Name;
  /** The host's name as its docs write it, e.g. `Cloudflare Pages`. */
  title: string;
  /** The build service the host runs builds on, if it has one. */
  buildService?: BuildService;
  /** The files the host reads besides the pages, in the form it accepts; none it would publish by mistake. */
  files<F>(make: HostFileMakers<F>): F[];
  /** What preview and check read back of those files (see ReadBack). */
  readBack: ReadBack;
  /** Its limits, past which a deploy fails at the host (output/host-limits.ts); none if the build can know none. */
  limits?(settings: HostSettings): HostLimits;
  /** What a build for it prints, once, after the settings are read. */
  warning?: string;
  /** It compresses by itself: `--precompress` writes no .br or .gz copies, which would only be published. */
  compresses: boolean;
  /** It serves a site at the root of its domain: a base path is refused (SF140). */
  servesAtRoot: boolean;
}

/** A host's build service: the variable it sets, and where its settings (SITE_URL) are kept. */
export interface BuildService {
  name: string;
  variable: string;
  value: string;
  settings: string;
  /** Whether the variable alone chooses this host as the target (a CI that may deploy anywhere does not). */
  setsTarget: boolean;
}

/** The makers of the files a host can be given (output/host-files.ts); each knows its file's name. */
export interface HostFileMakers<F> {
  /** `_redirects`; `force` writes `301!`, Netlify's rule that wins over a file at the old path. */
  redirects(force: boolean): F;
  /** `_headers`: the security and cache headers, by path. */
  headers(): F;
  /** `_nginx.conf`: the include with the redirects and headers. */
  nginxConf(): F;
  /** A small page at each old path, for a host without redirect rules. */
  redirectPages(): F[];
}

/**
 * What `preview` and `check` read back of a host's files: the rule files `_redirects` and
 * `_headers` (preview answers them as the host would, check follows each redirect); `_nginx.conf`,
 * which nginx alone reads (preview serves the folder as a plain host); or the redirect pages,
 * served as any page.
 */
export type ReadBack = 'rule files' | 'nginx' | 'redirect pages';

/** The settings a host's limits depend on. */
export interface HostSettings {
  /** cfPagesMaxFiles (CF_PAGES_MAX_FILES): Cloudflare Pages' files per site on a paid plan. */
  cfPagesMaxFiles?: number;
}

/**
 * What a host's docs say a deploy may hold: past any of these the deploy fails at the host, so
 * the build refuses the site before the output folder is swapped (output/host-limits.ts). Each
 * is counted over what the build writes, and names the page that publishes it.
 */
export interface HostLimits {
  /** The host's name, as its docs write it. */
  host: string;
  /** Files in the whole site; `paidPlan`, the files a paid plan takes, when it takes more. */
  files?: HostLimit & { paidPlan?: number };
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
