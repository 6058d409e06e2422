import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LinkChecker, LinkState } from 'linkinator';
import { output } from '../cli/output.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { parseRedirectsFile } from '../output/redirects.js';
import { servedBasePath, startPreview } from '../preview/preview-server.js';
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
  /** Fetch external links too. */
  external?: boolean;
  concurrency?: number;
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
  const siteOrigin = sitemapUrls.length ? new URL(sitemapUrls[0]!).origin : '';
  const server = await startPreview(options.outDir, 0);
  // A site built for a folder of its origin (basePath) is served, and crawled, under it.
  const home = `${server.url}${servedBasePath(options.outDir)}/`;
  const local = (url: string) =>
    siteOrigin && url.startsWith(siteOrigin) ? server.url + url.slice(siteOrigin.length) : url;
  const shown = (url: string) => (url.startsWith(server.url) ? url.slice(server.url.length) || '/' : url);
  const problems: Problem[] = [];
  const longTitles: LongTitle[] = [];
  const warn = options.warn ?? ((line: string) => output.warn(line));
  try {
    const checker = new LinkChecker();
    // Every page in the folder, so that one the sitemap leaves out is checked too; 404.html is
    // what hosts answer for unknown addresses, not a page of its own.
    const folderPages = readdirSync(options.outDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html') && file !== '404.html' && !/(^|[\\/])[._]/.test(file))
      .map(
        (file) =>
          `${home}${file
            .split(path.sep)
            .join('/')
            .replace(/(^|\/)index\.html$/, '')
            .replace(/\.html$/, '')}`,
      );
    const result = await checker.check({
      path: [...new Set([home, ...sitemapUrls.map(local), ...folderPages])],
      recurse: true,
      concurrency: options.concurrency ?? 25,
      timeout: 10_000,
      checkFragments: true,
      // Absolute links to the site's own origin (Open Graph images, say) are checked locally.
      urlRewriteExpressions: siteOrigin
        ? [{ pattern: new RegExp(`^${siteOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), replacement: server.url }]
        : [],
      // Only our own server is crawled; other hosts are listed, and fetched only on request.
      linksToSkip: async (link) => !options.external && !link.startsWith(server.url),
    });

    const internal = (url: string) => url.startsWith(server.url);
    /** The pages each page links to, and the pages that ask not to be indexed. */
    const linksOf = new Map<string, string[]>();
    const noindex = new Set<string>();
    const external = new Map<string, CheckReport['external'][number]>();
    for (const link of result.links) {
      if (!internal(link.url)) {
        const entry = external.get(link.url) ?? { url: link.url, pages: [] };
        if (link.parent) entry.pages.push(shown(link.parent));
        if (link.state !== LinkState.SKIPPED) Object.assign(entry, { state: link.state, status: link.status });
        external.set(link.url, entry);
      }
      if (link.state === LinkState.BROKEN) {
        const url = shown(link.url);
        const file = link.parent ? `on ${shown(link.parent)}` : 'in sitemap.xml';
        problems.push(
          problem('checkBrokenLink', { link: url, status: link.status, onPage: Boolean(link.parent) }, { url, file }),
        );
      }
    }

    // Canonical URLs and sitemap URLs must answer 200 themselves, not through a redirect.
    const pages = result.links.filter(
      (l) => internal(l.url) && l.state === LinkState.OK && !/\.[a-z0-9]+$/i.test(new URL(l.url).pathname),
    );
    const pageUrls = [...new Set(pages.map((p) => p.url.split('#')[0]!))];
    for (const pageUrl of pageUrls) {
      const response = await fetch(pageUrl);
      const html = await response.text();
      if (response.redirected) {
        // An old address: it leads to its page, and is no page of its own.
        linksOf.set(pageUrl, [response.url]);
        noindex.add(pageUrl);
        continue;
      }
      // Linkinator records each URL once, often as a crawl seed, so which pages link where is
      // read from the pages themselves.
      linksOf.set(
        pageUrl,
        [...html.matchAll(/<a\s[^>]*?href="([^"#]*)/g)]
          .filter((m) => m[1])
          .map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), pageUrl).href),
      );
      if (/<meta name="robots" content="[^"]*noindex/.test(html) || response.status !== 200) noindex.add(pageUrl);
      const long = response.status === 200 ? longTitle(shown(pageUrl), html) : undefined;
      if (long) longTitles.push(long);
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      if (!canonical) continue;
      const answer = await fetch(local(canonical), { redirect: 'manual' });
      if (answer.status !== 200) {
        const at = { url: canonical, file: `on ${shown(pageUrl)}` };
        problems.push(problem('checkCanonicalNotPage', { status: answer.status }, at));
      }
    }
    // In the order of the pages' paths, whatever order the crawl found them in.
    longTitles.sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
    for (const long of longTitles) warn(longTitleWarning(long));
    for (const url of sitemapUrls) {
      const answer = await fetch(local(url), { redirect: 'manual' });
      if (answer.status !== 200) {
        problems.push(problem('checkSitemapUrlNotPage', { status: answer.status }, { url, file: 'sitemap.xml' }));
      }
    }
    // Orphans: indexable pages that no chain of links from the home page reaches.
    const reached = new Set([home]);
    for (const from of reached) for (const to of linksOf.get(from) ?? []) reached.add(to);
    for (const pageUrl of pageUrls) {
      if (reached.has(pageUrl) || noindex.has(pageUrl)) continue;
      const listed = sitemapUrls.some((url) => local(url) === pageUrl);
      const at = { url: shown(pageUrl), file: listed ? 'sitemap.xml' : 'the output folder' };
      problems.push(problem('checkOrphanPage', { inSitemap: listed }, at));
    }

    // Every redirect must end on a page.
    const redirectsPath = path.join(options.outDir, '_redirects');
    if (existsSync(redirectsPath)) {
      for (const [from, rule] of parseRedirectsFile(readFileSync(redirectsPath, 'utf8'))) {
        const answer = await fetch(server.url + rule.to, { redirect: 'manual' });
        if (answer.status !== 200) {
          const values = { from, to: rule.to, status: answer.status };
          problems.push(problem('checkRedirectToNothing', values, { url: from, file: '_redirects' }));
        }
      }
    }
    return {
      pagesCrawled: pageUrls.length,
      linksChecked: result.links.length,
      problems,
      external: [...external.values()],
      longTitles,
    };
  } finally {
    await server.close();
  }
}
