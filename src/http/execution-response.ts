// Sends a run's answer (runs/answers.ts) as the HTTP response: its status, headers and body, plus the
// headers the route adds (rate limits, replay marker).
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { StoredResponse } from '../runs/index.js';
import { setResponseHeader } from './node-bindings.js';

const isContentType = (name: string) => name.length === 12 && name.toLowerCase() === 'content-type';

/**
 * A text body goes out under the answer's own Content-Type; any other body as JSON. The Content-Type travels in the
 * returned Response (node-server would otherwise add text/plain) and the other headers on Node's response
 * (node-bindings.ts), so the Response has one header and node-server writes it without a Headers object.
 */
export function sendResponse(c: Context, response: StoredResponse, extraHeaders: Record<string, string>) {
  const status = (response.status >= 200 && response.status <= 599 ? response.status : 200) as StatusCode;
  const bodyless = status === 204 || status === 304;
  let contentType: string | undefined;
  for (const name in response.headers) if (isContentType(name)) contentType = response.headers[name];
  const text = typeof response.body === 'string' && contentType !== undefined;
  // Made before any header is set, so a body that cannot be written leaves the error answer without them.
  const body = bodyless ? null : text ? (response.body as string) : JSON.stringify(response.body ?? null);
  for (const name in extraHeaders) setResponseHeader(c, name, extraHeaders[name]);
  for (const name in response.headers) if (bodyless || !isContentType(name)) setResponseHeader(c, name, response.headers[name]);
  if (body === null) return c.body(null, status);
  return c.body(body, status as ContentfulStatusCode, { 'Content-Type': text ? contentType! : 'application/json' });
}
