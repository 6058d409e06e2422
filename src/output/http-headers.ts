import type { Config } from '../config/load-config.js';
import { VIDEO_HOSTS } from '../cms/video-hosts.js';

/**
 * The HTTP headers of the site, host-neutral. The writers for Netlify / Cloudflare Pages
 * (`_headers`) and nginx turn these into their own syntax, so every host sends the same.
 */

/** Hashed files never change under their name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages and unhashed files: cached, but revalidated on every visit. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/**
 * Security headers of every response. Scripts only from the site itself: no inline script.
 * Images only from the site itself: the image stage downloads the CMS's and the image hosts'. HSTS for an https site,
 * without includeSubDomains (other hosts of the domain may not serve https), as Netlify and
 * Cloudflare Pages send it.
 */
export function securityHeaders(config: Config): Record<string, string> {
  // Settings are parsed URLs already (see load-config.ts).
  const newsletter = config.newsletterUrl ? new URL(config.newsletterUrl).origin : '';
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `form-action 'self'${newsletter ? ` ${newsletter}` : ''}`,
    `frame-src ${VIDEO_HOSTS.map((h) => `https://${h}`).join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    ...(config.siteUrl.startsWith('https:') ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
}
