// readJsonBodyLimited on a real Node HTTP server: limits are enforced while the body streams in, and an oversized
// body's connection is closed instead of being read to its end.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBodyLimited } from '../../src/http/body.js';
import { errorResponse, toAppError } from '../../src/http/errors.js';

const LIMIT = 4 * 1024 * 1024;
const MB = 1024 * 1024;

let server: ServerType;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  const app = new Hono()
    .post('/echo', async (c) => c.json({ body: (await readJsonBodyLimited(c, LIMIT)).value }))
    .onError((err, c) => errorResponse(c, toAppError(err)));
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Exchange {
  status?: number;
  body?: string;
  connection?: string;
  /** What the client managed to hand to its socket before the server stopped it. */
  clientWrote: number;
  /** What the server's socket read from the wire, headers included. */
  serverRead: number;
  /** A client-side failure (EPIPE, reset) before the answer arrived: the answer would have been lost. */
  errorBeforeResponse?: string;
}

/** Sends `total` bytes of JSON-ish text in 64 KB chunks (chunked, or with a Content-Length), honouring backpressure. */
function send(total: number, options: { contentLength?: number; chunk?: Buffer } = {}): Promise<Exchange> {
  const before = sockets.length;
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (options.contentLength !== undefined) headers['content-length'] = options.contentLength;
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/echo', headers, agent: false });
    const exchange: Exchange = { clientWrote: 0, serverRead: 0 };
    let stopped = false;
    const finish = () => {
      if (stopped) return;
      stopped = true;
      const socket = sockets[before];
      const settle = () => resolve({ ...exchange, serverRead: socket?.bytesRead ?? 0 });
      if (!socket || socket.destroyed) settle();
      else socket.once('close', settle);
    };
    const pump = () => {
      while (!stopped && exchange.clientWrote < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - exchange.clientWrote));
        exchange.clientWrote += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!stopped) req.end();
    };
    req.on('response', (res) => {
      exchange.status = res.statusCode;
      exchange.connection = res.headers.connection;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        exchange.body = text;
        finish();
      });
    });
    // EPIPE / ECONNRESET after the answer is expected (the server closed the upload); before it, it is a failure.
    req.on('error', (err) => {
      if (exchange.status === undefined) exchange.errorBeforeResponse = err.message;
      finish();
    });
    pump();
  });
}

describe('readJsonBodyLimited', () => {
  it('parses a JSON body, also one just under the limit carrying a long string', async () => {
    const small = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: '{"a":[1,"two",{"b":null}]}' });
    expect(small.status).toBe(200);
    expect(await small.json()).toEqual({ body: { a: [1, 'two', { b: null }] } });

    const data = 'A'.repeat(LIMIT - 20);
    const text = JSON.stringify({ data });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LIMIT);
    const big = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: text });
    expect(big.status).toBe(200);
    expect(((await big.json()) as { body: { data: string } }).body.data).toBe(data);
  });

  it('answers 400 INVALID_JSON for malformed and empty bodies', async () => {
    for (const body of ['{"a":', 'not json', '', '   ', '{"a":1}}']) {
      const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String), code: 'INVALID_JSON' });
    }
  });

  it('takes a body of exactly the limit, and refuses one byte more', async () => {
    const exact = await send(LIMIT, { contentLength: LIMIT, chunk: Buffer.alloc(64 * 1024, 0x20) });
    // All spaces: read in full, then refused as empty JSON (not as too large).
    expect(exact.status).toBe(400);
    const over = await send(LIMIT + 1);
    expect(over.errorBeforeResponse).toBeUndefined();
    expect(over.status).toBe(413);
  });

  it('refuses a declared Content-Length over the limit at once, before reading the body', async () => {
    const exchange = await send(200 * MB, { contentLength: 200 * MB });
    expect(exchange.errorBeforeResponse).toBeUndefined();
    expect(exchange.status).toBe(413);
    expect(JSON.parse(exchange.body!)).toEqual({ error: 'The request body is larger than 4 MB', code: 'PAYLOAD_TOO_LARGE' });
    expect(exchange.connection).toBe('close');
    expect(exchange.serverRead).toBeLessThan(1 * MB);
    expect(exchange.clientWrote).toBeLessThan(50 * MB);
  });

  it('cuts off a streamed 200 MB body near the limit and closes the connection without reading on', async () => {
    const exchange = await send(200 * MB);
    expect(exchange.errorBeforeResponse).toBeUndefined();
    expect(exchange.status).toBe(413);
    expect(JSON.parse(exchange.body!).code).toBe('PAYLOAD_TOO_LARGE');
    expect(exchange.connection).toBe('close');
    // The server read the limit plus what was already in flight, nowhere near the 200 MB sent its way.
    expect(exchange.serverRead).toBeGreaterThan(LIMIT);
    expect(exchange.serverRead).toBeLessThan(LIMIT + 2 * MB);
    expect(exchange.clientWrote).toBeLessThan(50 * MB);
  });

  it('answers 413 to fetch() streaming an endless body', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(50 * MB);
  });

  it('keeps serving after refusing oversized bodies', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: '{"ok":true}' });
    expect(await res.json()).toEqual({ body: { ok: true } });
  });
});
