import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseRetryAfter, RetryableError, withRetry, type RetryPolicy } from '../cms/retry.js';
import { writeFileAtomic } from '../util/write-atomic.js';
import { downloadsDir, markUsed } from './image-cache.js';
import { readCacheFile } from '../util/inside-project.js';

/** The most an image may weigh when downloaded: a photo straight from a camera is 5–15 MB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export interface FetchImageOptions {
  root: string;
  /** `offline`: from the cache only, as the CMS posts are with `build --offline`. */
  offline: boolean;
  /**
   * Use a kept copy without asking whether it changed: the CMS could not be reached and the
   * posts come from the cache (`--stale-ok`). An image never downloaded is still downloaded.
   */
  keptWithoutAsking?: boolean;
  timeoutMs: number;
  retry: RetryPolicy;
  /** A warning for the build's output (an image kept from an earlier download). */
  warn?: (line: string) => void;
}

/**
 * Why an image could not be had; the message names what went wrong, the caller names the post.
 * `gone`: the server answered that it has no such image (HTTP 404 or 410), so a copy downloaded
 * earlier is not used. Any other refusal (a 403 from a firewall that blocks the build's address,
 * say) may pass, and the copy stands in meanwhile.
 */
export class ImageUnavailable extends Error {
  constructor(
    message: string,
    readonly gone = false,
  ) {
    super(message);
  }
}

/**
 * What the server said of a download, to ask it next time whether the image changed, with the
 * hash of the bytes it said it of: two builds writing at once could pair one download's bytes
 * with another's ETag, which would then be answered 304 for good.
 */
interface Validators {
  etag?: string;
  lastModified?: string;
  sha256?: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Where the download of `url` is kept, and what the server said of it (`<file>.json`). */
function downloadFile(root: string, url: string): string {
  return path.join(downloadsDir(root), sha256(Buffer.from(url)));
}

/**
 * An image from the web, kept in .cache/cms/images/ (beside the posts that name it, so
 * `--offline` builds have it too), with the CMS's retries, time limit and a size limit. A kept
 * copy is revalidated at each build, as browsers and CDNs do, with the server's ETag and
 * Last-Modified: 304 costs no download, and an image replaced at the same address is seen.
 * When the server cannot be reached, or refuses, the kept copy is used with a warning; when it
 * answers that the image is gone, the image is gone.
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<Buffer> {
  const file = downloadFile(options.root, url);
  // Not through a link out of the project (see readCacheFile).
  const kept = await readCacheFile(file, options.root, MAX_IMAGE_BYTES);
  const keep = async () => {
    await markUsed(file, `${file}.json`);
    return kept!;
  };
  if (kept && (options.offline || options.keptWithoutAsking)) return keep();
  if (options.offline)
    throw new ImageUnavailable('it is not in the cache (.cache/cms/images/) and --offline does not download');
  const said: Validators = kept
    ? await readCacheFile(`${file}.json`, options.root, 64 * 1024)
        .then((bytes) => (bytes ? (JSON.parse(bytes.toString('utf8')) as Validators) : {}))
        .catch(() => ({}))
    : {};
  const validators = kept && said.sha256 === sha256(kept) ? said : {};
  try {
    const fresh = await download(url, validators, options);
    if (fresh === 'unchanged') return await keep();
    await writeFileAtomic(file, fresh.bytes);
    await writeFileAtomic(`${file}.json`, JSON.stringify({ ...fresh.validators, sha256: sha256(fresh.bytes) }));
    return fresh.bytes;
  } catch (error) {
    if (!kept || (error instanceof ImageUnavailable && error.gone)) throw error;
    options.warn?.(
      `WARNING: the image ${url} could not be checked for changes (${(error as Error).message}); ` +
        'the copy downloaded earlier is used.',
    );
    return keep();
  }
}

/** One download (with retries), or 'unchanged' when the server answers 304 to the validators. */
async function download(
  url: string,
  validators: Validators,
  options: FetchImageOptions,
): Promise<{ bytes: Buffer; validators: Validators } | 'unchanged'> {
  // Loaded here: a build whose images are all local needs no HTTP client.
  const { request } = await import('undici');
  const headers: Record<string, string> = { 'user-agent': 'storefront-build' };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  return withRetry(async () => {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, { method: 'GET', headers, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const err = error as Error & { code?: string };
      throw new RetryableError(
        err.name === 'TimeoutError'
          ? `no complete answer within ${options.timeoutMs} ms`
          : `${err.code ?? err.name}: ${err.message}`,
      );
    }
    const { statusCode, headers: answer, body } = response;
    if (statusCode === 304 && (validators.etag || validators.lastModified)) {
      await body.dump();
      return 'unchanged' as const;
    }
    if (statusCode === 429 || statusCode === 408 || statusCode >= 500) {
      await body.dump();
      throw new RetryableError(`HTTP ${statusCode}`, parseRetryAfter(String(answer['retry-after'] ?? '') || undefined));
    }
    if (statusCode !== 200) {
      await body.dump();
      throw new ImageUnavailable(`the server answered HTTP ${statusCode}`, statusCode === 404 || statusCode === 410);
    }
    // A page instead of the image (a login, a bot check) must not be kept as the image.
    const type = String(answer['content-type'] ?? '');
    if (!type.startsWith('image/')) {
      await body.dump();
      throw new ImageUnavailable(`the server answered with ${type || 'no Content-Type'}, not an image`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_IMAGE_BYTES) {
        body.destroy();
        throw new ImageUnavailable(`it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
      }
      chunks.push(chunk);
    }
    const etag = answer.etag === undefined ? undefined : String(answer.etag);
    const lastModified = answer['last-modified'] === undefined ? undefined : String(answer['last-modified']);
    return {
      bytes: Buffer.concat(chunks),
      validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) },
    };
  }, options.retry).catch((error: unknown) => {
    throw error instanceof ImageUnavailable ? error : new ImageUnavailable((error as Error).message);
  });
}
