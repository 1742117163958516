// The body limits of the management API (5 MB), sign-in/sign-up (16 KB) and webhook subscriptions (64 KB), as a
// keep-alive client meets them. Found by the fuzz (test/fuzz/bodies.test.ts): a refused body used to leave its
// connection open (keep-alive) behind the unread rest, and whenever draining that rest took longer than 500 ms the
// server cut the connection, so the client's NEXT request on it got no answer at all ("socket hang up"). When that
// happens depends on timing; what prevents it does not: the refusal says `Connection: close`, so no client sends
// another request on that connection.
import { Agent, request } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy } from '../support/workflows.js';
import { echoState } from '../support/states.js';

let t: TestApp;
let workflowId: string;
beforeAll(async () => {
  t = await startTestApp();
  workflowId = await createAndDeploy(t, echoState());
});
afterAll(async () => t?.close());

interface Answer {
  status: number;
  connection?: string;
  body: string;
}

/** One request through `agent`; the body is written whole (declared length) or in 64 KB chunks (chunked). */
function send(agent: Agent, method: string, path: string, body?: Buffer, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'x-api-key': t.personalKey, 'content-type': 'application/json' };
    if (body && !chunked) headers['content-length'] = String(body.length);
    const req = request(new URL(path, t.url), { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    let answered = false;
    req.on('response', () => (answered = true));
    // The server stops reading a refused body: the write error that follows its answer is expected.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.on('socket', (socket) => socket.on('error', () => undefined));
    if (body && !chunked) req.write(body);
    else if (body) for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
    req.end();
  });
}

const oversized = (limit: number) => Buffer.from(`{"name":"${'x'.repeat(limit)}"}`);

describe('a body over the limit', () => {
  const cases = [
    { what: 'management (5 MB)', path: () => '/api/v1/workflows', limit: 5 * 1024 * 1024, message: '5 MB' },
    { what: 'sign-in (16 KB)', path: () => '/api/v1/auth/sign-in', limit: 16 * 1024, message: '16 KB' },
    { what: 'webhook subscriptions (64 KB)', path: () => `/api/v1/workflows/${workflowId}/webhooks`, limit: 64 * 1024, message: '64 KB' },
  ];
  for (const { what, path, limit, message } of cases) {
    for (const chunked of [false, true]) {
      it(`${what}, ${chunked ? 'chunked' : 'declared'}: 413 with Connection: close, and the next request is answered`, async () => {
        // One connection at most, so the follow-up goes wherever the refused request's connection went.
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          const refused = await send(agent, 'POST', path(), oversized(limit), chunked);
          expect(refused.status).toBe(413);
          expect(JSON.parse(refused.body)).toEqual({ error: `The request body is larger than ${message}`, code: 'PAYLOAD_TOO_LARGE' });
          expect(refused.connection).toBe('close');
          for (let i = 0; i < 3; i++) {
            const next = await send(agent, 'GET', '/api/v1/me');
            expect(next.status).toBe(200);
          }
        } finally {
          agent.destroy();
        }
      });
    }
  }
});

/** A raw connection to the server, for requests written byte by byte; `received` is everything answered so far. */
async function rawConnection() {
  const { hostname, port } = new URL(t.url);
  const socket = new Socket();
  await new Promise<void>((done) => socket.connect(Number(port), hostname, done));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  /** Waits (up to 10 s) until what was received passes `test`. */
  const until = async (test: (received: string) => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!test(received) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return received;
  };
  return { socket, hostname, until };
}

describe('a request answered before its body has arrived', () => {
  it('is answered with Connection: close, so no client sends its next request into the closing connection', async () => {
    const { socket, hostname, until } = await rawConnection();
    // No key: refused (401) before the body is read; only 10 of the 1,000 declared bytes are sent.
    socket.write(
      `POST /api/workflows/${workflowId}/execute HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 1000\r\nConnection: keep-alive\r\n\r\n{"q":"abc',
    );
    const answer = await until((received) => received.includes('\r\n\r\n'));
    socket.destroy();
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
    expect(head).toMatch(/^http\/1\.1 401/);
    expect(head).toContain('connection: close');
  });
});

describe('a request whose body arrives with its head (one packet, as curl sends a small body)', () => {
  it('is read whole, declared or chunked, and the connection serves the next request', async () => {
    const { socket, hostname, until } = await rawConnection();
    const head = `POST /api/workflows/${workflowId}/execute HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${t.personalKey}\r\nContent-Type: application/json\r\n`;
    const echoes = (received: string) => received.match(/\{"echoed":[^}]*\}/g) ?? [];
    try {
      const declared = JSON.stringify({ q: 'déclaré' });
      socket.write(`${head}Content-Length: ${Buffer.byteLength(declared)}\r\n\r\n${declared}`);
      expect(echoes(await until((received) => echoes(received).length >= 1))).toEqual(['{"echoed":"déclaré"}']);
      socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n4\r\n{"q"\r\n9\r\n:"chunks"\r\n1\r\n}\r\n0\r\n\r\n`);
      const received = await until((text) => echoes(text).length >= 2);
      expect(echoes(received)).toEqual(['{"echoed":"déclaré"}', '{"echoed":"chunks"}']);
      expect(received.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    } finally {
      socket.destroy();
    }
  });
});
