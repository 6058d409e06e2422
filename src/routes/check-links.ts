import type { SiteContent } from '../content/load-content.js';
import { editDistance } from '../util/nearest.js';
import { problem, type Place } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { fragmentTarget, missingFragments, type MissingFragment, type PageAnchors } from './check-fragments.js';
import { asRendered, contentLinks, linkPlacer, writtenLink } from './content-links.js';
import { absoluteUrl, type RouteTable } from './route-table.js';

export type LinkTarget =
  | { kind: 'route'; path: string }
  | { kind: 'external' }
  /** A relative link (`contact`, `../about`): it would break depending on the page. */
  | { kind: 'relative' }
  /** A scheme a visitor's browser should never be sent to from a shop's page (javascript:, data:, file:…). */
  | { kind: 'scheme'; scheme: string }
  /** On the site's origin, but outside the folder (base path) the site is served from. */
  | { kind: 'outside'; base: string };

/** The schemes content may link to: the web, e-mail and the phone. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/**
 * What an href in content points to. Root-relative paths and absolute URLs on the site's own
 * origin are routes; other schemes and origins are external; `#anchor` is external here (the
 * page's own anchors are checked in the built HTML).
 */
export function classifyHref(href: string, siteUrl: string): LinkTarget {
  if (href.startsWith('#')) return { kind: 'external' };
  let pathname: string;
  if (href.startsWith('/') && !href.startsWith('//')) {
    pathname = href.replace(/[?#].*$/, '');
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(href.trim()) || href.startsWith('//')) {
    let url: URL;
    try {
      url = new URL(href, siteUrl);
    } catch {
      return { kind: 'external' };
    }
    if (!LINK_SCHEMES.has(url.protocol)) return { kind: 'scheme', scheme: url.protocol };
    // siteUrl may name a folder of its origin (a base path): a link there is a route of the site.
    const site = new URL(siteUrl);
    if (url.origin !== site.origin) return { kind: 'external' };
    const base = site.pathname.replace(/\/$/, '');
    if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return { kind: 'outside', base };
    pathname = base ? url.pathname.slice(base.length) || '/' : url.pathname;
  } else {
    return { kind: 'relative' };
  }
  try {
    return { kind: 'route', path: decodeURIComponent(pathname) };
  } catch {
    return { kind: 'route', path: pathname };
  }
}

/**
 * What is wrong with an href written in content, or undefined when it is fine: an internal link
 * must name a route or a redirect (`known`).
 */
function judgeLink(
  href: string,
  known: (routePath: string) => boolean,
  siteUrl: string,
): Exclude<LinkTarget, { kind: 'external' }> | undefined {
  const target = classifyHref(href, siteUrl);
  if (target.kind === 'external') return undefined;
  // A trailing slash is answered with a 301 to the clean path by every host (see _nginx.conf).
  if (target.kind === 'route' && (known(target.path) || known(target.path.replace(/(.)\/+$/, '$1')))) return undefined;
  return target;
}

/**
 * Every internal link written in content (Markdown links, `path` and `href` fields) must name a
 * route or a redirect. Reported with the file, its line and column, and the field, before
 * anything is rendered. `root` is the project's folder, where the files are read for the lines.
 */
export function checkContentLinks(
  content: SiteContent,
  table: RouteTable,
  siteUrl: string,
  root: string,
  problems: ProblemList,
): void {
  const redirected = new Set(table.redirects.map((r) => r.from));
  const known = (routePath: string) =>
    table.byPath.has(routePath) || redirected.has(routePath) || content.unreadable.paths.includes(routePath);
  const placeOf = linkPlacer(root);
  const { links, images } = contentLinks(content);
  for (const link of links) {
    const { href } = link;
    const target = judgeLink(href, known, siteUrl);
    if (target === undefined) continue;
    const place = { file: link.file, ...placeOf(link), field: link.field };
    problems.add(
      target.kind === 'scheme'
        ? problem('linkWithForbiddenScheme', { href, scheme: target.scheme }, place)
        : target.kind === 'relative'
          ? problem('relativeLink', { href }, place)
          : target.kind === 'outside'
            ? problem('linkOutsideBasePath', { href, base: target.base }, place)
            : problem(
                'linkToMissingPage',
                {
                  href,
                  closest: closestRoute(
                    target.path,
                    [...table.byPath.keys()].filter((p) => !p.startsWith('/blog/')),
                  ),
                },
                place,
              ),
    );
  }
  // Only blog posts' images are downloaded by the build; on a page, an image from another site
  // would be blocked by the Content-Security-Policy (img-src 'self'). A post's are not walked.
  for (const image of images) {
    if (!/^(https?:)?\/\//i.test(image.href)) continue;
    const place = { file: image.file, ...placeOf(image), field: image.field, url: image.href };
    problems.add(problem('imageFromAnotherSite', { src: image.href }, place));
  }
}

/**
 * The route closest in spelling, to suggest in the hint, however far: unlike `nearest`, there is
 * always one to name.
 */
function closestRoute(target: string, candidates: string[]): string {
  let best = candidates[0] ?? '/';
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(target, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/**
 * The links of the rendered pages (`pages`, by route path) that name a fragment their page does
 * not have (check-fragments.ts), each reported once where it is written: the content file, line
 * and column (the page's own file first, then any file that writes the link), a WordPress post,
 * or, for a link the templates make, the first page it is on. Redirects are followed.
 */
export function fragmentProblems(
  pages: ReadonlyMap<string, PageAnchors>,
  content: SiteContent,
  table: RouteTable,
  siteUrl: string,
  root: string,
  problems: ProblemList,
): void {
  const redirects = new Map(table.redirects.map((r) => [r.from, r.to]));
  const basePath = new URL(siteUrl).pathname.replace(/\/$/, '');
  const target = (href: string, on: string) => {
    const to = fragmentTarget(href, absoluteUrl(siteUrl, on), siteUrl);
    const redirected = to && !pages.has(to.path) ? redirects.get(to.path) : undefined;
    return redirected?.startsWith('/') ? { ...to!, path: redirected } : to;
  };
  const missing = missingFragments(pages, target);
  if (missing.length === 0) return;
  const { links } = contentLinks(content);
  const placeOf = linkPlacer(root);
  const reported = new Map<string, { found: MissingFragment; place: Place; pages: number }>();
  for (const found of missing) {
    const source = table.byPath.get(found.on)?.source;
    const written = writtenLink(links, source, (link) => {
      const to = target(asRendered(link.href, basePath), found.on);
      return to?.path === found.path && to.fragment === found.fragment;
    });
    const key = written ? `${written.file}\0${written.field}\0${written.nth}\0${written.href}` : found.href;
    const place: Place = written
      ? { file: written.file, ...placeOf(written), field: written.field }
      : source && /^https?:/.test(source)
        ? { url: source }
        : { url: found.on, field: 'a link the templates make' };
    const entry = reported.get(key);
    if (entry) entry.pages += 1;
    else reported.set(key, { found, place, pages: 1 });
  }
  for (const { found, place, pages: count } of reported.values()) {
    const { href, on, path, fragment, nearby } = found;
    problems.add(
      problem('linkToMissingFragment', { href, on, others: count - 1, page: path, fragment, nearby }, place),
    );
  }
}
