// The only way the app talks to the server: an openapi-fetch client over the paths generated from the server's OpenAPI
// document (clients/typescript/src/generated), so a renamed path, parameter or field fails the web typecheck. Around
// every call: the session cookie (same origin), the session's CSRF token on state-changing requests, a refused answer
// thrown as ApiError (by `answer`), and a 401 outside the auth routes announced as a lost session.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../clients/typescript/src/generated/openapi.js';

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

const session: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ response, schemaPath }) {
    // A refused sign-in is not a lost session: the sign-in page shows its message.
    if (response.status === 401 && !schemaPath.startsWith('/api/v1/auth/')) window.dispatchEvent(new Event(SESSION_LOST_EVENT));
  },
};

export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  headers: { Accept: 'application/json' },
});
api.use(session);

/** The server's error body, as far as a refused answer carries one (a proxy's error page does not). */
interface ErrorBody {
  error?: unknown;
  code?: unknown;
  details?: unknown;
}

/** The ApiError a refused answer stands for; `body` is what openapi-fetch parsed of it (JSON, or the text). */
export function toApiError(response: Response, body: unknown): ApiError {
  const shaped: ErrorBody = typeof body === 'object' && body !== null ? body : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    typeof shaped.code === 'string' ? shaped.code : `HTTP_${response.status}`,
    typeof shaped.error === 'string' ? shaped.error : `${response.status} ${response.statusText}`,
    Array.isArray(shaped.details) ? (shaped.details as ErrorDetail[]) : [],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** The data of a call's answer (undefined for 204), or the ApiError it was refused with. */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response, error);
  return data as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Reads a `text/event-stream` body and hands each `data:` record (parsed JSON, or the raw text) to onRecord. */
export async function readEventStream(body: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined, onRecord: (record: unknown) => void): Promise<void> {
  if (!body) return;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
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
