// The site's page kinds, shared by the browser tests (test/browser/) and scripts/screenshots.mjs.
// Plain JavaScript, so that the script runs with plain Node; its types are in page-kinds.d.mts.

/**
 * The page kinds (one template each). Every route of the built site is of one of them: the test
 * in site-in-chromium.test.ts says so, and checks one page of each kind fully.
 */
export const KINDS = [
  { kind: 'home', is: (r) => r === '/' },
  { kind: 'service', is: (r) => r.startsWith('/buy-') },
  { kind: 'text page', is: (r) => r === '/privacy-policy' || r === '/term-of-service' },
  { kind: 'blog list', is: (r) => r === '/blog' },
  { kind: 'blog post', is: (r) => r.startsWith('/blog/') },
  { kind: 'about and contact', is: (r) => r === '/about' || r === '/contact' },
  { kind: '404', is: (r) => r === '/no-such-page' },
];

/** Routes the sitemap leaves out: the legal pages and a path that answers with the 404 page. */
export const UNLISTED_ROUTES = ['/term-of-service', '/privacy-policy', '/no-such-page'];

/**
 * The pages to look at for the layout (tests and screenshots): one of each kind, and the pages of
 * a kind whose content differs in shape (the watch-hours service, /about beside /contact). The
 * blog post has no fixed route: `route: null`, found with `firstBlogPost`.
 */
export const LAYOUT_PAGES = [
  { name: 'home', route: '/' },
  { name: 'service', route: '/buy-instagram-followers' },
  { name: 'watch-hours service', route: '/buy-youtube-watch-hours' },
  { name: 'about', route: '/about' },
  { name: 'contact', route: '/contact' },
  { name: 'blog', route: '/blog' },
  { name: 'blog post', route: null },
  { name: 'legal', route: '/privacy-policy' },
  { name: '404', route: '/no-such-page' },
];

/** The first post /blog links to, as a route (`/blog/…`): loads /blog in `page`. */
export async function firstBlogPost(page, origin) {
  await page.goto(`${origin}/blog`, { waitUntil: 'load' });
  const route = await page.evaluate(
    () =>
      [...document.querySelectorAll('main a[href^="/blog/"]')]
        .map((a) => a.getAttribute('href'))
        .find((href) => /^\/blog\/[^/]+$/.test(href)) ?? null,
  );
  if (!route) throw new Error('/blog links to no post');
  return route;
}

/** A file-name-safe name for a route: `home`, `about`, `blog_a-post`. */
export function routeFileName(route) {
  return route === '/' ? 'home' : route.slice(1).replace(/\//g, '_');
}
