// Requests the HTTP parser refuses before the app runs (found by test/fuzz/paths-and-queries.test.ts): a raw UTF-8
// byte in the URL, as curl sends an unencoded path, used to get a bare "400 Bad Request" without a body. Every such
// answer now has our error body (docs/api.md 3), and the server goes on serving.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

/**
 * Writes raw bytes on a fresh connection and returns everything the server sent back before closing it. The client
 * does not half-close: a server aborts a request whose client ended its side before the answer.
 */
function exchange(raw: Buffer): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

const request = (line: Buffer | string, headers = '') =>
  Buffer.concat([Buffer.from(line), Buffer.from(` HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${t.apiKey}\r\n${headers}\r\n`)]);

describe('requests the HTTP parser refuses', () => {
  it('a raw non-ASCII byte in the path or query: 400 INVALID_REQUEST with a hint to percent-encode', async () => {
    for (const target of ['/api/v1/workflows/ü', '/api/v1/logs?workspaceId=ü', '/api/webhooks/trigger/😀']) {
      const res = await exchange(request(Buffer.concat([Buffer.from('GET '), Buffer.from(target, 'utf8')])));
      expect(res.status, target).toBe(400);
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body)).toEqual({ error: expect.stringContaining('percent-encode'), code: 'INVALID_REQUEST' });
    }
  });

  it('a control character in the path, an invalid method: 400 in the error shape', async () => {
    for (const line of ['GET /api/v1/me\u0001', 'G\u0000T /api/v1/me']) {
      const res = await exchange(request(line));
      expect(res.status, JSON.stringify(line)).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), code: 'INVALID_REQUEST' });
    }
  });

  it('headers over the size limit: 431 HEADERS_TOO_LARGE', async () => {
    const res = await exchange(request('GET /api/v1/me', `X-Padding: ${'a'.repeat(20_000)}\r\n`));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' });
  });

  it('a malformed request right behind one still being answered: the first answer completes, then the 400', async () => {
    // A keep-alive client sends its next request once it has read an answer the server may still be finishing (a
    // streamed body); the parse error of that next request must not cut the first answer short.
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'wait', type: 'wait', name: 'Wait', config: { ms: 100 } },
        ],
        [['start', 'wait']],
      ),
    );
    const streamed = `POST /api/v1/workflows/${wf}/run HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const malformed = request(Buffer.concat([Buffer.from('GET '), Buffer.from('/api/v1/workflows/ü', 'utf8')]));
    const { hostname, port } = new URL(t.url);
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), hostname, () => socket.write(Buffer.concat([Buffer.from(streamed), malformed])));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const second = text.lastIndexOf('HTTP/1.1 400 Bad Request');
    expect(text.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(text.slice(0, second)).toContain('data: [DONE]');
    expect(second).toBeGreaterThan(0);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n', second) + 4))).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('the server goes on serving', async () => {
    await exchange(request(Buffer.from('GET /api/v1/workflows/ü')));
    const res = await exchange(request('GET /api/v1/me', 'Connection: close\r\n'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).userId).toBe(t.userId);
  });
});
