// The one error type of the client: whatever the server refused, or why no answer came.

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface SluiceErrorInit {
  /** HTTP status; 0 when no answer came (network failure, aborted, malformed answer). */
  status: number;
  /** The server's error code (`VALIDATION_ERROR`, `RATE_LIMIT_EXCEEDED`, `EXECUTION_FAILED`, …) or the client's own. */
  code: string;
  message: string;
  details?: ErrorDetail[];
  /** From `Retry-After`, on 429 (after the client's own retries) and 503. */
  retryAfterSeconds?: number;
  /** The run the error is about, when one started (`X-Execution-Id`). */
  executionId?: string;
  /** The parsed response body, as sent. */
  body?: unknown;
  cause?: unknown;
}

export class SluiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly retryAfterSeconds?: number;
  readonly executionId?: string;
  readonly body?: unknown;

  constructor(init: SluiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SluiceError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.executionId = init.executionId;
    this.body = init.body;
  }
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A SluiceError from a refused answer: the server's `{error, code, details}` body when it sent one. */
export function errorFromResponse(response: Response, body: unknown): SluiceError {
  const shaped = isRecord(body) ? body : {};
  const details = Array.isArray(shaped.details)
    ? shaped.details.filter(isRecord).map((d) => ({ path: String(d.path ?? ''), message: String(d.message ?? '') }))
    : [];
  const text = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 200) : undefined;
  return new SluiceError({
    status: response.status,
    code: typeof shaped.code === 'string' ? shaped.code : `HTTP_${response.status}`,
    message: typeof shaped.error === 'string' ? shaped.error : (text ?? `${response.status} ${response.statusText}`.trim()),
    details,
    retryAfterSeconds: retryAfterSeconds(response.headers),
    executionId: response.headers.get('x-execution-id') ?? (typeof shaped.executionId === 'string' ? shaped.executionId : undefined),
    body,
  });
}

/** Why a request got no answer. An abort by the caller keeps its reason as the cause. */
export function networkError(url: string, cause: unknown): SluiceError {
  const aborted = cause instanceof Error && (cause.name === 'AbortError' || cause.name === 'TimeoutError');
  return new SluiceError({
    status: 0,
    code: aborted ? 'ABORTED' : 'NETWORK_ERROR',
    message: aborted ? `Request to ${url} was aborted` : `Could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause,
  });
}
