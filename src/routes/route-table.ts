import type { SiteContent } from '../content/load-content.js';
import type { Markdown } from '../content/markdown.js';
import type { Post } from '../content/post.js';
import type { Page, Redirect, ServicePageContent, TextPageFrontMatter } from '../content/schemas.js';
import { codes } from '../errors/codes.js';
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
  return { kind: 'blog-post', path: postPath(post.slug), source: post.source, indexable: true, lastmod: post.modified, post };
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
      problems.add({
        code: codes.duplicateRoute,
        file: route.source,
        field: route.kind === 'blog-post' ? 'slug' : 'path',
        message: `The path ${route.path} is already the route of ${other.source}.`,
        hint: 'Two pages cannot share an address: change one of the paths (or slugs).',
      });
    } else byPath.set(route.path, route);
  }
  const froms = new Set<string>();
  content.redirects.list.forEach((redirect, i) => {
    if (froms.has(redirect.from)) {
      problems.add({
        code: codes.badRedirect,
        file: content.redirects.file,
        field: `[${i}].from`,
        message: `${redirect.from} is redirected twice.`,
        hint: 'Keep one redirect for each old path.',
      });
    }
    froms.add(redirect.from);
    if (byPath.has(redirect.from)) {
      problems.add({
        code: codes.badRedirect,
        file: content.redirects.file,
        field: `[${i}].from`,
        message: `${redirect.from} is a page of the site; it cannot also redirect.`,
        hint: 'Remove the redirect or the page.',
      });
    }
    if (!byPath.has(redirect.to)) {
      problems.add({
        code: codes.badRedirect,
        file: content.redirects.file,
        field: `[${i}].to`,
        message: `The redirect from ${redirect.from} points to ${redirect.to}, which is not a page.`,
        hint: 'Point it to an existing route.',
      });
    }
  });
  if (!collected) problems.throwIfAny(NOTHING_WRITTEN);
  return { routes, byPath, redirects: content.redirects.list };
}
