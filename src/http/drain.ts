// Draining the HTTP server on shutdown. server.close() only stops accepting connections: a keep-alive connection
// that is never idle (a client sending request after request) or a long stream would keep the process alive for
// good. While draining, every response that has not started yet says `Connection: close` (Node then ends the
// connection after it), idle connections close at once, and whatever is still open at the deadline is cut.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type Drain = (graceMs: number) => Promise<void>;

export function drainable(server: Server): Drain {
  let draining = false;
  const pending = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    // Node writes `Connection: close` and ends the connection once this response is done.
    res.shouldKeepAlive = false;
  };

  // Before the app's own listener, so the flag is set before any handler can write the head.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) return closeAfter(res);
    pending.add(res);
    res.once('close', () => pending.delete(res));
  });

  let closed: Promise<void> | undefined;
  return (graceMs) =>
    (closed ??= new Promise<void>((resolve) => {
      draining = true;
      for (const res of pending) if (!res.headersSent) closeAfter(res);
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    }));
}
