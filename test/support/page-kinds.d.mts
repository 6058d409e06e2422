import type { Page } from 'playwright-core';

/** The page kinds (one template each); see page-kinds.mjs. */
export declare const KINDS: readonly { kind: string; is: (routePath: string) => boolean }[];
/** Routes the sitemap leaves out: the legal pages and a path that answers with the 404 page. */
export declare const UNLISTED_ROUTES: readonly string[];
/** The pages to look at for the layout; `route: null` is the first blog post (`firstBlogPost`). */
export declare const LAYOUT_PAGES: readonly { name: string; route: string | null }[];
/** The first post /blog links to, as a route (`/blog/…`): loads /blog in `page`. */
export declare function firstBlogPost(page: Page, origin: string): Promise<string>;
/** A file-name-safe name for a route: `home`, `about`, `blog_a-post`. */
export declare function routeFileName(route: string): string;
