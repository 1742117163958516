// One attempt of an outbound request: follow redirects (each hop re-checked against the policy), read the body under
// the size cap, and report either a response or a classified failure. The retry loop decides what to do with it.
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { whenAborted } from '../abort-listeners.js';
import { formatByteLimit } from '../byte-limit.js';
import { findPolicyError } from './policy-error.js';
import { exchange, ExchangeStop } from './exchange.js';

export const MAX_REDIRECTS = 5;

export interface AttemptSettings {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  timeoutMs: number;
  followRedirects: boolean;
  maxResponseBytes: number;
  signal: AbortSignal | undefined;
  dispatcher: Dispatcher;
  /** Throws a NetworkPolicyError for a URL the policy refuses; applied to every redirect target. */
  checkUrl(url: string): URL;
}

export interface AttemptResponse {
  kind: 'response';
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Set when the body was cut off at the size cap. */
  error?: string;
}

export interface AttemptFailure {
  kind: 'failure';
  error: string;
  retryable: boolean;
}

export type AttemptOutcome = AttemptResponse | AttemptFailure;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials meant for one origin must not be replayed to another one a redirect points at (as fetch does).
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const BODY_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
]);

/** A redirect we will not follow; the same on every attempt, so never retried. */
class RedirectError extends Error {}

/**
 * Where a redirect points: Location holds one URL (RFC 9110 10.2.2), so a repeat of the same value counts once and
 * different values are refused, as browsers refuse them — undici would follow the values joined into one URL that
 * neither names, and whichever one we picked could be the one the server did not mean.
 */
function onlyLocation(locations: readonly string[]): string {
  const distinct = [...new Set(locations)];
  if (distinct.length > 1) {
    const shown = distinct.map((value) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value)).join(', ');
    throw new RedirectError(`Redirect not followed: the response has ${distinct.length} different Location headers (${shown})`);
  }
  return distinct[0]!;
}

function withoutHeaders(headers: Record<string, string>, names: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}

const isUndiciTimeout = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
};

function describeTransportError(error: unknown): { message: string; retryable: boolean } {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // A request undici rejects before sending (bad header value, bad method) fails the same way every time.
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_INVALID_URL') {
    return { message: `Invalid request: ${message}`, retryable: false };
  }
  const detail = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  return { message: `Connection failed: ${detail}`, retryable: true };
}

async function followHops(start: URL, settings: AttemptSettings, stop: ExchangeStop): Promise<AttemptResponse> {
  let url = start;
  let { method, headers, body } = settings;
  // A redirect's body is not wanted: it is read and dropped, and its Location followed.
  const discardsBody = (status: number, head: Record<string, string>) =>
    settings.followRedirects && REDIRECT_STATUSES.has(status) && head.location !== undefined;
  for (let hop = 0; ; hop++) {
    const response = await exchange(
      settings.dispatcher,
      // Our own timer bounds the whole attempt; undici's are set no tighter, and when one fires first it is reported
      // as the same time-out (runAttempt).
      { url, method, headers, body, timeoutMs: settings.timeoutMs, maxBodyBytes: settings.maxResponseBytes, discardsBody },
      stop,
    );
    if (discardsBody(response.status, response.headers)) {
      if (hop >= MAX_REDIRECTS) throw new RedirectError(`Too many redirects (more than ${MAX_REDIRECTS})`);
      const location = onlyLocation(response.locations);
      let target: string;
      try {
        target = new URL(location, url).href;
      } catch {
        throw new RedirectError(`Invalid redirect location: ${location.slice(0, 120)}`);
      }
      const next = settings.checkUrl(target);
      // As fetch does: 303 always becomes a GET; 301/302 turn only a POST into a GET; 307/308 keep method and body.
      const status = response.status;
      const becomesGet = status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
      if (becomesGet) {
        method = 'GET';
        body = undefined;
        headers = withoutHeaders(headers, BODY_HEADERS);
      }
      if (next.origin !== url.origin) headers = withoutHeaders(headers, ORIGIN_BOUND_HEADERS);
      url = next;
      continue;
    }
    return {
      kind: 'response',
      status: response.status,
      statusText: response.statusText || STATUS_CODES[response.status] || '',
      headers: response.headers,
      body: response.body,
      error: response.exceeded ? `Response body exceeds ${formatByteLimit(settings.maxResponseBytes)} limit` : undefined,
    };
  }
}

export async function runAttempt(url: URL, settings: AttemptSettings): Promise<AttemptOutcome> {
  // The exchange is stopped by the caller's signal or by the time-out, through one shared listener on the caller's
  // signal: no controller of its own per attempt, and none of undici's listeners.
  const stop = new ExchangeStop();
  const caller = settings.signal;
  const onCaller = () => stop.stop(caller?.reason instanceof Error ? caller.reason : new Error('aborted'));
  let stopWaiting: (() => void) | undefined;
  if (caller?.aborted) onCaller();
  else if (caller) stopWaiting = whenAborted(caller, onCaller);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.stop(new Error(`Request timed out after ${settings.timeoutMs} ms`));
  }, settings.timeoutMs);
  try {
    return await followHops(url, settings, stop);
  } catch (error) {
    // Checked in this order: the caller's cancellation wins over anything it caused along the way.
    if (caller?.aborted) return { kind: 'failure', error: 'aborted', retryable: false };
    const policy = findPolicyError(error);
    if (policy) return { kind: 'failure', error: policy.message, retryable: false };
    // undici's own timers are set to the same bound and may fire first (under load they did): the same time-out.
    if (timedOut || isUndiciTimeout(error)) {
      const message = `Request timed out after ${settings.timeoutMs} ms`;
      return { kind: 'failure', error: message, retryable: true };
    }
    if (error instanceof RedirectError) {
      return { kind: 'failure', error: error.message, retryable: false };
    }
    const { message, retryable } = describeTransportError(error);
    return { kind: 'failure', error: message, retryable };
  } finally {
    clearTimeout(timer);
    stopWaiting?.();
  }
}
