// A loopback HTTP server standing in for an external API: it records every request (with its arrival time, so tests
// can check retry spacing) and lets each test script the responses.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** performance.now() when the request (headers and body) had fully arrived. */
  at: number;
}

export type UpstreamHandler = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest, index: number) => void;

export interface FakeUpstream {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Resolves when the n-th request (1-based) has arrived. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startUpstream(handler: UpstreamHandler, host = '127.0.0.1'): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.n)) waiter.resolve();
      handler(req, res, recorded, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    waitForRequests: (n) =>
      requests.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
