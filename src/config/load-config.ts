import { existsSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { problem } from '../errors/catalogue.js';
import { ProblemList, StorefrontError } from '../errors/storefront-error.js';
import { readYamlFile } from '../util/source-file.js';
import { formatField } from '../util/field-path.js';
import { plainText } from '../util/plain-text.js';
import { CF_PAGES_PAID_FILES, TARGETS, type Target } from '../hosts/hosts.js';
import { CONFIG_FILE } from '../util/content-files.js';

/** The settings of a build: defaults, then content/config.yaml, then environment variables. */
export interface Config {
  brandName: string;
  /** Origin for canonical URLs, sitemap and Open Graph; no trailing slash. */
  siteUrl: string;
  /** The folder of the origin the site is served from: '' at the root, or '/shop' (a GitHub Pages project site). */
  basePath: string;
  /** Origin of the external checkout site; no trailing slash. */
  checkoutUrl: string;
  /** `storefront check` verifies the checkout too, as with --checkout (for CI). */
  checkoutVerify: boolean;
  supportEmail: string;
  /** Empty hides the messaging channel (with a warning). */
  messagingNumber: string;
  /** Where the footer's sign-up form posts (a provider's plain-HTML form endpoint); empty renders no form. */
  newsletterUrl: string;
  /** The name the provider gives the e-mail field of its form: `email` (Buttondown), `EMAIL` (Mailchimp). */
  newsletterEmailField: string;
  /** WordPress REST API root; empty means the local Markdown blog. */
  cmsApiUrl: string;
  /** Origins besides the site and the CMS that images may come from (the Content-Security-Policy allows only these). */
  imageHosts: string[];
  /** The most posts a build takes from WordPress: more fails the build (a runaway or hostile API). */
  cmsMaxPosts: number;
  /** The host the build is for; '' detects it from the environment (see deploy-target.ts). */
  target: Target | '';
  /**
   * The most files Cloudflare Pages takes in a site: unset is the free plan's 20,000; a paid plan
   * takes 100,000 (src/hosts/cloudflare.ts). At most 100,000: more would fail at Cloudflare.
   */
  cfPagesMaxFiles?: number;
}

/** Which environment variable overrides which setting. */
export const envNames: Record<keyof Config, string> = {
  brandName: 'BRAND_NAME',
  siteUrl: 'SITE_URL',
  basePath: 'BASE_PATH',
  checkoutUrl: 'CHECKOUT_URL',
  checkoutVerify: 'CHECKOUT_VERIFY',
  supportEmail: 'SUPPORT_EMAIL',
  messagingNumber: 'MESSAGING_NUMBER',
  newsletterUrl: 'NEWSLETTER_URL',
  newsletterEmailField: 'NEWSLETTER_EMAIL_FIELD',
  cmsApiUrl: 'CMS_API_URL',
  imageHosts: 'IMAGE_HOSTS',
  cmsMaxPosts: 'CMS_MAX_POSTS',
  target: 'DEPLOY_TARGET',
  cfPagesMaxFiles: 'CF_PAGES_MAX_FILES',
};

/** Neutral placeholders, used when content/config.yaml leaves a setting out. */
export const defaults: Config = {
  brandName: 'Storefront',
  siteUrl: 'https://www.example.com',
  basePath: '',
  checkoutUrl: 'https://checkout.example.com',
  checkoutVerify: false,
  supportEmail: 'support@example.com',
  messagingNumber: '',
  newsletterUrl: '',
  newsletterEmailField: 'email',
  cmsApiUrl: '',
  imageHosts: [],
  cmsMaxPosts: 10_000,
  target: '',
};

/**
 * Why a setting is not an http(s) URL that can be written into pages and headers as it is, or
 * undefined. Parsed with the WHATWG URL parser, not matched by a pattern; the parser would drop
 * a newline or tab silently, so any white space or control character is refused first.
 */
function urlProblem(value: string, allowPath: boolean, allowQuery = false): string | undefined {
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'must not contain spaces, line breaks or control characters';
  if (!URL.canParse(value)) return 'must be an absolute URL such as https://www.example.com';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with http:// or https://';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.hash || value.includes('#')) return 'must not have a fragment (#)';
  if (!allowQuery && (url.search || value.includes('?'))) return 'must not have a query (?)';
  if (!allowPath && url.pathname !== '/')
    return (
      'must be an origin only, such as https://www.example.com ' +
      '(a site served from a folder names it in basePath, BASE_PATH)'
    );
  return undefined;
}

/**
 * An http(s) URL as the URL parser writes it (scheme and host in lower case, no default port),
 * without its trailing slash; an origin when it may not have a path; or '' for an optional one.
 */
const httpUrl = (allowPath: boolean, optional = false, allowQuery = false) =>
  z
    .string()
    .superRefine((value, ctx) => {
      const reason = optional && value === '' ? undefined : urlProblem(value, allowPath, allowQuery);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    })
    .transform((value) => {
      if (value === '') return value;
      const url = new URL(value);
      if (allowQuery) return url.href;
      return allowPath ? `${url.origin}${url.pathname}`.replace(/\/+$/, '') : url.origin;
    });
const origin = httpUrl(false);

/** A list of origins: a YAML list, or one string with the origins separated by spaces or commas (IMAGE_HOSTS). */
const origins = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : value.split(/[\s,]+/)).filter((item) => item !== ''))
  .pipe(z.array(origin));

/** `/shop/`, `shop` or `/shop` → `/shop`; `/` or nothing → ''. Plain path segments only. */
const basePath = z
  .string()
  .trim()
  .transform((value) => value.replace(/^\/+|\/+$/g, ''))
  // No part may start with . or _: hosts (and preview) keep such paths hidden.
  .refine(
    (value) => /^([A-Za-z0-9~-][A-Za-z0-9._~-]*)?(\/[A-Za-z0-9~-][A-Za-z0-9._~-]*)*$/.test(value),
    'must be a path such as /shop/: letters, digits, - _ . ~ between slashes, no part starting with . or _',
  )
  .transform((value) => (value ? `/${value}` : ''));

export const configSchema = z.strictObject({
  // The trading name on every page: no invisible or text-direction character (plain-text.ts).
  brandName: z.string().superRefine(plainText('identity')).trim().min(1, 'must not be empty'),
  siteUrl: origin,
  basePath,
  checkoutUrl: origin,
  // true or false in the YAML; true, false, 1 or 0 in the environment.
  checkoutVerify: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true' || value === '1'),
  supportEmail: z.string().email('must be an e-mail address'),
  messagingNumber: z.string().trim(),
  // A form action: Mailchimp's names the list in its query (?u=…&id=…).
  newsletterUrl: httpUrl(true, true, true),
  newsletterEmailField: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'must be a form field name: letters, digits, _ and -'),
  cmsApiUrl: httpUrl(true, true),
  imageHosts: origins,
  cmsMaxPosts: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be at most 1,000,000'),
  target: z.enum([...TARGETS, ''], { error: `must be one of ${TARGETS.join(', ')}` }),
  cfPagesMaxFiles: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(
      CF_PAGES_PAID_FILES,
      `must be at most ${CF_PAGES_PAID_FILES.toLocaleString('en-GB')} (Cloudflare's paid plans)`,
    )
    .optional(),
});

/** Where the site's pages start: the origin and the base path, `https://example.github.io/shop`. */
export function siteRoot(config: Config): string {
  return config.siteUrl + config.basePath;
}

/**
 * Where the site's pages may load images from: the site itself, the CMS and the configured image
 * hosts. The Content-Security-Policy says the same (output/http-headers.ts); an image from
 * anywhere else would not show, so the content and CMS stages refuse or leave it out.
 */
export function imageOrigins(config: Config): string[] {
  return [
    ...new Set([config.siteUrl, ...(config.cmsApiUrl ? [new URL(config.cmsApiUrl).origin] : []), ...config.imageHosts]),
  ];
}

/** Whether an absolute image URL comes from one of `origins`. */
export function isAllowedImage(src: string, origins: readonly string[]): boolean {
  return URL.canParse(src) && origins.includes(new URL(src).origin);
}

export async function loadConfig(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<Config> = {},
): Promise<Config> {
  const problems = new ProblemList();
  const absolute = path.join(root, CONFIG_FILE);
  let fromFile: Record<string, unknown> = {};
  let lineOf: ((at: PropertyKey[]) => number | undefined) | undefined;
  if (existsSync(absolute)) {
    const source = await readYamlFile(root, absolute, problems);
    problems.throwIfAny();
    fromFile = (source?.data as Record<string, unknown> | null) ?? {};
    lineOf = source?.lineOf;
  }
  const merged: Record<string, unknown> = { ...defaults, ...fromFile };
  const fromEnv = new Set<string>();
  // Optional settings can be switched off from the environment with an empty value
  // (MESSAGING_NUMBER= hides the channel); required ones ignore an empty variable.
  const optional = new Set(['messagingNumber', 'newsletterUrl', 'cmsApiUrl', 'basePath']);
  for (const [key, name] of Object.entries(envNames)) {
    const value = env[name];
    if (value !== undefined && (value !== '' || optional.has(key))) {
      merged[key] = value;
      fromEnv.add(key);
    }
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) merged[key] = value;
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      const viaEnv = fromEnv.has(key) && key in envNames;
      const place = {
        file: viaEnv ? `environment variable ${envNames[key as keyof Config]}` : CONFIG_FILE,
        field: formatField(issue.path as PropertyKey[]),
        line: viaEnv ? undefined : lineOf?.(issue.path as PropertyKey[]),
      };
      problems.add(
        key in envNames
          ? problem(
              'badSetting',
              { setting: key, reason: issue.message, variable: envNames[key as keyof Config] },
              place,
            )
          : problem(
              'unknownSetting',
              { setting: key || '(file)', reason: issue.message, known: Object.keys(envNames) },
              place,
            ),
      );
    }
  }
  problems.throwIfAny();
  if (!parsed.success) throw new StorefrontError(problem('settingsRefused', {}));
  return parsed.data;
}
