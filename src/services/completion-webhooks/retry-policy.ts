// What a delivery attempt's result means (docs/guarantees.md 3.4): any 2xx succeeds; 5xx, 429, a time-out and a
// failed connection are retried on the schedule; everything else (3xx included — redirects are not followed,
// 4xx, a refused target) fails for good.
import type { OutboundResponse } from '../../net/index.js';
import { MAX_RETRY_AFTER_MS, RETRY_JITTER } from './constants.js';

export type AttemptVerdict = { kind: 'success' } | { kind: 'retry'; delayMs: number } | { kind: 'fail' };

export interface RetryPolicy {
  maxAttempts: number;
  /** Wait after failed attempt n is scheduleMs[n-1]; the last entry repeats if attempts outnumber it. */
  scheduleMs: number[];
  random?: () => number;
}

/** The scheduled wait after failed attempt `attempt` (1-based), with its jitter. */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  const schedule = policy.scheduleMs;
  const base = schedule[Math.min(attempt, schedule.length) - 1] ?? 0;
  return Math.round(base * (1 + RETRY_JITTER * (policy.random ?? Math.random)()));
}

/**
 * Whether a status-0 result (no HTTP answer) is worth another try. sendHttpRequest reports those as text; the two
 * transient kinds are the ones its single attempt marks retryable (net/attempt.ts). Policy refusals ("Refused to
 * connect", "Invalid URL") and malformed requests would fail the same way every time.
 */
export function isTransientFailure(error: string | undefined): boolean {
  return error !== undefined && (error.startsWith('Connection failed') || error.startsWith('Request timed out'));
}

function isRetryable(response: OutboundResponse): boolean {
  if (response.status === 0) return isTransientFailure(response.error);
  return response.status === 429 || (response.status >= 500 && response.status <= 599);
}

export function judgeAttempt(response: OutboundResponse, attempt: number, policy: RetryPolicy): AttemptVerdict {
  if (response.status >= 200 && response.status <= 299) return { kind: 'success' };
  if (!isRetryable(response) || attempt >= policy.maxAttempts) return { kind: 'fail' };
  const scheduled = retryDelayMs(attempt, policy);
  // A receiver asking for a longer pause (429, or a 503 with Retry-After) gets it, up to the cap; a shorter
  // Retry-After never speeds the schedule up.
  const asked = response.retryAfterMs !== undefined ? Math.min(response.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
  return { kind: 'retry', delayMs: Math.max(scheduled, asked) };
}
