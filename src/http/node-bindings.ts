// The Node request and response behind a Hono context when @hono/node-server serves it over HTTP/1, and the direct
// way through them every answer takes: its headers set on Node's response. Through the web objects instead, each
// answer built a Headers object that node-server read back into a plain one, which showed in profiles of the execute
// path.
// Without Node's objects (Hono's app.request(), HTTP/2) it falls back to the web Response.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The Node request and response behind the Hono context when served by @hono/node-server over HTTP/1. */
export function nodeBindings(c: Context): NodeBindings | undefined {
  const env: unknown = c.env;
  if (env === null || typeof env !== 'object' || !('incoming' in env) || !('outgoing' in env)) return undefined;
  const { incoming, outgoing } = env;
  return incoming instanceof IncomingMessage && outgoing instanceof ServerResponse ? { incoming, outgoing } : undefined;
}

/**
 * Sets a header of this request's answer. On Node's response it joins the returned Response's own headers when the
 * head is written; a header of the same name in the Response wins (Node's writeHead merges them that way).
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = nodeBindings(c)?.outgoing;
  if (outgoing && !outgoing.headersSent) outgoing.setHeader(name, value);
  else c.header(name, value);
}
