import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs, retryDelayMs } from '../../src/net/retry-timing.js';

describe('retry timing', () => {
  it('doubles the backoff after each failure and adds at most 10% jitter', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(500, n, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelayMs(500, 2, () => 0.999)).toBeCloseTo(1099.9);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs('7', now)).toBe(7000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it('waits for a longer Retry-After, capped, and never less than the backoff', () => {
    expect(retryDelayMs(500, 2000, 30_000)).toBe(2000);
    expect(retryDelayMs(500, 100, 30_000)).toBe(500);
    expect(retryDelayMs(500, 600_000, 30_000)).toBe(30_000);
    expect(retryDelayMs(500, undefined, 30_000)).toBe(500);
  });

  it('retries 429 and 5xx only', () => {
    expect([429, 500, 502, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 301, 400, 401, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });
});
