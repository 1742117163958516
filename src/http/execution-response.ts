// Sends a run's answer (runs/answers.ts) as the HTTP response: its status, headers and body, plus the
// headers the route adds (rate limits, replay marker).
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { StoredResponse } from '../runs/index.js';

export function sendResponse(c: Context, response: StoredResponse, extraHeaders: Record<string, string>) {
  for (const [name, value] of Object.entries({ ...extraHeaders, ...response.headers })) c.header(name, value);
  const status = (response.status >= 200 && response.status <= 599 ? response.status : 200) as StatusCode;
  if (status === 204 || status === 304) return c.body(null, status);
  const hasContentType = Object.keys(response.headers).some((h) => h.toLowerCase() === 'content-type');
  if (typeof response.body === 'string' && hasContentType) return c.body(response.body, status as ContentfulStatusCode);
  return c.json(response.body ?? null, status as ContentfulStatusCode);
}
