// The only way the app talks to the server: JSON over its HTTP API, with the session cookie (sent by the browser)
// and the session's CSRF token on every state-changing request.

let csrfToken: string | null = null;

export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Fired when the server says the session is gone, so the app can show the sign-in page. */
export const SESSION_LOST_EVENT = 'sluice:session-lost';

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function requestHeaders(method: string, extra: Record<string, string> = {}, hasBody = false) {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  return headers;
}

export async function toApiError(res: Response): Promise<ApiError> {
  let body: { error?: string; code?: string; details?: ErrorDetail[] } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON (a proxy's error page): keep the status line
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  return new ApiError(
    res.status,
    body.code ?? `HTTP_${res.status}`,
    body.error ?? `${res.status} ${res.statusText}`,
    body.details ?? [],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const hasBody = options.body !== undefined;
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: requestHeaders(method, options.headers, hasBody),
    body: hasBody ? JSON.stringify(options.body) : undefined,
    signal: options.signal,
  });
  if (!res.ok) {
    const error = await toApiError(res);
    if (res.status === 401 && !path.startsWith('/api/v1/auth/')) window.dispatchEvent(new Event(SESSION_LOST_EVENT));
    throw error;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Reads a `text/event-stream` body and hands each `data:` record (parsed JSON, or the raw text) to onRecord. */
export async function readEventStream(res: Response, onRecord: (record: unknown) => void): Promise<void> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let boundary: number;
    while ((boundary = buffer.search(/\r?\n\r?\n/)) !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue; // a `: ping` comment
      try {
        onRecord(JSON.parse(data));
      } catch {
        onRecord(data);
      }
    }
  }
}
