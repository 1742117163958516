// How sluice-client meets refusals: a 429 is retried after its Retry-After with the request intact (through a real
// local proxy in front of the real server), a Retry-After longer than the client waits is a SluiceError carrying it,
// and a bad key, an unknown route and an unreachable server are typed errors too.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSluiceClient } from '../src/index.js';
import { echoState, refusal, startClientTestServer, type ClientTestServer } from './support.js';

let s: ClientTestServer;
let proxy: Server;
let proxyUrl: string;
/** Requests the proxy answers 429 before passing the rest through; what reached it. */
let refuseNext = 0;
const seen: Array<{ method: string; url: string; body: string; status: number }> = [];

beforeAll(async () => {
  s = await startClientTestServer({ SLUICE_LIMIT_LOGS_FREE: '1' });
  const target = new URL(s.t.url);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (refuseNext > 0) {
        refuseNext--;
        seen.push({ method: req.method!, url: req.url!, body: body.toString(), status: 429 });
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'slow down', code: 'RATE_LIMIT_EXCEEDED' }));
        return;
      }
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        seen.push({ method: req.method!, url: req.url!, body: body.toString(), status: answer.statusCode! });
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
  await s?.close();
});

describe('retries and errors', () => {
  it('waits out a 429 and sends the same request again, body included', async () => {
    const retries: number[] = [];
    const client = createSluiceClient({ baseUrl: proxyUrl, apiKey: s.t.apiKey, onRetry: ({ delayMs }) => retries.push(delayMs) });
    seen.length = 0;
    refuseNext = 2;
    const created = await client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Retried', state: echoState() });
    expect(retries).toEqual([1000, 1000]);
    expect(seen.map((r) => r.status)).toEqual([429, 429, 201]);
    expect(new Set(seen.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(seen[2].body)).toMatchObject({ name: 'Retried' });
    // Created once.
    const all = await client.workflows.list({ workspaceId: s.t.workspaceId });
    expect(all.filter((w) => w.id === created.id)).toHaveLength(1);

    refuseNext = 1;
    const noRetry = createSluiceClient({ baseUrl: proxyUrl, apiKey: s.t.apiKey, maxRetries: 0 });
    expect(await refusal(noRetry.me())).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 1 });
  });

  it('gives up on a Retry-After longer than it may wait, with the wait in the error', async () => {
    // The logs limit is 1 a minute here: the second request is refused until the minute ends.
    const client = createSluiceClient({ baseUrl: s.t.url, apiKey: s.t.apiKey, maxRetryDelayMs: 0 });
    await client.listLogs({ workspaceId: s.t.workspaceId });
    const limited = await refusal(client.listLogs({ workspaceId: s.t.workspaceId }));
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('types a bad key, a missing workflow and an unreachable server', async () => {
    const stranger = createSluiceClient({ baseUrl: s.t.url, apiKey: 'sk-sluice-notakeynotakeynotakeynotakey' });
    expect(await refusal(stranger.me())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(await refusal(s.client.workflows.get('wf_nope'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const nowhere = createSluiceClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: s.t.apiKey });
    const unreachable = await refusal(nowhere.me());
    expect(unreachable).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(unreachable.message).toContain(`127.0.0.1:${port}`);
  });
});
