import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LinkChecker, LinkState } from 'linkinator';
import { output } from '../cli/output.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { parseRedirectsFile } from '../output/redirects.js';
import { nearest } from '../util/nearest.js';
import {
  fragmentTarget,
  missingFragments,
  type PageAnchors,
  readAnchors,
  sitePath,
} from '../routes/check-fragments.js';
import { outputFile } from '../routes/route-table.js';
import { servedBasePath, startPreview } from '../preview/preview-server.js';
import type { LinkSources } from './link-sources.js';
import { longTitle, longTitleWarning, type LongTitle } from './page-titles.js';

export interface CheckReport {
  pagesCrawled: number;
  linksChecked: number;
  /** Every problem found: broken links, bad redirects, canonicals, sitemap, orphans. */
  problems: Problem[];
  /** External links found (fetched only with `external`). */
  external: { url: string; pages: string[]; state?: string; status?: number }[];
  /** Pages whose <title> is over MAX_TITLE_LENGTH characters: warnings, never a failure. */
  longTitles: LongTitle[];
}

export interface CheckOptions {
  outDir: string;
  /** The output folder as messages name its files: as typed (`dist`); its name by default. */
  outName?: string;
  /** Fetch external links too. */
  external?: boolean;
  concurrency?: number;
  /** Where content writes a link found wrong (check/link-sources.ts); without it, the page is the place. */
  sources?: LinkSources;
  /** Prints each warning line (a title over 60 characters); `output.warn` unless given. */
  warn?: (line: string) => void;
}

/**
 * Serves the built folder like `preview` and crawls it with linkinator from `/`, every sitemap
 * URL and every page in the folder. Internal links must answer; redirects must end on pages;
 * canonical and sitemap URLs must answer 200 themselves; every indexable page must be reachable
 * from `/` by following links (the sitemap does not count: visitors never see it). A page whose
 * <title> is over 60 characters is a warning: printed, listed, but no problem.
 *
 * Every request goes to the preview server, but external links with `external`. A canonical or
 * sitemap URL on another origin than the site's (the sitemap's first URL's) is a problem in
 * itself, and never fetched, not even with `external`.
 */
export async function checkSite(options: CheckOptions): Promise<CheckReport> {
  const sitemapPath = path.join(options.outDir, 'sitemap.xml');
  if (!existsSync(sitemapPath)) {
    throw new StorefrontError(problem('checkNoSite', {}, { file: sitemapPath }));
  }
  const sitemapUrls = [...readFileSync(sitemapPath, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
    m[1]!.replace(/&amp;/g, '&'),
  );
  const server = await startPreview(options.outDir, 0);
  try {
    const site = servedSite(server.url, options.outDir, sitemapUrls, options.outName ?? path.basename(options.outDir));
    const result = await crawl(site, options);
    // Canonical URLs and sitemap URLs must answer 200 themselves, not through a redirect.
    const pageUrls = [
      ...new Set(
        result.links
          .filter(
            (l) => site.internal(l.url) && l.state === LinkState.OK && !/\.[a-z0-9]+$/i.test(new URL(l.url).pathname),
          )
          .map((p) => p.url.split('#')[0]!),
      ),
      // In the order of their addresses, whatever order the crawl found them in.
    ].sort();
    const pages = await readPages(pageUrls, site);
    const links = await linkProblems(result.links, pages, site, options);
    const warn = options.warn ?? ((line: string) => output.warn(line));
    for (const long of pages.longTitles) warn(longTitleWarning(long));
    const problems = [
      ...links.problems,
      ...(await fragmentProblems(pages, site, options.sources)),
      ...pages.problems,
      ...(await sitemapProblems(site)),
      ...orphanProblems(pageUrls, pages, site),
      ...(await redirectProblems(options.outDir, site)),
    ];
    return {
      pagesCrawled: pageUrls.length,
      linksChecked: result.links.length,
      problems,
      external: links.external,
      longTitles: pages.longTitles,
    };
  } finally {
    await server.close();
  }
}

/** The site as the preview server serves it, and how its addresses are read and shown. */
interface ServedSite {
  /** The preview server's origin. */
  origin: string;
  /** The home page: a site built for a folder of its origin (basePath) is served, and crawled, under it. */
  home: string;
  sitemapUrls: string[];
  /** The site's own origin, as its sitemap names it ('' when it lists no URL). */
  siteOrigin: string;
  /** On the preview server. */
  internal(url: string): boolean;
  /**
   * An address of the site's origin (or of the preview server), as the preview server serves it;
   * undefined for any other: check never fetches it.
   */
  local(url: string): string | undefined;
  /** An address as the messages show it: a path for the site's own pages. */
  shown(url: string): string;
  /** A file of the output folder as the messages name it (`dist/sitemap.xml`), and a page's own file. */
  file(name: string): string;
  pageFile(pageUrl: string): string;
}

function servedSite(origin: string, outDir: string, sitemapUrls: string[], outName: string): ServedSite {
  const siteOrigin = sitemapUrls.length ? new URL(sitemapUrls[0]!).origin : '';
  const home = `${origin}${servedBasePath(outDir)}/`;
  const file = (name: string) => `${outName}/${name}`;
  return {
    origin,
    home,
    file,
    pageFile: (pageUrl) => file(outputFile(sitePath(new URL(pageUrl), home) ?? '/')),
    sitemapUrls,
    siteOrigin,
    internal: (url) => onOrigin(url, origin),
    local: (url) =>
      onOrigin(url, origin)
        ? url
        : siteOrigin && onOrigin(url, siteOrigin)
          ? origin + url.slice(siteOrigin.length)
          : undefined,
    shown: (url) => (onOrigin(url, origin) ? url.slice(origin.length) || '/' : url),
  };
}

/** Whether an absolute URL is on this origin: `https://a.example` is not on `https://a.ex`. */
function onOrigin(url: string, origin: string): boolean {
  return url.startsWith(origin) && (url.length === origin.length || '/?#'.includes(url[origin.length]!));
}

/** A URL's origin, as messages show it; the URL itself if it has none. */
function originOf(url: string): string {
  const origin = URL.canParse(url) ? new URL(url).origin : 'null';
  return origin === 'null' ? url : origin;
}

/** The canonical URL a page names, as written (`&amp;` read), or undefined. */
function canonicalOf(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

/** linkinator's crawl from the home page, every sitemap URL and every page in the folder. */
function crawl(site: ServedSite, options: CheckOptions) {
  // Every page in the folder, so that one the sitemap leaves out is checked too; 404.html is
  // what hosts answer for unknown addresses, not a page of its own.
  const folderFiles = readdirSync(options.outDir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.html') && file !== '404.html' && !/(^|[\\/])[._]/.test(file),
  );
  const pageUrlOf = (file: string) =>
    `${site.home}${file
      .split(path.sep)
      .join('/')
      .replace(/(^|\/)index\.html$/, '')
      .replace(/\.html$/, '')}`;
  const folderPages = folderFiles.map(pageUrlOf);
  const { siteOrigin, origin } = site;
  // Canonical URLs on other origins are problems in themselves (readPages), never fetched, not
  // even with --external, which fetches the other links to other hosts.
  const canonicalsElsewhere = new Set(
    (options.external ? folderFiles : []).flatMap((file) => {
      const canonical = canonicalOf(readFileSync(path.join(options.outDir, file), 'utf8'));
      const to =
        canonical && URL.canParse(canonical, pageUrlOf(file)) ? new URL(canonical, pageUrlOf(file)) : undefined;
      return to && !site.local(to.href) ? [to.href.split('#')[0]!] : [];
    }),
  );
  // Sitemap URLs on other origins are problems in themselves (sitemapProblems), not crawled.
  const sitemapPages = site.sitemapUrls.flatMap((url) => site.local(url) ?? []);
  const escaped = siteOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new LinkChecker().check({
    path: [...new Set([site.home, ...sitemapPages, ...folderPages])],
    recurse: true,
    concurrency: options.concurrency ?? 25,
    timeout: 10_000,
    // Fragments are checked from the pages read (fragmentProblems), each on the page that links.
    checkFragments: false,
    // Absolute links to the site's own origin (Open Graph images, say) are checked locally.
    urlRewriteExpressions: siteOrigin ? [{ pattern: new RegExp(`^${escaped}(?=[/?#]|$)`), replacement: origin }] : [],
    // Only our own server is crawled; other hosts are listed, and fetched only on request.
    linksToSkip: async (link) =>
      !onOrigin(link, origin) && (!options.external || canonicalsElsewhere.has(link.split('#')[0]!)),
  });
}

type CrawledLink = Awaited<ReturnType<typeof crawl>>['links'][number];

/**
 * The broken links, each on every page that holds it (or in sitemap.xml, which lists it), with
 * its cause; and the external links with the pages that hold them.
 */
async function linkProblems(links: CrawledLink[], pages: PagesRead, site: ServedSite, options: CheckOptions) {
  const { sources } = options;
  const problems: Problem[] = [];
  const external = new Map<string, CheckReport['external'][number]>();
  const broken = new Set<string>();
  // In the order of their addresses, whatever order the crawl found them in: each run reports alike.
  const sorted = [...links].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  for (const link of sorted) {
    // A canonical URL on another origin is a problem of its own (readPages), not an external link.
    if (!site.internal(link.url) && !pages.canonicalsElsewhere.has(link.url.split('#')[0]!)) {
      const entry = external.get(link.url) ?? { url: link.url, pages: [] };
      if (link.parent) entry.pages.push(site.shown(link.parent));
      if (link.state !== LinkState.SKIPPED) Object.assign(entry, { state: link.state, status: link.status });
      external.set(link.url, entry);
    }
    if (link.state !== LinkState.BROKEN || broken.has(link.url)) continue;
    broken.add(link.url);
    const url = site.shown(link.url);
    const cause = await causeOf(link.url, link.status, (at) => options.external === true || site.internal(at));
    // A misspelt address of the site: the page nearest in spelling, among the pages crawled.
    const near = site.internal(link.url) ? nearestPage(url, pages.paths) : undefined;
    const values = near ? { nearest: near } : {};
    // Linkinator records each address once, often as a crawl seed: the pages holding it are read from the pages.
    const on = [...pages.refs].filter(([, refs]) => refs.has(link.url)).map(([page]) => page);
    if (on.length === 0 && link.parent) on.push(link.parent);
    if (on.length === 0)
      problems.push(
        problem('checkBrokenLink', { link: url, cause, ...values }, { url, file: site.file('sitemap.xml') }),
      );
    for (const pageUrl of on) {
      const page = site.shown(pageUrl);
      const leadsTo = (to: URL) => to.href.split('#')[0] === link.url.split('#')[0];
      const place = (await sources?.(page, pageUrl, leadsTo)) ?? { file: site.pageFile(pageUrl), url };
      problems.push(problem('checkBrokenLink', { link: url, page, cause, ...values }, place));
    }
  }
  return { problems, external: [...external.values()] };
}

/**
 * The page of the site nearest a broken link's path in spelling, if one is near (util/nearest.ts):
 * case, and `_` for `-`, count for nothing; the slashes around are left out, so that `/x` is too short
 * to be near `/`. `pagePaths`: the pages crawled, as messages show them.
 */
function nearestPage(link: string, pagePaths: readonly string[]): string | undefined {
  const key = (p: string) =>
    p
      .toLowerCase()
      .replace(/_/g, '-')
      .replace(/^\/|\/+$/g, '');
  const byKey = new Map(pagePaths.map((p) => [key(p), p]));
  const wanted = key(link.split(/[?#]/)[0]!);
  const near = byKey.has(wanted) ? wanted : nearest(wanted, byKey.keys());
  const found = near === undefined ? undefined : byKey.get(near);
  return found === link ? undefined : found;
}

/**
 * Why an address of the served site is broken: no such page, a redirect loop, or its status.
 * Only addresses `mayFetch` allows are fetched (the preview server's, unless --external).
 */
async function causeOf(url: string, status: number | undefined, mayFetch: (url: string) => boolean): Promise<string> {
  const seen = new Set<string>();
  let at = url;
  for (let hop = 0; hop < 20; hop++) {
    if (seen.has(at)) return 'a redirect loop';
    if (!mayFetch(at)) return at === url ? (status ? `HTTP ${status}` : 'no answer') : 'a redirect to another site';
    seen.add(at);
    const answer = await fetch(at, { redirect: 'manual' }).catch(() => undefined);
    if (!answer) break;
    const next = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && next) {
      at = new URL(next, at).href;
      continue;
    }
    if (answer.status === 404 || answer.status === 410) return 'no such page';
    return `HTTP ${answer.status}`;
  }
  return status ? `HTTP ${status}` : 'no answer';
}

/** Each link to a part of a page that page does not have, on the page that holds it. */
async function fragmentProblems(pages: PagesRead, site: ServedSite, sources?: LinkSources): Promise<Problem[]> {
  const urlOf = (on: string) => `${site.home}${encodeURI(on.slice(1))}`;
  const target = (href: string, on: string) => {
    const to = fragmentTarget(href, urlOf(on), site.home);
    const redirected = to && pages.redirects.get(to.path);
    return redirected ? { ...to!, path: redirected } : to;
  };
  const problems: Problem[] = [];
  for (const { on, href, path, fragment, nearby } of missingFragments(pages.anchors, target)) {
    const leadsTo = (to: URL) => {
      const there = target(to.href, on);
      return there?.path === path && there.fragment === fragment;
    };
    const place = (await sources?.(on, urlOf(on), leadsTo)) ?? { file: site.pageFile(urlOf(on)), url: href };
    problems.push(problem('checkMissingFragment', { href, on, page: path, fragment, nearby }, place));
  }
  return problems;
}

/** What is read from the pages themselves: their links, which ask not to be indexed, titles and canonicals. */
interface PagesRead {
  /** The pages each page links to. */
  linksOf: Map<string, string[]>;
  /** Every address each page refers to (links, images, scripts), without its fragment. */
  refs: Map<string, Set<string>>;
  /** Each page's ids and links to fragments, by route path; the old addresses that redirect, to their page's. */
  anchors: Map<string, PageAnchors>;
  redirects: Map<string, string>;
  /** The pages that answered 200 themselves, as messages show them: what a misspelt link may have meant. */
  paths: string[];
  /** The canonical URLs on another origin than the site's, resolved: problems, never fetched. */
  canonicalsElsewhere: Set<string>;
  noindex: Set<string>;
  longTitles: LongTitle[];
  problems: Problem[];
}

async function readPages(pageUrls: string[], site: ServedSite): Promise<PagesRead> {
  const read: PagesRead = {
    linksOf: new Map(),
    refs: new Map(),
    anchors: new Map(),
    redirects: new Map(),
    paths: [],
    canonicalsElsewhere: new Set(),
    noindex: new Set(),
    longTitles: [],
    problems: [],
  };
  const pathOf = (url: string) => sitePath(new URL(url), site.home) ?? url;
  for (const pageUrl of pageUrls) {
    const response = await fetch(pageUrl);
    const html = await response.text();
    if (response.redirected) {
      // An old address: it leads to its page, and is no page of its own.
      read.linksOf.set(pageUrl, [response.url]);
      read.noindex.add(pageUrl);
      read.redirects.set(pathOf(pageUrl), pathOf(response.url));
      continue;
    }
    read.anchors.set(pathOf(pageUrl), readAnchors(html));
    read.refs.set(
      pageUrl,
      new Set(
        [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].flatMap((m) => {
          const ref = m[1]!.replace(/&amp;/g, '&');
          return URL.canParse(ref, pageUrl) ? [new URL(ref, pageUrl).href.split('#')[0]!] : [];
        }),
      ),
    );
    // Linkinator records each URL once, often as a crawl seed, so which pages link where is
    // read from the pages themselves.
    read.linksOf.set(
      pageUrl,
      [...html.matchAll(/<a\s[^>]*?href="([^"#]*)/g)]
        .filter((m) => m[1])
        .map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), pageUrl).href),
    );
    if (/<meta name="robots" content="[^"]*noindex/.test(html) || response.status !== 200) read.noindex.add(pageUrl);
    if (response.status === 200) read.paths.push(site.shown(pageUrl));
    const long = response.status === 200 ? longTitle(site.shown(pageUrl), html) : undefined;
    if (long) read.longTitles.push(long);
    const canonical = canonicalOf(html);
    if (!canonical) continue;
    const at = { file: site.pageFile(pageUrl), url: canonical };
    // On another origin than the site's: a problem in itself, and never fetched.
    const resolved = URL.canParse(canonical, pageUrl) ? new URL(canonical, pageUrl).href : canonical;
    const local = site.local(resolved);
    if (!local) {
      read.canonicalsElsewhere.add(resolved.split('#')[0]!);
      const values = { origin: originOf(canonical), siteOrigin: site.siteOrigin };
      read.problems.push(problem('checkCanonicalElsewhere', values, at));
      continue;
    }
    const answer = await fetch(local, { redirect: 'manual' });
    if (answer.status !== 200) read.problems.push(problem('checkCanonicalNotPage', { status: answer.status }, at));
  }
  // In the order of the pages' paths, whatever order the crawl found them in.
  read.longTitles.sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
  return read;
}

async function sitemapProblems(site: ServedSite): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const url of site.sitemapUrls) {
    const at = { file: site.file('sitemap.xml'), url };
    // On another origin than its first URL's: a problem in itself, and never fetched.
    const local = site.local(url);
    if (!local) {
      problems.push(problem('checkSitemapUrlElsewhere', { origin: originOf(url), siteOrigin: site.siteOrigin }, at));
      continue;
    }
    const answer = await fetch(local, { redirect: 'manual' });
    if (answer.status !== 200) problems.push(problem('checkSitemapUrlNotPage', { status: answer.status }, at));
  }
  return problems;
}

/** Orphans: indexable pages that no chain of links from the home page reaches. */
function orphanProblems(pageUrls: string[], pages: PagesRead, site: ServedSite): Problem[] {
  const reached = new Set([site.home]);
  for (const from of reached) for (const to of pages.linksOf.get(from) ?? []) reached.add(to);
  return pageUrls
    .filter((pageUrl) => !reached.has(pageUrl) && !pages.noindex.has(pageUrl))
    .map((pageUrl) => {
      const listed = site.sitemapUrls.some((url) => site.local(url) === pageUrl);
      const at = { file: listed ? site.file('sitemap.xml') : site.pageFile(pageUrl), url: site.shown(pageUrl) };
      return problem('checkOrphanPage', { inSitemap: listed }, at);
    });
}

/** Every redirect must end on a page. */
async function redirectProblems(outDir: string, site: ServedSite): Promise<Problem[]> {
  const redirectsPath = path.join(outDir, '_redirects');
  if (!existsSync(redirectsPath)) return [];
  const problems: Problem[] = [];
  for (const [from, rule] of parseRedirectsFile(readFileSync(redirectsPath, 'utf8'))) {
    const answer = await fetch(site.origin + rule.to, { redirect: 'manual' });
    if (answer.status !== 200) {
      const values = { from, to: rule.to, status: answer.status };
      problems.push(problem('checkRedirectToNothing', values, { file: site.file('_redirects'), url: from }));
    }
  }
  return problems;
}
