import { describe, expect, it, onTestFinished } from 'vitest';
import { createConnectionCache } from '../../src/connectors/connection-cache.js';
import { apiBlock } from '../../src/blocks/api.js';
import type { BlockRunContext } from '../../src/blocks/types.js';
import { SLUICE_VERSION } from '../../src/version.js';
import { json, startUpstream, unusedPort, type UpstreamHandler } from '../net/fake-upstream.js';

type ApiConfig = Parameters<typeof apiBlock.run>[0]['config'];

async function upstreamFor(handler: UpstreamHandler) {
  const upstream = await startUpstream(handler);
  onTestFinished(() => upstream.close());
  return upstream;
}

/** Runs the block the way the engine does: config validated by the block's schema, references already resolved. */
function runApiBlock(rawConfig: Record<string, unknown>, options: { allowPrivateNetwork?: boolean; signal?: AbortSignal } = {}) {
  const config: ApiConfig = apiBlock.configSchema.parse(rawConfig);
  const ctx: BlockRunContext<ApiConfig> = {
    executionId: 'exec-1',
    workflowId: 'wf-1',
    blockId: 'api-1',
    blockName: 'api',
    config,
    signal: options.signal ?? new AbortController().signal,
    emitChunk: () => undefined,
    emitProgress: () => undefined,
    lookupReference: () => undefined,
    resolve: (value) => value,
    setVariable: () => undefined,
    trigger: { type: 'manual', input: {} },
    services: {
      allowPrivateNetwork: options.allowPrivateNetwork ?? true,
      sandbox: { memoryLimitBytes: 0, timeoutMs: 0 },
      providerEnv: () => undefined,
      connections: createConnectionCache(),
    },
  };
  return apiBlock.run(ctx);
}

const echo: UpstreamHandler = (_req, res) => json(res, 200, { echoed: true });

describe('API block config', () => {
  it('fills in the documented defaults', () => {
    expect(apiBlock.configSchema.parse({ url: 'https://example.com' })).toEqual({
      url: 'https://example.com',
      method: 'GET',
      queryParams: [],
      headers: [],
      timeoutMs: 30_000,
      retries: 3,
    });
  });

  it('accepts each method, in any case', () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'patch']) {
      expect(apiBlock.configSchema.parse({ url: 'x', method }).method).toBe(method.toUpperCase());
    }
    expect(apiBlock.configSchema.safeParse({ url: 'x', method: 'TRACE' }).success).toBe(false);
  });

  it('bounds the time-out at 300 s and retries at 0..10', () => {
    expect(apiBlock.configSchema.safeParse({ url: 'x', timeoutMs: 300_000 }).success).toBe(true);
    expect(apiBlock.configSchema.safeParse({ url: 'x', timeoutMs: 300_001 }).success).toBe(false);
    expect(apiBlock.configSchema.safeParse({ url: 'x', retries: 10 }).success).toBe(true);
    expect(apiBlock.configSchema.safeParse({ url: 'x', retries: 11 }).success).toBe(false);
    expect(apiBlock.configSchema.safeParse({ url: 'x', retries: -1 }).success).toBe(false);
    expect(apiBlock.configSchema.safeParse({ url: 'x', retries: 1.5 }).success).toBe(false);
  });
});

describe('API block request', () => {
  it('merges query params into the existing query string, URL-encoded', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({
      url: `${upstream.url}/search?existing=a%20b&flag`,
      queryParams: [
        { key: 'q', value: 'fish & chips' },
        { key: 'page', value: 2 },
        { key: 'city', value: 'Zürich/Genève?' },
        { key: 'filter', value: { tag: 'x' } },
        { key: '', value: 'ignored blank row' },
      ],
    });
    expect(upstream.requests[0].url).toBe(
      '/search?existing=a%20b&flag&q=fish%20%26%20chips&page=2&city=Z%C3%BCrich%2FGen%C3%A8ve%3F&filter=%7B%22tag%22%3A%22x%22%7D',
    );
  });

  it('appends a query string when the URL has none, keeping the fragment out of the request', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({ url: `${upstream.url}/items#top`, queryParams: [{ key: 'k1', value: 'v1' }, { key: 'k2', value: 'v2' }] });
    expect(upstream.requests[0].url).toBe('/items?k1=v1&k2=v2');
  });

  it('sends configured headers, stringifying resolved non-string values', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({
      url: upstream.url,
      headers: [
        { key: 'Authorization', value: 'Bearer t0k3n' },
        { key: 'X-Count', value: 42 },
        { key: 'X-Flag', value: true },
        { key: 'X-Meta', value: { a: 1 } },
      ],
    });
    const { headers } = upstream.requests[0];
    expect(headers.authorization).toBe('Bearer t0k3n');
    expect(headers['x-count']).toBe('42');
    expect(headers['x-flag']).toBe('true');
    expect(headers['x-meta']).toBe('{"a":1}');
  });

  it('says it is Sluice in User-Agent unless the workflow sets one', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({ url: upstream.url });
    await runApiBlock({ url: upstream.url, headers: [{ key: 'user-AGENT', value: 'my-agent/2' }] });
    expect(upstream.requests.map((r) => r.headers['user-agent'])).toEqual([`Sluice/${SLUICE_VERSION}`, 'my-agent/2']);
  });

  it.each(['POST', 'PUT', 'PATCH'])('sends a JSON body with %s, with Content-Type: application/json', async (method) => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({ url: upstream.url, method, body: { name: 'Ada', tags: ['x'], n: 1 } });
    const [seen] = upstream.requests;
    expect(seen.method).toBe(method);
    expect(JSON.parse(seen.body.toString())).toEqual({ name: 'Ada', tags: ['x'], n: 1 });
    expect(seen.headers['content-type']).toBe('application/json');
  });

  it.each(['GET', 'DELETE'])('sends no body with %s even when one is configured', async (method) => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({ url: upstream.url, method, body: { ignored: true } });
    const [seen] = upstream.requests;
    expect(seen.method).toBe(method);
    expect(seen.body.length).toBe(0);
    expect(seen.headers['content-type']).toBeUndefined();
  });

  it('sends a string body as is and keeps a Content-Type the user set, whatever its case', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({
      url: upstream.url,
      method: 'POST',
      headers: [{ key: 'content-TYPE', value: 'text/plain' }],
      body: 'raw text, not JSON',
    });
    const [seen] = upstream.requests;
    expect(seen.body.toString()).toBe('raw text, not JSON');
    expect(seen.headers['content-type']).toBe('text/plain');
  });

  it('labels a string body as JSON when the user set no Content-Type', async () => {
    const upstream = await upstreamFor(echo);
    await runApiBlock({ url: upstream.url, method: 'POST', body: '{"already":"encoded"}' });
    expect(upstream.requests[0].body.toString()).toBe('{"already":"encoded"}');
    expect(upstream.requests[0].headers['content-type']).toBe('application/json');
  });
});

describe('API block outputs', () => {
  it('parses a JSON response and exposes status and lowercase headers', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.setHeader('X-Request-Id', 'r-1');
      json(res, 200, { items: [1, 2] }, { 'Content-Type': 'application/json; charset=utf-8' });
    });
    const { output } = await runApiBlock({ url: upstream.url });
    expect(output.data).toEqual({ items: [1, 2] });
    expect(output.status).toBe(200);
    expect(output.error).toBeUndefined();
    const headers = output.headers as Record<string, string>;
    expect(headers['x-request-id']).toBe('r-1');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('parses +json content types as JSON', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/problem+json' }).end('{"title":"x"}');
    });
    expect((await runApiBlock({ url: upstream.url })).output.data).toEqual({ title: 'x' });
  });

  it('returns text for non-JSON content types', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>{"not":"parsed"}</p>'));
    expect((await runApiBlock({ url: upstream.url })).output.data).toBe('<p>{"not":"parsed"}</p>');
  });

  it('falls back to text when a JSON-labelled body does not parse', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{broken'));
    const { output } = await runApiBlock({ url: upstream.url });
    expect(output.data).toBe('{broken');
    expect(output.error).toBeUndefined();
  });

  it('reports a non-2xx status as an error without failing the block', async () => {
    const upstream = await upstreamFor((_req, res) => json(res, 404, { message: 'no such user' }));
    const { output } = await runApiBlock({ url: upstream.url });
    expect(output).toMatchObject({ status: 404, error: 'HTTP 404: Not Found', data: { message: 'no such user' } });
    expect(upstream.requests).toHaveLength(1);
  });

  it('returns the 500 after the configured retries', async () => {
    const upstream = await upstreamFor((_req, res) => res.writeHead(500).end('down'));
    const { output } = await runApiBlock({ url: upstream.url, retries: 0 });
    expect(output).toMatchObject({ status: 500, error: 'HTTP 500: Internal Server Error', data: 'down' });
    expect(upstream.requests).toHaveLength(1);
  });

  it('cuts off a response body over 10 MB with an error', async () => {
    const upstream = await upstreamFor((_req, res) => {
      res.on('error', () => undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    });
    const { output } = await runApiBlock({ url: upstream.url });
    expect(output).toMatchObject({ status: 200, data: null, error: 'Response body exceeds 10 MB limit' });
  });

  it('refuses a redirect with two different Location headers, naming both, and goes to neither', async () => {
    const upstream = await upstreamFor((req, res) =>
      req.url === '/moved' ? res.writeHead(302, [['Location', '/first'], ['Location', '/second']]).end() : res.end(`at ${req.url}`),
    );
    const { output } = await runApiBlock({ url: `${upstream.url}/moved` });
    expect(output).toMatchObject({
      status: 0,
      data: null,
      error: 'Redirect not followed: the response has 2 different Location headers ("/first", "/second")',
    });
    // Not retried either: the answer would be the same.
    expect(upstream.requests.map((r) => r.url)).toEqual(['/moved']);
  });

  it('follows a redirect whose Location is repeated with the same value', async () => {
    const upstream = await upstreamFor((req, res) =>
      req.url === '/moved' ? res.writeHead(301, [['Location', '/landing'], ['location', '/landing']]).end() : res.end(`at ${req.url}`),
    );
    const { output } = await runApiBlock({ url: `${upstream.url}/moved` });
    expect(output).toMatchObject({ status: 200, data: 'at /landing' });
    expect(upstream.requests.map((r) => r.url)).toEqual(['/moved', '/landing']);
  });

  it('reports a transport failure with status 0', async () => {
    const port = await unusedPort();
    const { output } = await runApiBlock({ url: `http://127.0.0.1:${port}/`, retries: 0 });
    expect(output.status).toBe(0);
    expect(output.data).toBeNull();
    expect(output.error).toMatch(/ECONNREFUSED/);
  });

  it.each([
    ['/relative/path', /must be an absolute http\(s\) URL, got "\/relative\/path"/],
    ['ftp://example.com/file', /must use http or https, got "ftp"/],
    ['', /must be an absolute http\(s\) URL/],
  ])('fails with a clear error for the URL %j', async (url, message) => {
    const { output } = await runApiBlock({ url });
    expect(output.status).toBe(0);
    expect(output.error).toMatch(message);
  });

  it('applies the private-network guard from the block services', async () => {
    const upstream = await upstreamFor(echo);
    const { output } = await runApiBlock({ url: `http://localhost:${upstream.port}/` }, { allowPrivateNetwork: false });
    expect(output.status).toBe(0);
    expect(output.error).toMatch(/^Refused to connect to localhost .*SLUICE_ALLOW_PRIVATE_NETWORK=true/);
    expect(upstream.requests).toHaveLength(0);
  });

  it('stops promptly when the run is cancelled', async () => {
    const upstream = await upstreamFor(() => undefined);
    const controller = new AbortController();
    const pending = runApiBlock({ url: upstream.url }, { signal: controller.signal });
    await upstream.waitForRequests(1);
    controller.abort();
    const { output } = await pending;
    expect(output).toMatchObject({ status: 0, error: 'aborted' });
  });
});
