import { cloudflare } from './cloudflare.js';
import { githubPages } from './github-pages.js';
import type { Host } from './host.js';
import { netlify } from './netlify.js';
import { nginx } from './nginx.js';
import { staticHost } from './static.js';

/**
 * Every host a build can be for, the one place that imports their modules: a new host is its
 * module here, its test and its page (docs/developing.md, "Find where things live"). The order is
 * that of `--target`'s choices and of detection (NETLIFY before CF_PAGES).
 */
export const HOSTS = [netlify, cloudflare, githubPages, nginx, staticHost] as const;

export type Target = (typeof HOSTS)[number]['name'];
export const TARGETS: readonly Target[] = HOSTS.map((host) => host.name);

/** The target a build is for when nothing chooses one and no build service is detected. */
export const DEFAULT_TARGET: Target = staticHost.name;
/** What `dev` builds for: the redirects and headers of `_redirects` and `_headers` at the root, as Cloudflare Pages. */
export const DEV_TARGET: Target = cloudflare.name;
/** The files a paid plan of Cloudflare Pages takes: the most cfPagesMaxFiles may say. */
export { CF_PAGES_PAID_FILES } from './cloudflare.js';

export function hostNamed(target: Target): Host<Target> {
  return HOSTS.find((host) => host.name === target)!;
}
