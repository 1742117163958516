// The request/response shapes of sendHttpRequest, shared by the API block, webhook deliveries and LLM calls.

export interface OutboundRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Per attempt, covering connect, redirects and reading the body. Default 30000. */
  timeoutMs?: number;
  /** Extra attempts after the first. Default 3; 0 disables retrying. */
  retries?: number;
  /** Default true; at most 5 hops, each re-checked against the network policy. */
  followRedirects?: boolean;
  /** Default 10 MB; a longer body is cut off with an error. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
  allowPrivateNetwork: boolean;
  /** First backoff delay; doubled after every failed attempt. Default 500. */
  retryBaseMs?: number;
  /** Cap on how long a Retry-After header can make us wait. Default 30000. */
  maxRetryAfterMs?: number;
}

export interface OutboundResponse {
  /** 0 when no HTTP response was obtained (transport failure, policy refusal, abort). */
  status: number;
  statusText: string;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** Attempts made (0 when refused before connecting). */
  attempts: number;
  durationMs: number;
  /** Transport failure after retries, policy refusal, body too large, too many redirects, or 'aborted'. */
  error?: string;
  /**
   * The returned response's Retry-After in milliseconds, uncapped, so that callers with their own schedule
   * (webhook deliveries, capped at 10 min) can honour it.
   */
  retryAfterMs?: number;
}
