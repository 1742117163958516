// Provider failures as one error type with a readable message and what the retry loop needs to know. Messages name
// the provider and the HTTP status the way users search for them: `OpenAI request failed: 401 Unauthorized — …`.
import { STATUS_CODES } from 'node:http';
import { findPolicyError } from '../net/policy-error.js';
import { isRetryableStatus, parseRetryAfterMs } from '../net/retry-timing.js';

export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    message: string,
    /** Worth another attempt (429, 5xx, connection trouble), provided no token has been streamed yet. */
    readonly retryable: boolean,
    /** The provider's Retry-After, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The SDK error classes a provider module hands in, so this file needs neither SDK. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
}

interface HttpErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
}

const MAX_DETAIL = 300;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The provider's own words: OpenAI puts them at `error.message`, Anthropic at `error.error.message`. */
function providerDetail(err: Error & HttpErrorShape): string {
  const body = err.error;
  if (typeof body === 'string' && body.trim()) return clip(body);
  const record = asRecord(body);
  const nested = asRecord(record?.error);
  for (const candidate of [nested?.message, record?.message]) {
    if (typeof candidate === 'string' && candidate.trim()) return clip(candidate);
  }
  // The SDK message starts with the status it already put in our prefix.
  return clip(err.message.replace(/^\d{3}\s*/, ''));
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  return undefined;
}

function retryAfterOf(headers: unknown): number | undefined {
  // OpenAI also sends the finer-grained retry-after-ms; prefer it when present.
  const ms = headerOf(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfterMs(headerOf(headers, 'retry-after'));
}

function causeText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    const text = typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
    if (text && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  return clip(parts.slice(-2).join(': ') || 'unknown error');
}

/**
 * A socket failure while the body streams in surfaces as undici's own error ("terminated", UND_ERR_SOCKET), not as
 * the SDK's connection error, because the SDK has already returned the response by then.
 */
function isTransportFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(UND_ERR_|ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)/.test(code)) return true;
    if (current.message === 'terminated') return true;
    current = current.cause;
  }
  return false;
}

/** Anthropic reports overload and server trouble as an `error` event inside a 200 stream. */
const RETRYABLE_STREAM_ERROR_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

export function toLlmError(label: string, error: unknown, classes: SdkErrorClasses): LlmError {
  if (error instanceof LlmError) return error;
  const policy = findPolicyError(error);
  if (policy) return new LlmError(`${label} request refused: ${policy.message}`, false);
  if (error instanceof classes.APIConnectionError || (!(error instanceof classes.APIError) && isTransportFailure(error))) {
    return new LlmError(`${label} request failed: connection error — ${causeText(error instanceof Error && error.cause !== undefined ? error.cause : error)}`, true);
  }
  if (error instanceof classes.APIError) {
    const shaped = error as Error & HttpErrorShape;
    const detail = providerDetail(shaped);
    if (typeof shaped.status === 'number') {
      const status = shaped.status;
      const reason = STATUS_CODES[status] ?? 'Error';
      return new LlmError(
        `${label} request failed: ${status} ${reason}${detail ? ` — ${detail}` : ''}`,
        isRetryableStatus(status),
        retryAfterOf(shaped.headers),
      );
    }
    const type = asRecord(asRecord(shaped.error)?.error)?.type;
    const retryable = typeof type === 'string' && RETRYABLE_STREAM_ERROR_TYPES.has(type);
    return new LlmError(`${label} request failed: error in the stream — ${detail}`, retryable);
  }
  if (error instanceof SyntaxError) {
    return new LlmError(`${label} request failed: malformed stream — ${clip(error.message)}`, false);
  }
  return new LlmError(`${label} request failed: ${causeText(error)}`, false);
}

/** A stream that stops without its closing event: a dropped connection as far as the caller can tell. */
export function truncatedStream(label: string): LlmError {
  return new LlmError(`${label} request failed: the stream ended before the model finished`, true);
}
