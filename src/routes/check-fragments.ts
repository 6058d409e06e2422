import { decodeHTML } from 'entities';
import { editDistance } from '../util/nearest.js';

/**
 * Links to a part of a page (`/term-of-service#free-refill`, `#faq`) must name an id that page
 * has: a browser given a missing one opens the page at its top without a word. The build checks
 * the pages it rendered (build/render.ts) and `check` the pages it served (check-site.ts), both
 * with these functions.
 */

/** What the check reads of a page: the ids it has, and the addresses of its links that name a fragment. */
export interface PageAnchors {
  ids: Set<string>;
  links: string[];
}

/**
 * An id, a name or a link's address, as the page's HTML writes it. `\b` finds them fastest (a
 * build reads every page); a `data-id` or `aria-…` is then told apart by what comes before it.
 */
const ANCHOR = /\b(id|href|name)="([^"]*)"/g;

export function readAnchors(html: string): PageAnchors {
  const anchors: PageAnchors = { ids: new Set(), links: [] };
  for (const { 1: attribute, 2: value, index } of html.matchAll(ANCHOR)) {
    if (!/\s/.test(html[index - 1] ?? '')) continue;
    if (attribute === 'href') {
      if (value!.includes('#')) anchors.links.push(decodeHTML(value!));
    } else if (attribute === 'id' || html.startsWith('<a ', html.lastIndexOf('<', index))) {
      // An old-style `<a name>` is a target too; a form field's or a meta tag's name is not.
      anchors.ids.add(decodeHTML(value!));
    }
  }
  return anchors;
}

/** Where a link leads: a page of the site (by its route path) and the fragment it names. */
export interface FragmentTarget {
  path: string;
  fragment: string;
}

/**
 * The page of the site and the fragment `href` names from the page at `pageUrl`, or undefined
 * when it leaves the site (`site`: the site's address, with its base path), names no fragment,
 * or names one every page has: `#` and `#top` (the top of the page) and text fragments (`#:~:`).
 */
export function fragmentTarget(href: string, pageUrl: string, site: string): FragmentTarget | undefined {
  let url: URL;
  let fragment: string;
  try {
    url = new URL(href, pageUrl);
    fragment = decodeURIComponent(url.hash.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '' || fragment === 'top' || fragment.startsWith(':~:')) return undefined;
  const path = sitePath(url, site);
  return path === undefined ? undefined : { path, fragment };
}

/**
 * The route path of an address of the site (`site`: its address, with its base path): decoded,
 * without the base path or a trailing slash; undefined for an address elsewhere.
 */
export function sitePath(url: URL, site: string): string | undefined {
  const base = new URL(site);
  const basePath = base.pathname.replace(/\/$/, '');
  if (url.origin !== base.origin || (basePath && !`${url.pathname}/`.startsWith(`${basePath}/`))) return undefined;
  try {
    return decodeURIComponent(url.pathname.slice(basePath.length)).replace(/(.)\/+$/, '$1') || '/';
  } catch {
    return undefined;
  }
}

/** A link to a fragment its page does not have, and the page's ids nearest the one it names. */
export interface MissingFragment extends FragmentTarget {
  /** The page the link is on, and the link as written. */
  on: string;
  href: string;
  nearby: string[];
}

/**
 * Each link of `pages` (by path) whose page is one of `pages` and lacks the fragment it names.
 * `target` says where a link leads from a page (fragmentTarget, with the site's redirects
 * followed); a link to an address that is no page is the link check's to report, not this one's.
 */
export function missingFragments(
  pages: ReadonlyMap<string, PageAnchors>,
  target: (href: string, on: string) => FragmentTarget | undefined,
): MissingFragment[] {
  const missing: MissingFragment[] = [];
  for (const [on, { links }] of pages) {
    for (const href of new Set(links)) {
      const to = target(href, on);
      const ids = to && pages.get(to.path)?.ids;
      if (!to || !ids || ids.has(to.fragment)) continue;
      missing.push({ on, href, ...to, nearby: nearestIds(to.fragment, ids) });
    }
  }
  return missing;
}

/**
 * Up to three ids of the page nearest to the one named, for "did you mean": a few edits away
 * (a third of its letters), or the start of it (`#who-is-responsible` for a heading's
 * `#who-is-responsible-for-your-information`).
 */
function nearestIds(fragment: string, ids: Set<string>): string[] {
  const allowed = Math.max(2, Math.floor(fragment.length / 3));
  return [...ids]
    .map((id) => ({ id, distance: editDistance(fragment, id) }))
    .filter(({ id, distance }) => distance <= allowed || id.startsWith(fragment))
    .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1))
    .slice(0, 3)
    .map(({ id }) => id);
}
