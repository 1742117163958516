// The retry loop around single attempts. Every outbound request of the service goes through here, so policy refusals,
// time-outs, retries and cancellation behave the same for the API block, webhook deliveries and LLM calls.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { runAttempt, type AttemptOutcome } from './attempt.js';
import { getGuardedDispatcher } from './guarded-dispatcher.js';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs, retryDelayMs } from './retry-timing.js';
import type { OutboundRequest, OutboundResponse } from './types.js';
import { assertUrlAllowed } from './url-policy.js';

const DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  maxResponseBytes: 10 * 1024 * 1024,
  retryBaseMs: 500,
  maxRetryAfterMs: 30_000,
};

/** What the sender needs from the network policy; replaceable in tests, which can only run loopback upstreams. */
export interface NetworkPolicy {
  dispatcher(allowPrivateNetwork: boolean): Dispatcher;
  checkUrl(url: string, allowPrivateNetwork: boolean): URL;
}

const defaultPolicy: NetworkPolicy = {
  dispatcher: (allowPrivateNetwork) => getGuardedDispatcher({ allowPrivateNetwork }),
  checkUrl: (url, allowPrivateNetwork) => assertUrlAllowed(url, { allowPrivateNetwork }),
};

function nonNegativeInteger(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function shouldRetry(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'failure') return outcome.retryable;
  return outcome.error === undefined && isRetryableStatus(outcome.status);
}

/** Waits for `ms`, resolving false early if `signal` aborts. */
async function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export function createHttpSender(policy: NetworkPolicy): (req: OutboundRequest) => Promise<OutboundResponse> {
  return async function send(req) {
    const startedAt = performance.now();
    const retries = nonNegativeInteger(req.retries, DEFAULTS.retries);
    const timeoutMs = nonNegativeInteger(req.timeoutMs, DEFAULTS.timeoutMs) || DEFAULTS.timeoutMs;
    const retryBaseMs = nonNegativeInteger(req.retryBaseMs, DEFAULTS.retryBaseMs);
    const maxRetryAfterMs = nonNegativeInteger(req.maxRetryAfterMs, DEFAULTS.maxRetryAfterMs);
    let attempts = 0;

    const failed = (error: string): OutboundResponse => ({
      status: 0,
      statusText: '',
      headers: {},
      body: Buffer.alloc(0),
      attempts,
      durationMs: performance.now() - startedAt,
      error,
    });

    if (req.signal?.aborted) return failed('aborted');
    let url: URL;
    try {
      url = policy.checkUrl(req.url, req.allowPrivateNetwork);
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }

    const settings = {
      method: req.method.toUpperCase(),
      headers: req.headers ?? {},
      body: req.body,
      timeoutMs,
      followRedirects: req.followRedirects ?? true,
      maxResponseBytes: nonNegativeInteger(req.maxResponseBytes, DEFAULTS.maxResponseBytes),
      signal: req.signal,
      dispatcher: policy.dispatcher(req.allowPrivateNetwork),
      checkUrl: (next: string) => policy.checkUrl(next, req.allowPrivateNetwork),
    };

    for (;;) {
      attempts++;
      const outcome = await runAttempt(url, settings);
      const retryAfterMs = outcome.kind === 'response' ? parseRetryAfterMs(outcome.headers['retry-after']) : undefined;
      if (!shouldRetry(outcome) || attempts > retries) {
        if (outcome.kind === 'failure') return failed(outcome.error);
        const response: OutboundResponse = {
          status: outcome.status,
          statusText: outcome.statusText,
          headers: outcome.headers,
          body: outcome.body,
          attempts,
          durationMs: performance.now() - startedAt,
        };
        if (outcome.error !== undefined) response.error = outcome.error;
        if (retryAfterMs !== undefined) response.retryAfterMs = retryAfterMs;
        return response;
      }
      const delay = retryDelayMs(backoffDelayMs(retryBaseMs, attempts), retryAfterMs, maxRetryAfterMs);
      if (!(await waitUnlessAborted(delay, req.signal))) return failed('aborted');
    }
  };
}

const sendWithDefaultPolicy = createHttpSender(defaultPolicy);

export async function sendHttpRequest(req: OutboundRequest): Promise<OutboundResponse> {
  return sendWithDefaultPolicy(req);
}
