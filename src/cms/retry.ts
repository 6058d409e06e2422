/** Retries with exponential backoff and full jitter, honouring a server's Retry-After. */

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included. */
  maxDelayMs: number;
}

/** A failure that may be retried; `retryAfterMs` is what the server asked for, if anything. */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Retry-After is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

export async function withRetry<T>(
  work: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (error: RetryableError, delayMs: number, attempt: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!(error instanceof RetryableError) || attempt >= policy.retries) throw error;
      const delay = Math.min(policy.maxDelayMs, error.retryAfterMs ?? backoffDelay(attempt, policy));
      onRetry?.(error, delay, attempt + 1);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The CMS's requests, posts and images alike: time limit, retries and parallel requests. */
export const defaultCmsOptions = {
  timeoutMs: 15_000,
  retry: { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 } satisfies RetryPolicy,
  concurrency: 4,
};
