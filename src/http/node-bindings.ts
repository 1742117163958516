// The Node request and response behind a Hono context when @hono/node-server serves it over HTTP/1.
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
