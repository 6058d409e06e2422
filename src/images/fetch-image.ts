import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseRetryAfter, RetryableError, withRetry, type RetryPolicy } from '../cms/retry.js';
import { writeFileAtomic } from '../util/write-atomic.js';

/** The most an image may weigh when downloaded: a photo straight from a camera is 5–15 MB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export interface FetchImageOptions {
  root: string;
  /** `offline`: from the cache only, as the CMS posts are with `build --offline`. */
  offline: boolean;
  timeoutMs: number;
  retry: RetryPolicy;
}

/** Why an image could not be had; the message names what went wrong, the caller names the post. */
export class ImageUnavailable extends Error {}

/**
 * An image from the web, downloaded once into .cache/cms/images/ (beside the posts that name
 * it, so `--offline` builds have it too) with the CMS's retries, time limit and a size limit.
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<Buffer> {
  const cached = path.join(options.root, '.cache', 'cms', 'images', createHash('sha256').update(url).digest('hex'));
  const kept = await readFile(cached).catch(() => undefined);
  if (kept) return kept;
  if (options.offline) throw new ImageUnavailable('it is not in the cache (.cache/cms/images/) and --offline does not download');
  // Loaded here: a build whose images are all local or cached needs no HTTP client.
  const { request } = await import('undici');
  const bytes = await withRetry(async () => {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, { method: 'GET', headers: { 'user-agent': 'storefront-build' }, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const err = error as Error & { code?: string };
      throw new RetryableError(err.name === 'TimeoutError' ? `no complete answer within ${options.timeoutMs} ms` : `${err.code ?? err.name}: ${err.message}`);
    }
    const { statusCode, headers, body } = response;
    if (statusCode === 429 || statusCode === 408 || statusCode >= 500) {
      await body.dump();
      throw new RetryableError(`HTTP ${statusCode}`, parseRetryAfter(String(headers['retry-after'] ?? '') || undefined));
    }
    if (statusCode !== 200) {
      await body.dump();
      throw new ImageUnavailable(`the server answered HTTP ${statusCode}`);
    }
    // A page instead of the image (a login, a bot check) must not be kept as the image for good.
    const type = String(headers['content-type'] ?? '');
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
    return Buffer.concat(chunks);
  }, options.retry).catch((error: unknown) => {
    throw error instanceof ImageUnavailable ? error : new ImageUnavailable((error as Error).message);
  });
  await writeFileAtomic(cached, bytes);
  return bytes;
}
