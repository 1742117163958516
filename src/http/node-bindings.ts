// The Node request and response behind a Hono context when @hono/node-server serves it over HTTP/1, and the direct
// ways through them that every request takes: response headers set on Node's response, and one "client went away"
// signal per connection. Through the web objects instead, each answer built a Headers object that node-server read
// back into a plain one, and each waited-on run an AbortController: both showed in profiles of the execute path.
// Without Node's objects (Hono's app.request(), HTTP/2) each falls back to the web Request and Response.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

const goneSignals = new WeakMap<Socket, AbortSignal>();

/**
 * Aborts when the client's connection closes: given to a run the answer waits for, so a caller that goes away cancels
 * it (HTTP/1 has no other way to leave a request). One signal serves every request of a keep-alive connection, made
 * when the first one asks: its users must remove their listener when their run ends (runs/run-execution.ts does), or
 * listeners would pile up for as long as the connection lives.
 */
export function clientGoneSignal(c: Context): AbortSignal {
  const socket = nodeBindings(c)?.incoming.socket;
  if (!socket) return c.req.raw.signal;
  let signal = goneSignals.get(socket);
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    const abort = () => controller.abort(new Error('Client connection closed'));
    if (socket.destroyed) abort();
    else socket.once('close', abort);
    goneSignals.set(socket, signal);
  }
  return signal;
}
