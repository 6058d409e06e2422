import { request } from 'undici';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, StorefrontError, type Problem } from '../errors/storefront-error.js';
import { runParallel } from '../util/run-parallel.js';
import { parseRetryAfter, RetryableError, withRetry, type RetryPolicy } from './retry.js';

/** WordPress caps per_page at 100; asking for the most keeps the number of requests low. */
export const PER_PAGE = 100;

/**
 * The most one answer may weigh: a hundred posts with long bodies come to a few megabytes. A
 * larger answer is not a blog, and is refused before it fills the memory.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The most all of a build's answers may weigh together, whatever cmsMaxPosts says: 10,000 long posts
 * are about 200 MB.
 */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface FetchPostsOptions {
  /** REST API root, e.g. https://example.com/wp-json */
  apiUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Pages fetched at once after the first. */
  concurrency: number;
  /** The most posts to take; more is a problem (the setting cmsMaxPosts, 10,000 by default). */
  maxPosts: number;
  /** Bytes read so far by this build's fetches, checked against MAX_TOTAL_BYTES (fetchAllPosts starts one). */
  received?: { bytes: number };
  /** Called as each request is sent, retries included: the build reports how many it made. */
  onRequest?: () => void;
  /** Application password credentials (from the environment only). */
  auth?: { user: string; password: string };
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
  onRetry?: (url: string, reason: string, delayMs: number, attempt: number) => void;
  /**
   * Another WordPress REST collection paged the same way (X-WP-Total, X-WP-TotalPages, at most
   * 100 a page): the address of its page `page`, and what its items are called in messages.
   * The WooCommerce Store API's products are read with it (src/checkout/).
   */
  collection?: {
    pageUrl: (page: number) => string;
    noun: string;
    /** A 404 on the first page means there is no such collection: an empty read marked `absent`, not a failure. */
    absentOn404?: boolean;
  };
}

export interface FetchedPosts {
  /** Raw post objects as WordPress sent them, in page order. */
  items: unknown[];
  pages: number;
  /** The first page answered 404 and the collection was read with `absentOn404`. */
  absent?: boolean;
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
  absent?: boolean;
}

/** A problem of the CMS (SF201), as the error that stops the build; `cause`: the error behind it. */
function fail(found: Problem, cause?: unknown): StorefrontError {
  return new StorefrontError(found, NOTHING_WRITTEN, { cause });
}

/** Where a problem of the CMS is: the address asked, without its credentials. */
const at = (url: string) => ({ url: redactUrl(url) });

async function fetchPage(url: string, options: FetchPostsOptions): Promise<PageResponse> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'storefront-build' };
  if (options.auth) {
    headers.authorization = `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString('base64')}`;
  }
  let statusCode: number;
  let responseHeaders: Record<string, string | string[] | undefined>;
  let text: string;
  options.onRequest?.();
  try {
    const response = await request(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    statusCode = response.statusCode;
    responseHeaders = response.headers;
    text = await readLimited(response.body, url, options.received ?? { bytes: 0 });
  } catch (error) {
    if (error instanceof StorefrontError) throw error;
    const err = error as Error & { code?: string };
    const reason =
      err.name === 'TimeoutError' || err.name === 'AbortError'
        ? `no complete answer within ${options.timeoutMs} ms`
        : `${err.code ?? err.name}: ${err.message}`;
    throw new RetryableError(reason, undefined, { cause: error });
  }
  const header = (name: string) => {
    const value = responseHeaders[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (statusCode === 429 || statusCode === 408 || statusCode >= 500) {
    throw new RetryableError(`HTTP ${statusCode}`, parseRetryAfter(header('retry-after')));
  }
  if (statusCode === 404 && options.collection?.absentOn404 && url === pageUrl(options, 1))
    return { items: [], totalPages: 0, absent: true };
  if (statusCode !== 200) {
    let wordpressError: { code: string; message: string } | undefined;
    let errorCode: string | undefined;
    try {
      const body = JSON.parse(text) as { code?: string; message?: string };
      errorCode = body.code;
      if (body.code) wordpressError = { code: String(body.code), message: String(body.message ?? '') };
    } catch {
      // Not a WordPress error body; the status says enough.
    }
    // A page past the last: WordPress's answer when the posts end exactly at a page's end.
    if (statusCode === 400 && errorCode === 'rest_post_invalid_page_number')
      return { items: [], totalPages: undefined };
    throw fail(problem('cmsHttpError', { status: statusCode, wordpressError }, at(url)));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(problem('cmsAnswerNotJson', { start: text.slice(0, 40) }, at(url)));
  }
  if (!Array.isArray(body)) {
    throw fail(problem('cmsAnswerNotList', {}, at(url)));
  }
  if (body.length > PER_PAGE) {
    throw fail(problem('cmsPageTooLong', { count: body.length, asked: PER_PAGE }, at(url)));
  }
  const total = Number(header('x-wp-totalpages'));
  return { items: body, totalPages: Number.isInteger(total) && total >= 0 ? total : undefined };
}

/** The body as text, refused past MAX_RESPONSE_BYTES (not retried: the same answer would come again). */
async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  url: string,
  received: { bytes: number },
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    received.bytes += chunk.length;
    if (size > MAX_RESPONSE_BYTES || received.bytes > MAX_TOTAL_BYTES) {
      body.destroy();
      throw fail(
        size > MAX_RESPONSE_BYTES
          ? problem('cmsAnswerTooLarge', { mostBytes: MAX_RESPONSE_BYTES, perPage: PER_PAGE }, at(url))
          : problem('cmsAnswersTooLarge', { mostBytes: MAX_TOTAL_BYTES }, at(url)),
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The address of one page of the collection read. */
function pageUrl(options: FetchPostsOptions, page: number): string {
  return options.collection ? options.collection.pageUrl(page) : postsPageUrl(options.apiUrl, page);
}

async function fetchPageWithRetry(page: number, options: FetchPostsOptions): Promise<PageResponse> {
  const url = pageUrl(options, page);
  try {
    return await withRetry(
      () => fetchPage(url, options),
      options.retry,
      (error, delay, attempt) => options.onRetry?.(redactUrl(url), error.message, delay, attempt),
    );
  } catch (error) {
    if (error instanceof RetryableError) {
      const what = options.collection?.noun ?? 'posts';
      const attempts = options.retry.retries + 1;
      throw fail(problem('cmsUnreachable', { what, attempts, reason: error.message }, at(url)), error);
    }
    throw error;
  }
}

/**
 * Fetches every published post: page 1 first, whose X-WP-TotalPages says how many pages there
 * are, then the rest a few at a time. When that header is missing, or announces more pages than
 * `maxPosts` allows (a site that hides it, a proxy, a hostile server), the pages are fetched one
 * by one until the first short or empty one, as WordPress's paging documents, and never more
 * than `maxPosts` allows.
 */
export async function fetchAllPosts(fetchOptions: FetchPostsOptions): Promise<FetchedPosts> {
  const options = { ...fetchOptions, received: fetchOptions.received ?? { bytes: 0 } };
  const fetched = await fetchPages(options);
  if (fetched.items.length > options.maxPosts) throw tooManyPosts(pageUrl(options, fetched.pages), options.maxPosts);
  return fetched;
}

async function fetchPages(options: FetchPostsOptions): Promise<FetchedPosts> {
  const maxPages = Math.max(1, Math.ceil(options.maxPosts / PER_PAGE));
  const first = await fetchPageWithRetry(1, options);
  if (first.absent) return { items: [], pages: 0, absent: true };
  const pages: unknown[][] = [first.items];
  if (first.totalPages === undefined || first.totalPages > maxPages) {
    let page = 1;
    while (pages[pages.length - 1]!.length === PER_PAGE) {
      if (page === maxPages) throw tooManyPosts(pageUrl(options, page + 1), options.maxPosts);
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

function tooManyPosts(url: string, maxPosts: number): StorefrontError {
  return fail(problem('cmsTooManyPosts', { most: maxPosts }, at(url)));
}
