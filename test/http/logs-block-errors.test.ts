// A run whose API block got a 500 succeeds (workflows branch on <api.status>) but is not a clean success: its log says
// how many blocks reported an error (list, detail, completion webhook), `blockErrors=true` finds exactly such runs
// (page by page), and a clean or a failed run never counts (src/workflow/block-errors.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
let worker: { stop(graceMs: number): Promise<void> };
let upstream: Server;
let upstreamUrl = '';
/** Completion webhook bodies the local receiver got. */
const received: Array<{ data: Record<string, unknown> }> = [];

const call = (id: string, path: string) => ({ id, type: 'api', name: id, config: { url: `${upstreamUrl}${path}`, method: 'GET', retries: 0 } });
const respond = { id: 'out', type: 'response', name: 'Respond', config: { body: { status: '<fetch.status>' } } };
const apiTrigger = { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [] } };

async function execute(workflowId: string) {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
  return { status: res.status, executionId: res.headers.get('x-execution-id') ?? res.body.executionId };
}

async function logOf(executionId: string) {
  const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === '/broken') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"oops":true}');
    } else if (req.url === '/hook') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(JSON.parse(body) as { data: Record<string, unknown> });
        res.writeHead(200).end('ok');
      });
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"fine":true}');
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  const started = createAppWorker(t.app, { pollIntervalMs: 50 });
  await started.start();
  worker = started;
});

afterAll(async () => {
  await worker?.stop(1000);
  await t?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('blocks that reported an error in a run that succeeded', () => {
  it('are counted on the log, found by blockErrors=true, and told to webhook receivers', async () => {
    const flaky = await createAndDeploy(t, makeState([apiTrigger, call('fetch', '/broken'), respond], [['start', 'fetch'], ['fetch', 'out']]), 'Flaky');
    const clean = await createAndDeploy(t, makeState([apiTrigger, call('fetch', '/fine'), respond], [['start', 'fetch'], ['fetch', 'out']]), 'Clean');
    const failing = await createAndDeploy(
      t,
      makeState([apiTrigger, call('fetch', '/broken'), { id: 'boom', type: 'function', name: 'Boom', config: { code: 'throw new Error("no")' } }], [
        ['start', 'fetch'],
        ['fetch', 'boom'],
      ]),
      'Failing',
    );
    const hook = await t.request('POST', `/api/v1/workflows/${flaky}/webhooks`, { body: { url: `${upstreamUrl}/hook` } });
    expect(hook.status, hook.text).toBe(201);

    const flakyRun = await execute(flaky);
    expect(flakyRun.status).toBe(200);
    const cleanRun = await execute(clean);
    expect(cleanRun.status).toBe(200);
    const failedRun = await execute(failing);
    expect(failedRun.status).toBe(500);

    // The list: the flaky run succeeded, with its one block error; the others count none.
    const flakyLog = await logOf(flakyRun.executionId);
    expect(flakyLog).toMatchObject({ level: 'info', blockErrorCount: 1 });
    expect(await logOf(cleanRun.executionId)).toMatchObject({ level: 'info', blockErrorCount: 0 });
    expect(await logOf(failedRun.executionId)).toMatchObject({ level: 'error', blockErrorCount: 0 });

    // The detail says the same.
    const detail = await t.request('GET', `/api/v1/logs/${flakyLog.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ status: 'success', blockErrorCount: 1, error: null });

    // The filter finds only it; `false` finds the rest.
    const only = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&blockErrors=true`);
    expect(only.status, only.text).toBe(200);
    expect(only.body.data.map((l: { executionId: string }) => l.executionId)).toEqual([flakyRun.executionId]);
    const none = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&blockErrors=false`);
    expect(none.body.data.map((l: { executionId: string }) => l.executionId).sort()).toEqual([cleanRun.executionId, failedRun.executionId].sort());

    // The completion webhook carries the count.
    const event = await eventually(() => received.find((e) => e.data.executionId === flakyRun.executionId), 10_000, 'the completion webhook');
    expect(event.data).toMatchObject({ status: 'success', blockErrorCount: 1 });
  });

  it('pages through blockErrors=true by cursor, in both orders, skipping clean runs in between', async () => {
    const flaky = await createAndDeploy(t, makeState([apiTrigger, call('fetch', '/broken'), respond], [['start', 'fetch'], ['fetch', 'out']]), 'Flaky paged');
    const clean = await createAndDeploy(t, makeState([apiTrigger, call('fetch', '/fine'), respond], [['start', 'fetch'], ['fetch', 'out']]), 'Clean paged');
    const flakyRuns: string[] = [];
    for (let i = 0; i < 3; i++) {
      flakyRuns.push((await execute(flaky)).executionId);
      await execute(clean);
    }
    const walk = async (order: 'asc' | 'desc') => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page++) {
        const query: string = `workspaceId=${t.workspaceId}&workflowIds=${flaky},${clean}&blockErrors=true&limit=1&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await t.request('GET', `/api/v1/logs?${query}`);
        expect(res.status, res.text).toBe(200);
        if (res.body.data.length === 0) break;
        seen.push(...res.body.data.map((l: { executionId: string }) => l.executionId));
        cursor = res.body.nextCursor;
        if (!cursor) break;
      }
      return seen;
    };
    expect(await walk('desc')).toEqual([...flakyRuns].reverse());
    // An ascending walk shows a log once the visibility horizon has passed it (docs/guarantees.md 2).
    const ascending = await eventually(async () => {
      const seen = await walk('asc');
      return seen.length === flakyRuns.length && seen;
    }, 10_000, 'the ascending walk to reach the last run');
    expect(ascending).toEqual(flakyRuns);
  });

  it('refuses a blockErrors value that is not a flag, naming the parameter', async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&blockErrors=yes`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toContainEqual({ path: 'blockErrors', message: 'must be true or false' });
  });
});
