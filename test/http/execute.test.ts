import { eq } from 'drizzle-orm';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState, parseSse } from '../support/workflows.js';
import { freshRateWindow } from '../support/rate-window.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_SSE_KEEPALIVE_MS: '50' });
});
afterAll(async () => t?.close());

const typedInput = () =>
  makeState(
    [
      {
        id: 'start',
        type: 'api_trigger',
        name: 'API',
        config: {
          inputFormat: [
            { name: 'name', type: 'string', required: true },
            { name: 'count', type: 'number' },
            { name: 'flag', type: 'boolean' },
            { name: 'meta', type: 'json' },
          ],
        },
      },
      { id: 'fn', type: 'function', name: 'Shape', config: { code: 'return { name: <api.name>, count: <api.count>, flag: <api.flag>, meta: <api.input.meta>, all: <api.input> };' } },
    ],
    [['start', 'fn']],
  );

const execute = (workflowId: string, body: unknown, headers: Record<string, string> = {}, apiKey?: string | null) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers, apiKey });

describe('execute: auth and deployment', () => {
  it('401 without or with a bad key, 404 for an unknown workflow, 403 for another workspace, 409 when not deployed', async () => {
    const wf = await createAndDeploy(t, typedInput());
    expect((await execute(wf, { name: 'x' }, {}, null)).body.code).toBe('UNAUTHORIZED');
    expect((await execute(wf, { name: 'x' }, {}, 'sk-sluice-nope')).status).toBe(401);
    expect((await execute('wf_unknown', { name: 'x' })).status).toBe(404);
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'mallory@example.com', plan: 'free' });
    const denied = await execute(wf, { name: 'x' }, {}, outsider.apiKey);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('FORBIDDEN');

    const draftOnly = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'draft', state: typedInput() } });
    const notDeployed = await execute(draftOnly.body.data.id, { name: 'x' });
    expect(notDeployed.status).toBe(409);
    expect(notDeployed.body.code).toBe('WORKFLOW_NOT_DEPLOYED');
  });

  it('runs the active deployment only: editing the draft changes nothing until the next deploy', async () => {
    const respond = (text: string) =>
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'out', type: 'response', name: 'Out', config: { body: { text } } },
        ],
        [['start', 'out']],
      );
    const wf = await createAndDeploy(t, respond('v1'));
    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: respond('v2') } });
    expect((await execute(wf, {})).body).toEqual({ text: 'v1' });
    await t.request('POST', `/api/v1/workflows/${wf}/deploy`);
    expect((await execute(wf, {})).body).toEqual({ text: 'v2' });
    await t.request('POST', `/api/v1/workflows/${wf}/deployments/1/activate`);
    expect((await execute(wf, {})).body).toEqual({ text: 'v1' });
  });
});

describe('execute: input format', () => {
  it('maps declared fields to <api.field> and <api.input.field>, absent optional fields to null', async () => {
    const wf = await createAndDeploy(t, typedInput());
    const res = await execute(wf, { name: 'Ada', count: 3, meta: { a: [1] }, extra: 'kept' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, executionId: expect.stringMatching(/^exec_/) });
    expect(res.body.output.result).toEqual({
      name: 'Ada',
      count: 3,
      flag: null,
      meta: { a: [1] },
      all: { name: 'Ada', count: 3, flag: null, meta: { a: [1] }, extra: 'kept' },
    });
    expect(res.body.metadata).toEqual({ duration: expect.any(Number), startTime: expect.any(String), endTime: expect.any(String) });
  });

  it('rejects type mismatches and missing required fields with details, and non-object bodies', async () => {
    const wf = await createAndDeploy(t, typedInput());
    const bad = await execute(wf, { count: '3', flag: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'is required' },
        { path: 'count', message: expect.stringMatching(/number/) },
        { path: 'flag', message: expect.stringMatching(/boolean/) },
      ]),
    );
    for (const body of [[1, 2], 'text', 42]) {
      const res = await execute(wf, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_JSON');
    }
    const malformed = await t.request('POST', `/api/workflows/${wf}/execute`, { rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_JSON');
  });

  it('exposes the raw body only at <api.input> when there is no Input Format', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return { input: <api.input>, direct: <api.anything> };' } },
        ],
        [['start', 'fn']],
      ),
    );
    const res = await execute(wf, { anything: 1, nested: { b: true } });
    expect(res.body.output.result).toEqual({ input: { anything: 1, nested: { b: true } }, direct: null });
  });
});

describe('execute: responses', () => {
  it('answers with a response block\'s status, headers and body', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'who', type: 'string' }] } },
          { id: 'out', type: 'response', name: 'Out', config: { status: 201, headers: [{ key: 'X-Custom', value: 'yes' }], body: { hello: '<api.who>' } } },
        ],
        [['start', 'out']],
      ),
    );
    const res = await execute(wf, { who: 'world' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-custom')).toBe('yes');
    expect(res.body).toEqual({ hello: 'world' });
  });

  it('sends a text body under the block\'s Content-Type and any other body as JSON; X-Request-Id stays the request\'s', async () => {
    const respondWith = (body: unknown) =>
      createAndDeploy(
        t,
        makeState(
          [
            { id: 'start', type: 'api_trigger', name: 'API' },
            {
              id: 'out',
              type: 'response',
              name: 'Out',
              config: { headers: [{ key: 'Content-Type', value: 'text/csv' }, { key: 'X-Request-Id', value: 'from-the-workflow' }], body },
            },
          ],
          [['start', 'out']],
        ),
      );
    const text = await execute(await respondWith('a,b'), {}, { 'X-Request-Id': 'caller-1' });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe('text/csv');
    expect(text.text).toBe('a,b');
    expect(text.headers.get('x-request-id')).toBe('caller-1');
    expect(text.headers.get('content-length')).toBe('3');

    const json = await execute(await respondWith({ a: 'b' }), {}, { 'X-Request-Id': 'caller-2' });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(json.body).toEqual({ a: 'b' });
    expect(json.headers.get('x-request-id')).toBe('caller-2');
    expect(json.headers.get('x-execution-id')).toMatch(/^exec_/);
  });

  it('reports a workflow failure as 500 EXECUTION_FAILED with the error and logs it', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'fn', type: 'function', name: 'Boom', config: { code: "throw new Error('boom');" } },
        ],
        [['start', 'fn']],
      ),
    );
    const res = await execute(wf, {});
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED', error: expect.stringContaining('boom') });
    const [row] = await t.app.db.select(executionRow).from(executions).where(isExecution(res.body.executionId));
    expect(row).toMatchObject({ status: 'error', level: 'error', trigger: 'api' });
    expect(res.text).not.toMatch(/\n\s+at /);
  });
});

const streamingState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'n', type: 'number' }] } },
      { id: 'first', type: 'function', name: 'My Block', config: { code: 'return "hello " + <api.n>;' } },
      { id: 'second', type: 'function', name: 'Second', config: { code: 'return { doubled: <api.n> * 2 };' } },
    ],
    [
      ['start', 'first'],
      ['first', 'second'],
    ],
  );

async function streamRaw(workflowId: string, body: unknown) {
  const res = await fetch(`${t.url}/api/workflows/${workflowId}/execute`, {
    method: 'POST',
    headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { res, text: await res.text() };
}

describe('execute: streaming', () => {
  it('sends chunk records for selected outputs, one done record, then [DONE]', async () => {
    const wf = await createAndDeploy(t, streamingState());
    const { res, text } = await streamRaw(wf, { n: 2, stream: true, selectedOutputs: ['myblock.result', 'SECOND.result'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const { records } = parseSse(text);
    expect(records).toEqual([
      { blockId: 'first', chunk: 'hello 2' },
      { blockId: 'second', chunk: JSON.stringify({ doubled: 4 }) },
      { event: 'done', success: true, output: { result: { doubled: 4 }, stdout: '' }, metadata: { duration: expect.any(Number) } },
      '[DONE]',
    ]);
    // Every event is a `data: ` line followed by a blank line.
    expect(text.replace(/^: ping\n\n/gm, '')).toMatch(/^(data: [^\n]+\n\n)+$/);
  });

  it('matches "My Block.result" the same as "myblock.result"', async () => {
    const wf = await createAndDeploy(t, streamingState());
    const spaced = parseSse((await streamRaw(wf, { n: 1, stream: true, selectedOutputs: ['My Block.result'] })).text).records;
    expect(spaced[0]).toEqual({ blockId: 'first', chunk: 'hello 1' });
  });

  it('refuses an unknown selected block with 400 before streaming', async () => {
    const wf = await createAndDeploy(t, streamingState());
    const { res, text } = await streamRaw(wf, { n: 1, stream: true, selectedOutputs: ['nosuch.result'] });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(JSON.parse(text)).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'selectedOutputs.0' }] });
  });

  it('reports a failed run in the done record with success false and the error', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'fn', type: 'function', name: 'Boom', config: { code: "throw new Error('kaput');" } },
        ],
        [['start', 'fn']],
      ),
    );
    const { records } = parseSse((await streamRaw(wf, { stream: true })).text);
    expect(records.at(-1)).toBe('[DONE]');
    expect(records.at(-2)).toMatchObject({ event: 'done', success: false, error: expect.stringContaining('kaput') });
  });

  /** A run that waits 20 s, called by a client that can go away (abort) while it runs. */
  async function callSlowRun(body: unknown) {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'slow', type: 'wait', name: 'Slow', config: { ms: 20_000 } },
        ],
        [['start', 'slow']],
      ),
    );
    const client = new AbortController();
    const res = fetch(`${t.url}/api/workflows/${wf}/execute`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: client.signal,
    });
    const rows = () => t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, wf));
    return { res, client, rows, finished: () => eventually(async () => (await rows()).find((r) => r.status !== 'running')) };
  }

  it('keeps the connection alive with : ping comments, and cancels the run when the client goes away', async () => {
    const run = await callSlowRun({ stream: true });
    const reader = (await run.res).body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain(': ping');
    run.client.abort();
    const row = await run.finished();
    // A caller that goes away cancels its run: logged as cancelled, level error.
    expect(row).toMatchObject({ status: 'cancelled', level: 'error' });
    expect(row.totalDurationMs!).toBeLessThan(20_000);
  });

  it('cancels a plain (not streaming) run when the client goes away', async () => {
    const run = await callSlowRun({});
    const answered = run.res.catch(() => undefined);
    // Its running marker says the run is under way.
    await eventually(async () => (await run.rows()).length > 0);
    run.client.abort();
    await answered;
    const row = await run.finished();
    expect(row).toMatchObject({ status: 'cancelled', level: 'error' });
    expect(row.totalDurationMs!).toBeLessThan(20_000);
  });

  it('runs many plain calls over one keep-alive connection without piling up listeners on it', async () => {
    const wf = await createAndDeploy(t, typedInput());
    const connection = new Agent({ connections: 1 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 15; i++) {
        const res = await undiciFetch(`${t.url}/api/workflows/${wf}/execute`, {
          method: 'POST',
          headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `call ${i}` }),
          dispatcher: connection,
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await connection.close();
    }
  });
});

describe('execute: limits', () => {
  it('limits sync runs per minute per owner with X-RateLimit headers and Retry-After', async () => {
    const limited = await startTestApp({ SLUICE_LIMIT_SYNC_FREE: '2' });
    try {
      const wf = await createAndDeploy(limited, typedInput());
      const call = () => limited.request('POST', `/api/workflows/${wf}/execute`, { body: { name: 'x' } });
      await freshRateWindow();
      const first = await call();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(Date.parse(first.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now() - 1000);
      expect((await call()).status).toBe(200);
      const third = await call();
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
      const usage = await limited.request('GET', '/api/users/me/usage-limits');
      expect(usage.body.rateLimit.sync).toMatchObject({ isLimited: true, limit: 2, remaining: 0 });
    } finally {
      await limited.close();
    }
  });

  it('adds each run\'s cost to the owner\'s period and refuses with 402 once over the plan limit', async () => {
    const limited = await startTestApp({ SLUICE_LIMIT_USAGE_USD_FREE: '0.0025', SLUICE_BASE_COST_USD: '0.001' });
    try {
      const wf = await createAndDeploy(limited, typedInput());
      const call = () => limited.request('POST', `/api/workflows/${wf}/execute`, { body: { name: 'x' } });
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const refused = await call();
      expect(refused.status).toBe(402);
      expect(refused.body.code).toBe('USAGE_LIMIT_EXCEEDED');
      const usage = await limited.request('GET', '/api/users/me/usage-limits');
      expect(usage.body.usage).toEqual({ currentPeriodCost: 0.003, limit: 0.0025, plan: 'free' });
    } finally {
      await limited.close();
    }
  });

  it('times out a sync run with 408 EXECUTION_TIMEOUT and logs it as an error', async () => {
    const slow = await startTestApp({ SLUICE_EXECUTION_TIMEOUT_MS: '1000' });
    try {
      const wf = await createAndDeploy(
        slow,
        makeState(
          [
            { id: 'start', type: 'api_trigger', name: 'API' },
            { id: 'slow', type: 'wait', name: 'Slow', config: { ms: 10_000 } },
          ],
          [['start', 'slow']],
        ),
      );
      const res = await slow.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      expect(res.status).toBe(408);
      expect(res.body).toMatchObject({ code: 'EXECUTION_TIMEOUT', executionId: expect.any(String) });
      const [row] = await slow.app.db.select(executionRow).from(executions).where(isExecution(res.body.executionId));
      expect(row).toMatchObject({ status: 'error', level: 'error' });
    } finally {
      await slow.close();
    }
  });

  it('replays the first response for a repeated Idempotency-Key without running again', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return Math.random();' } },
        ],
        [['start', 'fn']],
      ),
    );
    const headers = { 'Idempotency-Key': 'order-42' };
    const first = await execute(wf, {}, headers);
    const second = await execute(wf, {}, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const rows = await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, wf));
    expect(rows).toHaveLength(1);
    const other = await execute(wf, {}, { 'Idempotency-Key': 'order-43' });
    expect(other.body.executionId).not.toBe(first.body.executionId);
  });
});
