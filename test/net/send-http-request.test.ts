import { describe, expect, it, onTestFinished } from 'vitest';
import { sendHttpRequest, type OutboundRequest } from '../../src/net/index.js';
import { json, startUpstream, unusedPort, type UpstreamHandler } from './fake-upstream.js';

// Node timers may fire up to ~1 ms before the requested delay as measured by performance.now().
const TIMER_SLACK_MS = 2;

async function upstreamFor(handler: UpstreamHandler) {
  const upstream = await startUpstream(handler);
  onTestFinished(() => upstream.close());
  return upstream;
}

function send(req: Partial<OutboundRequest> & { url: string }) {
  return sendHttpRequest({ method: 'GET', allowPrivateNetwork: true, retryBaseMs: 20, ...req });
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

describe('sendHttpRequest responses', () => {
  it('returns status, lowercase headers and the body', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.setHeader('X-Custom-Thing', 'yes');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      json(res, 201, { ok: true });
    });
    const response = await send({ url: `${upstream.url}/things` });
    expect(response).toMatchObject({ status: 201, statusText: 'Created', attempts: 1 });
    expect(response.headers['x-custom-thing']).toBe('yes');
    expect(response.headers['set-cookie']).toBe('a=1, b=2');
    expect(response.headers['content-type']).toBe('application/json');
    expect(Object.keys(response.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true });
    expect(response.error).toBeUndefined();
  });

  it('sends method, headers and a binary body as given', async () => {
    const upstream = await upstreamFor((_req, res) => res.end());
    await send({
      url: upstream.url,
      method: 'put',
      headers: { 'X-Api-Key': 'k1' },
      body: new Uint8Array([1, 2, 3]),
    });
    const [seen] = upstream.requests;
    expect(seen.method).toBe('PUT');
    expect(seen.headers['x-api-key']).toBe('k1');
    expect([...seen.body]).toEqual([1, 2, 3]);
  });
});

describe('sendHttpRequest retries', () => {
  it('retries 5xx with exponential backoff until success, as seen by the upstream', async () => {
    const upstream = await upstreamFor((_req, res, _r, index) => (index < 2 ? res.writeHead(503).end() : res.end('ok')));
    const response = await send({ url: upstream.url, retryBaseMs: 40 });
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(3);
    expect(upstream.requests).toHaveLength(3);
    const [first, second] = gaps(upstream.requests.map((r) => r.at));
    expect(first).toBeGreaterThanOrEqual(40 - TIMER_SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(80 - TIMER_SLACK_MS);
  });

  it('returns the last 500 once retries are exhausted, without a transport error', async () => {
    const upstream = await upstreamFor((_req, res) => json(res, 500, { failure: 'boom' }));
    const response = await send({ url: upstream.url, retries: 2 });
    expect(response.status).toBe(500);
    expect(response.attempts).toBe(3);
    expect(upstream.requests).toHaveLength(3);
    expect(response.error).toBeUndefined();
    expect(JSON.parse(response.body.toString())).toEqual({ failure: 'boom' });
  });

  it('does not retry a 404', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(404).end('nope'));
    const response = await send({ url: upstream.url });
    expect(response).toMatchObject({ status: 404, statusText: 'Not Found', attempts: 1 });
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not retry at all with retries: 0', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(502).end());
    const response = await send({ url: upstream.url, retries: 0 });
    expect(response.status).toBe(502);
    expect(upstream.requests).toHaveLength(1);
  });

  it('honours a Retry-After (seconds) longer than the backoff on a 429', async () => {
    const upstream = await upstreamFor((_req, res, _r, index) =>
      index === 0 ? res.writeHead(429, { 'retry-after': '1' }).end() : res.end('ok'),
    );
    const response = await send({ url: upstream.url, retryBaseMs: 10 });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
    expect(gaps(upstream.requests.map((r) => r.at))[0]).toBeGreaterThanOrEqual(1000 - TIMER_SLACK_MS);
  });

  it('caps a long Retry-After at maxRetryAfterMs and reports the value the server asked for', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end());
    const response = await send({ url: upstream.url, retries: 1, retryBaseMs: 10, maxRetryAfterMs: 60 });
    expect(response.status).toBe(429);
    expect(response.retryAfterMs).toBe(3_600_000);
    expect(upstream.requests).toHaveLength(2);
    expect(gaps(upstream.requests.map((r) => r.at))[0]).toBeGreaterThanOrEqual(60 - TIMER_SLACK_MS);
  });

  it('times out a hanging attempt and retries it', async () => {
    const upstream = await upstreamFor((_req, res, _r, index) => {
      if (index > 0) res.end('second time lucky'); // the first request is left hanging
    });
    const response = await send({ url: upstream.url, timeoutMs: 150, retries: 1 });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('second time lucky');
    expect(response.attempts).toBe(2);
    expect(upstream.requests).toHaveLength(2);
  });

  it('reports a time-out once every attempt has timed out', async () => {
    const upstream = await upstreamFor(() => undefined);
    const response = await send({ url: upstream.url, timeoutMs: 80, retries: 1 });
    expect(response).toMatchObject({ status: 0, attempts: 2, error: 'Request timed out after 80 ms' });
    expect(upstream.requests).toHaveLength(2);
  });

  it('times out a body that stalls after the headers', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const response = await send({ url: upstream.url, timeoutMs: 100, retries: 0 });
    expect(response).toMatchObject({ status: 0, error: 'Request timed out after 100 ms' });
  });

  it('retries a refused connection, then reports status 0 with the cause', async () => {
    const port = await unusedPort();
    const response = await send({ url: `http://127.0.0.1:${port}/`, retries: 2 });
    expect(response.status).toBe(0);
    expect(response.attempts).toBe(3);
    expect(response.error).toMatch(/^Connection failed: .*ECONNREFUSED/);
    // Three attempts with 20 ms and 40 ms backoffs in between.
    expect(response.durationMs).toBeGreaterThanOrEqual(60 - TIMER_SLACK_MS);
  });

  it('retries a connection the server drops without answering', async () => {
    const upstream = await upstreamFor((req, res, _r, index) => (index === 0 ? req.socket.destroy() : res.end('ok')));
    const response = await send({ url: upstream.url });
    expect(response).toMatchObject({ status: 200, attempts: 2 });
  });
});

describe('sendHttpRequest cancellation', () => {
  it('aborts an in-flight request promptly', async () => {
    const upstream = await upstreamFor(() => undefined);
    const controller = new AbortController();
    const pending = send({ url: upstream.url, signal: controller.signal, timeoutMs: 60_000 });
    await upstream.waitForRequests(1);
    controller.abort();
    const response = await pending;
    expect(response).toMatchObject({ status: 0, error: 'aborted', attempts: 1 });
    expect(response.durationMs).toBeLessThan(10_000);
  });

  it('aborts a backoff wait promptly and makes no further attempt', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(503).end());
    const controller = new AbortController();
    const pending = send({ url: upstream.url, signal: controller.signal, retryBaseMs: 60_000 });
    await upstream.waitForRequests(1);
    controller.abort();
    const response = await pending;
    expect(response).toMatchObject({ status: 0, error: 'aborted', attempts: 1 });
    expect(response.durationMs).toBeLessThan(10_000);
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not start when the signal is already aborted', async () => {
    const upstream = await upstreamFor((_req, res) => res.end());
    const response = await send({ url: upstream.url, signal: AbortSignal.abort() });
    expect(response).toMatchObject({ status: 0, error: 'aborted', attempts: 0 });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('sendHttpRequest response size cap', () => {
  const MB = 1024 * 1024;

  it('cuts off a streamed body over the default 10 MB and does not retry', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // chunked: no length up front
      const chunk = Buffer.alloc(MB, 0x61);
      let sent = 0;
      const pump = (): void => {
        while (sent < 11) {
          sent++;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const response = await send({ url: upstream.url });
    expect(response.status).toBe(200);
    expect(response.error).toBe('Response body exceeds 10 MB limit');
    expect(response.body.length).toBe(10 * MB);
    expect(response.attempts).toBe(1);
  });

  it('refuses a declared Content-Length over the limit, naming the configured limit', async () => {
    const upstream = await upstreamFor((_req, res) => res.end(Buffer.alloc(4096)));
    const response = await send({ url: upstream.url, maxResponseBytes: 2048 });
    expect(response.error).toBe('Response body exceeds 2 KB limit');
  });

  it('accepts a body exactly at the limit', async () => {
    const upstream = await upstreamFor((_req, res) => res.end(Buffer.alloc(2048)));
    const response = await send({ url: upstream.url, maxResponseBytes: 2048 });
    expect(response.error).toBeUndefined();
    expect(response.body.length).toBe(2048);
  });
});

describe('sendHttpRequest redirects', () => {
  it('returns a 3xx as is when redirects are not followed', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
    const response = await send({ url: upstream.url, followRedirects: false });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/elsewhere');
    expect(upstream.requests).toHaveLength(1);
  });

  it('follows up to 5 hops and refuses the 6th', async () => {
    const upstream = await upstreamFor((req, res) => {
      const hop = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('hop'));
      if (hop < Number(new URL(req.url ?? '/', 'http://x').searchParams.get('until'))) {
        res.writeHead(302, { location: req.url?.replace(`hop=${hop}`, `hop=${hop + 1}`) }).end();
      } else res.end(`landed at ${hop}`);
    });
    const five = await send({ url: `${upstream.url}/?hop=0&until=5` });
    expect(five.body.toString()).toBe('landed at 5');
    const six = await send({ url: `${upstream.url}/?hop=0&until=6` });
    expect(six).toMatchObject({ status: 0, error: 'Too many redirects (more than 5)', attempts: 1 });
  });

  it('turns a POST into a GET without body on 303, and keeps both on 307', async () => {
    const upstream = await upstreamFor((req, res) => {
      if (req.url === '/see-other') res.writeHead(303, { location: '/target' }).end();
      else if (req.url === '/temporary') res.writeHead(307, { location: '/target' }).end();
      else res.end('done');
    });
    const headers = { 'content-type': 'application/json' };
    await send({ url: `${upstream.url}/see-other`, method: 'POST', body: '{"a":1}', headers });
    await send({ url: `${upstream.url}/temporary`, method: 'POST', body: '{"a":1}', headers });
    const [, afterSeeOther, , afterTemporary] = upstream.requests;
    expect(afterSeeOther).toMatchObject({ method: 'GET', url: '/target' });
    expect(afterSeeOther.body.length).toBe(0);
    expect(afterSeeOther.headers['content-type']).toBeUndefined();
    expect(afterTemporary).toMatchObject({ method: 'POST', url: '/target' });
    expect(afterTemporary.body.toString()).toBe('{"a":1}');
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const other = await upstreamFor((_req, res) => res.end('other'));
    const upstream = await upstreamFor((req, res) =>
      req.url === '/same' ? res.writeHead(302, { location: '/ok' }).end()
      : req.url === '/away' ? res.writeHead(302, { location: `${other.url}/landing` }).end()
      : res.end('ok'),
    );
    const headers = { Authorization: 'Bearer secret', 'X-Trace': 't' };
    await send({ url: `${upstream.url}/same`, headers });
    await send({ url: `${upstream.url}/away`, headers });
    expect(upstream.requests[1].headers.authorization).toBe('Bearer secret');
    expect(other.requests[0].headers.authorization).toBeUndefined();
    expect(other.requests[0].headers['x-trace']).toBe('t');
  });
});
