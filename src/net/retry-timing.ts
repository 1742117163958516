// When to retry and how long to wait: exponential backoff with additive jitter, and Retry-After when longer.

/** HTTP statuses worth another attempt: rate limiting and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Backoff before the attempt following `failedAttempts` failures: base × 2^(n-1), plus up to 10% jitter so that many
 * runs failing together do not retry in lockstep. Jitter only adds, so the documented backoff is a lower bound.
 */
export function backoffDelayMs(baseMs: number, failedAttempts: number, random: () => number = Math.random): number {
  const delay = baseMs * 2 ** (failedAttempts - 1);
  return delay + delay * 0.1 * random();
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before the next attempt: the backoff, or a longer Retry-After capped at `maxRetryAfterMs`. */
export function retryDelayMs(backoffMs: number, retryAfterMs: number | undefined, maxRetryAfterMs: number): number {
  if (retryAfterMs === undefined) return backoffMs;
  return Math.max(backoffMs, Math.min(retryAfterMs, maxRetryAfterMs));
}
