import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LinkChecker, LinkState } from 'linkinator';
import { output } from '../cli/output.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { parseRedirectsFile } from '../output/redirects.js';
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
    ];
    const pages = await readPages(pageUrls, site);
    const links = await linkProblems(result.links, pages, site, options.sources);
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
  /** The site's own origin, as its sitemap names it. */
  siteOrigin: string;
  internal(url: string): boolean;
  /** An address of the site's origin, as the preview server serves it. */
  local(url: string): string;
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
    internal: (url) => url.startsWith(origin),
    local: (url) => (siteOrigin && url.startsWith(siteOrigin) ? origin + url.slice(siteOrigin.length) : url),
    shown: (url) => (url.startsWith(origin) ? url.slice(origin.length) || '/' : url),
  };
}

/** linkinator's crawl from the home page, every sitemap URL and every page in the folder. */
function crawl(site: ServedSite, options: CheckOptions) {
  // Every page in the folder, so that one the sitemap leaves out is checked too; 404.html is
  // what hosts answer for unknown addresses, not a page of its own.
  const folderPages = readdirSync(options.outDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html') && file !== '404.html' && !/(^|[\\/])[._]/.test(file))
    .map(
      (file) =>
        `${site.home}${file
          .split(path.sep)
          .join('/')
          .replace(/(^|\/)index\.html$/, '')
          .replace(/\.html$/, '')}`,
    );
  const { siteOrigin, origin } = site;
  return new LinkChecker().check({
    path: [...new Set([site.home, ...site.sitemapUrls.map(site.local), ...folderPages])],
    recurse: true,
    concurrency: options.concurrency ?? 25,
    timeout: 10_000,
    // Fragments are checked from the pages read (fragmentProblems), each on the page that links.
    checkFragments: false,
    // Absolute links to the site's own origin (Open Graph images, say) are checked locally.
    urlRewriteExpressions: siteOrigin
      ? [{ pattern: new RegExp(`^${siteOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), replacement: origin }]
      : [],
    // Only our own server is crawled; other hosts are listed, and fetched only on request.
    linksToSkip: async (link) => !options.external && !link.startsWith(origin),
  });
}

type CrawledLink = Awaited<ReturnType<typeof crawl>>['links'][number];

/**
 * The broken links, each on every page that holds it (or in sitemap.xml, which lists it), with
 * its cause; and the external links with the pages that hold them.
 */
async function linkProblems(links: CrawledLink[], pages: PagesRead, site: ServedSite, sources?: LinkSources) {
  const problems: Problem[] = [];
  const external = new Map<string, CheckReport['external'][number]>();
  const broken = new Set<string>();
  for (const link of links) {
    if (!site.internal(link.url)) {
      const entry = external.get(link.url) ?? { url: link.url, pages: [] };
      if (link.parent) entry.pages.push(site.shown(link.parent));
      if (link.state !== LinkState.SKIPPED) Object.assign(entry, { state: link.state, status: link.status });
      external.set(link.url, entry);
    }
    if (link.state !== LinkState.BROKEN || broken.has(link.url)) continue;
    broken.add(link.url);
    const url = site.shown(link.url);
    const cause = await causeOf(link.url, link.status);
    // Linkinator records each address once, often as a crawl seed: the pages holding it are read from the pages.
    const on = [...pages.refs].filter(([, refs]) => refs.has(link.url)).map(([page]) => page);
    if (on.length === 0 && link.parent) on.push(link.parent);
    if (on.length === 0)
      problems.push(problem('checkBrokenLink', { link: url, cause }, { url, file: site.file('sitemap.xml') }));
    for (const pageUrl of on) {
      const page = site.shown(pageUrl);
      const leadsTo = (to: URL) => to.href.split('#')[0] === link.url.split('#')[0];
      const place = (await sources?.(page, pageUrl, leadsTo)) ?? { file: site.pageFile(pageUrl), url };
      problems.push(problem('checkBrokenLink', { link: url, page, cause }, place));
    }
  }
  return { problems, external: [...external.values()] };
}

/** Why an address of the served site is broken: no such page, a redirect loop, or its status. */
async function causeOf(url: string, status: number | undefined): Promise<string> {
  const seen = new Set<string>();
  let at = url;
  for (let hop = 0; hop < 20; hop++) {
    if (seen.has(at)) return 'a redirect loop';
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
    const long = response.status === 200 ? longTitle(site.shown(pageUrl), html) : undefined;
    if (long) read.longTitles.push(long);
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    if (!canonical) continue;
    const answer = await fetch(site.local(canonical), { redirect: 'manual' });
    if (answer.status !== 200) {
      const at = { file: site.pageFile(pageUrl), url: canonical };
      read.problems.push(problem('checkCanonicalNotPage', { status: answer.status }, at));
    }
  }
  // In the order of the pages' paths, whatever order the crawl found them in.
  read.longTitles.sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
  return read;
}

async function sitemapProblems(site: ServedSite): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const url of site.sitemapUrls) {
    const answer = await fetch(site.local(url), { redirect: 'manual' });
    if (answer.status !== 200) {
      problems.push(
        problem('checkSitemapUrlNotPage', { status: answer.status }, { file: site.file('sitemap.xml'), url }),
      );
    }
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
