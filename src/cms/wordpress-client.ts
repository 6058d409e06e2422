import { request } from 'undici';
import { codes } from '../errors/codes.js';
import { NOTHING_WRITTEN, StorefrontError } from '../errors/storefront-error.js';
import { runParallel } from '../util/run-parallel.js';
import { parseRetryAfter, RetryableError, withRetry, type RetryPolicy } from './retry.js';

/** WordPress caps per_page at 100; asking for the most keeps the number of requests low. */
export const PER_PAGE = 100;

export interface FetchPostsOptions {
  /** REST API root, e.g. https://example.com/wp-json */
  apiUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Pages fetched at once after the first. */
  concurrency: number;
  /** Application password credentials (from the environment only). */
  auth?: { user: string; password: string };
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
  onRetry?: (url: string, reason: string, delayMs: number, attempt: number) => void;
}

export interface FetchedPosts {
  /** Raw post objects as WordPress sent them, in page order. */
  items: unknown[];
  pages: number;
}

/** The URL with any user:password removed, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

export function postsPageUrl(apiUrl: string, page: number): string {
  return `${apiUrl.replace(/\/+$/, '')}/wp/v2/posts?per_page=${PER_PAGE}&page=${page}&_embed`;
}

interface PageResponse {
  items: unknown[];
  totalPages: number | undefined;
}

function fail(url: string, message: string, hint: string): StorefrontError {
  return new StorefrontError(
    { code: codes.cmsFetchFailed, url: redactUrl(url), message, hint },
    NOTHING_WRITTEN,
  );
}

const NETWORK_HINT =
  'Check CMS_API_URL and that the WordPress site is reachable. `build --stale-ok` falls back to the last cached copy; `build --offline` builds from the cache alone.';

async function fetchPage(url: string, options: FetchPostsOptions): Promise<PageResponse> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'storefront-build' };
  if (options.auth) {
    headers.authorization = `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString('base64')}`;
  }
  let statusCode: number;
  let responseHeaders: Record<string, string | string[] | undefined>;
  let text: string;
  try {
    const response = await request(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    statusCode = response.statusCode;
    responseHeaders = response.headers;
    text = await response.body.text();
  } catch (error) {
    const err = error as Error & { code?: string };
    const reason =
      err.name === 'TimeoutError' || err.name === 'AbortError'
        ? `no complete answer within ${options.timeoutMs} ms`
        : `${err.code ?? err.name}: ${err.message}`;
    throw new RetryableError(reason);
  }
  const header = (name: string) => {
    const value = responseHeaders[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (statusCode === 429 || statusCode === 408 || statusCode >= 500) {
    throw new RetryableError(`HTTP ${statusCode}`, parseRetryAfter(header('retry-after')));
  }
  if (statusCode !== 200) {
    let detail = '';
    try {
      const body = JSON.parse(text) as { code?: string; message?: string };
      if (body.code) detail = ` (${body.code}: ${body.message ?? ''})`;
    } catch {
      // Not a WordPress error body; the status says enough.
    }
    throw fail(
      url,
      `WordPress answered HTTP ${statusCode}${detail}.`,
      statusCode === 401 || statusCode === 403
        ? 'Check the CMS credentials in the environment (CMS_USER, CMS_APP_PASSWORD).'
        : 'Check that CMS_API_URL is the REST API root, e.g. https://example.com/wp-json.',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(
      url,
      `The answer is not JSON (it starts with ${JSON.stringify(text.slice(0, 40))}).`,
      'CMS_API_URL must be the REST API root (…/wp-json); a login page, a maintenance page or a proxy error is not.',
    );
  }
  if (!Array.isArray(body)) {
    throw fail(url, 'The answer is JSON but not a list of posts.', 'Check that CMS_API_URL is the REST API root, e.g. https://example.com/wp-json.');
  }
  const total = Number(header('x-wp-totalpages'));
  return { items: body, totalPages: Number.isInteger(total) && total >= 0 ? total : undefined };
}

async function fetchPageWithRetry(page: number, options: FetchPostsOptions): Promise<PageResponse> {
  const url = postsPageUrl(options.apiUrl, page);
  try {
    return await withRetry(() => fetchPage(url, options), options.retry, (error, delay, attempt) =>
      options.onRetry?.(redactUrl(url), error.message, delay, attempt),
    );
  } catch (error) {
    if (error instanceof RetryableError) {
      throw fail(url, `The posts could not be fetched after ${options.retry.retries + 1} attempts: ${error.message}.`, NETWORK_HINT);
    }
    throw error;
  }
}

/**
 * Fetches every published post: page 1 first, which says how many pages there are
 * (X-WP-TotalPages), then the rest a few at a time.
 */
export async function fetchAllPosts(options: FetchPostsOptions): Promise<FetchedPosts> {
  const first = await fetchPageWithRetry(1, options);
  const pages: unknown[][] = [first.items];
  if (first.totalPages === undefined) {
    // A site that hides the paging headers: walk on until a short page.
    let page = 1;
    while (pages[pages.length - 1]!.length === PER_PAGE) {
      page += 1;
      pages.push((await fetchPageWithRetry(page, options)).items);
      options.onProgress?.(page, page);
    }
    options.onProgress?.(page, page);
    return { items: pages.flat(), pages: page };
  }
  const total = Math.max(1, first.totalPages);
  let done = 1;
  options.onProgress?.(done, total);
  const rest = Array.from({ length: total - 1 }, (_, i) => i + 2);
  const restPages = await runParallel(rest, options.concurrency, async (page) => {
    const response = await fetchPageWithRetry(page, options);
    options.onProgress?.(++done, total);
    return response.items;
  });
  return { items: [...first.items, ...restPages.flat()], pages: total };
}
