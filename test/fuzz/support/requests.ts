// Requests aimed at a route's existing resources, with the route's valid query, authentication and body, so that a
// case changes exactly one thing about a request the route would otherwise accept.
import type { RawRequest } from './client.js';
import { signWebhookBody, type FuzzFixture } from './fixture.js';
import { knownPath, type FuzzRoute } from './routes.js';

export interface Aim {
  /** Which known value of each parameter's pool (wraps around). */
  pick?: number;
  body?: Buffer | string;
  contentType?: string | null;
  query?: string;
  headers?: Record<string, string>;
  chunked?: boolean;
}

/** The request with a valid signature added when it goes to the signed webhook path. */
export function signedIfNeeded(f: FuzzFixture, req: RawRequest): RawRequest {
  const path = req.path.split('?')[0]!;
  if (path !== `/api/webhooks/trigger/${f.signedHookPath}`) return req;
  return { ...req, headers: { ...req.headers, 'x-sluice-signature': signWebhookBody(req.body ?? '') } };
}

export function aimedRequest(f: FuzzFixture, route: FuzzRoute, aim: Aim = {}): RawRequest {
  const query = aim.query ?? route.query?.(f);
  const path = knownPath(f, route, aim.pick) + (query ? `?${query}` : '');
  const headers: Record<string, string> = { ...f.auth[route.auth ?? 'personalKey'], ...aim.headers };
  let body = aim.body;
  if (body === undefined && route.validBody) body = JSON.stringify(route.validBody(f));
  const contentType = aim.contentType === undefined ? (body === undefined ? null : 'application/json') : aim.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return signedIfNeeded(f, { method: route.method, path, headers, body, chunked: aim.chunked });
}

/** A JSON body of exactly `bytes` bytes that the route's schema would otherwise take apart field by field. */
export function jsonOfSize(bytes: number): string {
  const frame = '{"q":""}';
  return `{"q":"${'x'.repeat(Math.max(0, bytes - frame.length))}"}`;
}
