import type { SiteContent } from '../content/load-content.js';
import type { Markdown } from '../content/markdown.js';
import type { Post } from '../content/post.js';
import type { Page, Redirect, ServicePageContent, TextPageFrontMatter } from '../content/schemas.js';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';

export const POSTS_PER_PAGE = 12;
export const NOT_FOUND_PATH = '/404';

interface RouteBase {
  /** Decoded path: `/`, `/about`, `/blog/page/2`. No trailing slash. */
  path: string;
  /** The content file or URL the route comes from, for messages. */
  source: string;
  /** Listed in the sitemap and without `noindex`. */
  indexable: boolean;
  lastmod?: Date;
}

export type Route = RouteBase &
  (
    | { kind: 'page'; page: Page }
    | { kind: 'service'; page: ServicePageContent }
    | { kind: 'text'; page: TextPageFrontMatter; body: Markdown }
    | { kind: 'blog-list'; posts: Post[]; pageNumber: number; pageCount: number }
    | { kind: 'blog-post'; post: Post }
    | { kind: 'not-found' }
  );

export type RouteKind = Route['kind'];

/**
 * Every page of the site and every redirect, built once. Navigation, the sitemap, redirects,
 * canonical URLs and the link check all read it; nothing else lists routes.
 */
export interface RouteTable {
  routes: Route[];
  byPath: ReadonlyMap<string, Route>;
  redirects: readonly Redirect[];
}

export function blogListPath(pageNumber: number): string {
  return pageNumber === 1 ? '/blog' : `/blog/page/${pageNumber}`;
}

export function postPath(slug: string): string {
  return `/blog/${slug}`;
}

/** The absolute URL of a route: canonical links, the sitemap, Open Graph, the feed. */
export function absoluteUrl(siteUrl: string, routePath: string): string {
  return `${siteUrl}${encodeURI(routePath)}`;
}

/** The file a route is written to: `/` → index.html, `/about` → about.html. */
export function outputFile(routePath: string): string {
  return routePath === '/' ? 'index.html' : `${routePath.slice(1)}.html`;
}

/** The route of a post's page. */
export function postRoute(post: Post): Route {
  return {
    kind: 'blog-post',
    path: postPath(post.slug),
    source: post.source,
    indexable: !post.unpublished,
    lastmod: post.modified,
    post,
  };
}

/**
 * Addresses the build writes files at itself, or serves from folders of its own: a page there
 * would be shadowed by the file, or shadow it.
 */
const GENERATED = ['/sitemap.xml', '/robots.txt', '/blog/feed.xml', '/favicon.svg'];
const GENERATED_FOLDERS = ['/assets/', '/images/'];

/**
 * Why a page's (or redirect page's) path cannot be written as a file of the output folder, or
 * undefined when it can. Every path that comes from content, settings or the CMS is checked
 * here, before anything is written: a file may not climb out of the folder (`..`), be hidden
 * (a segment starting with a dot, never published by hosts), or take the place of a file the
 * build writes itself.
 */
export function unsafePathReason(routePath: string): string | undefined {
  if (!routePath.startsWith('/')) return 'it does not start with /';
  if (routePath === '/') return undefined;
  if (/[\\\u0000-\u001f\u007f]/.test(routePath)) return 'it contains a backslash or a control character';
  // A host decodes %2e, %2f and %5c before it looks for the file: /%2e%2e/x is /../x to it.
  if (/%(2e|2f|5c)/i.test(routePath))
    return 'it writes a dot, a slash or a backslash percent-encoded (%2e, %2f, %5c), which a host decodes';
  const segments = routePath.slice(1).split('/');
  if (segments.some((segment) => segment === '')) return 'it has an empty segment (//) or ends with /';
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return 'it climbs out of its folder with . or ..';
  if (segments.some((segment) => segment.startsWith('.'))) return 'a part of it starts with a dot (a hidden file)';
  if (segments.some((segment) => segment.startsWith('_')))
    return 'a part of it starts with _, as files for the host do (hosts do not serve them)';
  const lower = routePath.toLowerCase();
  if (GENERATED.includes(lower) || GENERATED.some((file) => `${lower}.html` === file))
    return 'the build writes a file of its own there';
  if (GENERATED_FOLDERS.some((folder) => lower.startsWith(folder)))
    return `the build keeps its own files under ${GENERATED_FOLDERS.join(' and ')}`;
  return undefined;
}

/**
 * Paths that differ only by case: one file on a case-insensitive disk or host (macOS, Windows, a
 * bucket synced from one).
 */
function checkCaseCollisions(paths: { path: string; file: string; field: string }[], problems: ProblemList): void {
  const seen = new Map<string, string>();
  for (const { path, file, field } of paths) {
    const lower = path.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined && other !== path) {
      problems.add(problem('pathsDifferByCase', { path, other }, { file, field }));
    } else seen.set(lower, path);
  }
}

export function buildRouteTable(content: SiteContent, collected?: ProblemList): RouteTable {
  const routes: Route[] = [];
  for (const { file, page } of content.pages) {
    routes.push({ kind: 'page', path: page.path, source: file, indexable: true, page });
  }
  for (const { file, page } of content.services) {
    routes.push({ kind: 'service', path: page.path, source: file, indexable: true, page });
  }
  for (const { file, page, body } of content.textPages) {
    routes.push({ kind: 'text', path: page.path, source: file, indexable: !page.noindex, page, body });
  }
  const pageCount = Math.max(1, Math.ceil(content.posts.length / POSTS_PER_PAGE));
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
    const start = (pageNumber - 1) * POSTS_PER_PAGE;
    routes.push({
      kind: 'blog-list',
      path: blogListPath(pageNumber),
      source: 'content/site.yaml › blog',
      indexable: true,
      posts: content.posts.slice(start, start + POSTS_PER_PAGE),
      pageNumber,
      pageCount,
    });
  }
  for (const post of content.posts) routes.push(postRoute(post));
  routes.push({ kind: 'not-found', path: NOT_FOUND_PATH, source: 'content/site.yaml › notFound', indexable: false });

  const problems = collected ?? new ProblemList();
  const byPath = new Map<string, Route>();
  for (const route of routes) {
    const other = byPath.get(route.path);
    if (other) {
      const field = route.kind === 'blog-post' ? 'slug' : 'path';
      problems.add(problem('pathTaken', { path: route.path, other: other.source }, { file: route.source, field }));
    } else byPath.set(route.path, route);
  }
  for (const route of routes) {
    const reason = unsafePathReason(route.path);
    if (reason) {
      const field = route.kind === 'blog-post' ? 'slug' : 'path';
      problems.add(problem('unsafePagePath', { path: route.path, reason }, { file: route.source, field }));
    }
  }
  // Redirect pages are files too: `/About` would overwrite about.html on such a disk.
  checkCaseCollisions(
    [
      ...routes.map((route) => ({
        path: route.path,
        file: route.source,
        field: route.kind === 'blog-post' ? 'slug' : 'path',
      })),
      ...content.redirects.list.map((redirect, i) => ({
        path: redirect.from,
        file: content.redirects.file,
        field: `[${i}].from`,
      })),
    ],
    problems,
  );
  const froms = new Set<string>();
  content.redirects.list.forEach(({ from, to }, i) => {
    const atFrom = { file: content.redirects.file, field: `[${i}].from` };
    const reason = unsafePathReason(from);
    if (reason) problems.add(problem('unsafeRedirectFrom', { from, reason }, atFrom));
    if (froms.has(from)) problems.add(problem('redirectedTwice', { from }, atFrom));
    froms.add(from);
    if (byPath.has(from)) problems.add(problem('redirectFromPage', { from }, atFrom));
    if (!byPath.has(to) && !content.unreadable.paths.includes(to)) {
      problems.add(problem('redirectToNoPage', { from, to }, { file: content.redirects.file, field: `[${i}].to` }));
    }
  });
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
  return { routes, byPath, redirects: content.redirects.list };
}
