import type { SiteContent } from '../content/load-content.js';
import { formatField } from '../util/field-path.js';
import { editDistance } from '../util/nearest.js';
import { imageSources, isMarkdown } from '../content/markdown.js';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import type { RouteTable } from './route-table.js';

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
 * route or a redirect. Reported with the file and field, before anything is rendered.
 */
export function checkContentLinks(
  content: SiteContent,
  table: RouteTable,
  siteUrl: string,
  collected?: ProblemList,
): void {
  const problems = collected ?? new ProblemList();
  const redirected = new Set(table.redirects.map((r) => r.from));
  const known = (routePath: string) =>
    table.byPath.has(routePath) || redirected.has(routePath) || content.unreadable.paths.includes(routePath);
  const check = (file: string, at: PropertyKey[], href: string) => {
    const target = judgeLink(href, known, siteUrl);
    if (target === undefined) return;
    const place = { file, field: formatField(at) };
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
  };
  // The field being walked, as one stack (a large catalogue has thousands of fields).
  const at: PropertyKey[] = [];
  const walk = (file: string, value: unknown) => {
    if (isMarkdown(value)) {
      for (const href of value.links) check(file, at, href);
      // Only blog posts' images are downloaded by the build; on a page, an image from another
      // site would be blocked by the Content-Security-Policy (img-src 'self').
      for (const src of imageSources(value.html)) {
        if (!/^(https?:)?\/\//i.test(src)) continue;
        problems.add(problem('imageFromAnotherSite', { src }, { file, field: formatField(at), url: src }));
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        at.push(i);
        walk(file, item);
        at.pop();
      });
    } else if (value && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) {
        at.push(key);
        if ((key === 'path' || key === 'href') && typeof item === 'string') check(file, at, item);
        else walk(file, item);
        at.pop();
      }
    }
  };
  walk('content/site.yaml', content.site);
  for (const { file, page } of content.pages) walk(file, page);
  for (const { file, page } of content.services) walk(file, page);
  at.push('(body)');
  for (const { file, body } of content.textPages) walk(file, body);
  for (const post of content.posts) for (const href of post.links) check(post.source, at, href);
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
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
