// Manual runs (README "Other triggers"): the editor's Run button runs the DRAFT with the Input Format values, streams
// every block's progress, is logged with trigger `manual`, is not rate limited and is charged for usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  // One sync call a minute: manual runs must not be held to it.
  t = await startTestApp({ SLUICE_LIMIT_SYNC_FREE: '1', SLUICE_BASE_COST_USD: '0.001', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

const greeting = (word: string) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'name', type: 'string', value: 'Ada' }, { name: 'n', type: 'number', value: 2 }] } },
      { id: 'fn', type: 'function', name: 'Greet', config: { code: `return '${word} ' + <api.name> + ' x' + <api.n>;` } },
    ],
    [['start', 'fn']],
  );

async function createDraft(state: unknown) {
  const res = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Draft', state } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

const run = (workflowId: string, body?: unknown, options: { query?: string; headers?: Record<string, string>; apiKey?: string | null } = {}) =>
  t.request('POST', `/api/v1/workflows/${workflowId}/run${options.query ?? ''}`, { body, headers: options.headers, apiKey: options.apiKey });

describe('manual run', () => {
  it('streams run_started, per-block started/finished records, then done and [DONE], using the Input Format values', async () => {
    const wf = await createDraft(greeting('Hello'));
    const res = await run(wf);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { records } = parseSse(res.text);
    const events = records.map((r) => (typeof r === 'string' ? r : (r as { event: string }).event));
    expect(events).toEqual(['run_started', 'block_started', 'block_finished', 'block_started', 'block_finished', 'done', '[DONE]']);
    const [started, apiStarted, apiFinished, , fnFinished, done] = records as Array<Record<string, any>>;
    expect(started).toMatchObject({ event: 'run_started', executionId: expect.stringMatching(/^exec_/), workflowId: wf });
    expect(apiStarted).toMatchObject({ blockId: 'start', blockName: 'API', blockType: 'api_trigger' });
    expect(apiFinished.output).toMatchObject({ name: 'Ada', n: 2 });
    expect(fnFinished).toMatchObject({ event: 'block_finished', blockId: 'fn', output: { result: 'Hello Ada x2' }, durationMs: expect.any(Number) });
    expect(done).toMatchObject({ event: 'done', success: true, executionId: started.executionId, output: { result: 'Hello Ada x2' } });

    const log = await t.request('GET', `/api/v1/logs/executions/${started.executionId}`);
    expect(log.status).toBe(200);
    const logs = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&triggers=manual&workflowIds=${wf}`);
    expect(logs.body.data.map((l: { executionId: string; trigger: string }) => [l.executionId, l.trigger])).toEqual([[started.executionId, 'manual']]);
  });

  it('lets the body override Input Format values field by field', async () => {
    const wf = await createDraft(greeting('Hi'));
    const res = await run(wf, { input: { name: 'Grace' } }, { query: '?stream=false' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, executionId: expect.stringMatching(/^exec_/), output: { result: 'Hi Grace x2' } });
  });

  it('answers JSON when asked by Accept, and reports a failed block as an error record and a 500', async () => {
    const wf = await createDraft(
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'boom', type: 'function', name: 'Boom', config: { code: "throw new Error('kaput')" } },
        ],
        [['start', 'boom']],
      ),
    );
    const json = await run(wf, undefined, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(500);
    expect(json.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED', error: expect.stringContaining('kaput') });

    const streamed = parseSse((await run(wf)).text).records as Array<Record<string, any>>;
    expect(streamed.find((r) => r.event === 'block_finished' && r.blockId === 'boom')?.error).toContain('kaput');
    expect(streamed.find((r) => r.event === 'done')).toMatchObject({ success: false, error: expect.stringContaining('kaput') });
  });

  it('runs the draft, not the deployment, and starts at another trigger when named', async () => {
    const wf = await createAndDeploy(t, greeting('Deployed'));
    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: greeting('Draft') } });
    expect((await run(wf, {}, { query: '?stream=false' })).body.output).toMatchObject({ result: 'Draft Ada x2' });

    const twoTriggers = await createDraft(
      makeState(
        [
          { id: 'api', type: 'api_trigger', name: 'API' },
          { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: `manual-${Date.now()}` } },
          { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return <hook.body>;' } },
        ],
        [['hook', 'fn']],
      ),
    );
    const viaHook = await run(twoTriggers, { triggerBlockId: 'hook', input: { body: { ping: 1 } } }, { query: '?stream=false' });
    expect(viaHook.body.output).toMatchObject({ result: { ping: 1 } });
    const unknown = await run(twoTriggers, { triggerBlockId: 'fn' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'triggerBlockId', message: expect.any(String) }]);
  });

  it('is not rate limited but is counted for usage', async () => {
    const wf = await createDraft(greeting('Count'));
    const before = (await t.request('GET', '/api/users/me/usage-limits')).body.usage.currentPeriodCost as number;
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await run(wf, undefined, { query: '?stream=false' }));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results[0].headers.get('x-ratelimit-limit')).toBeNull();
    const after = (await t.request('GET', '/api/users/me/usage-limits')).body.usage.currentPeriodCost as number;
    expect(after - before).toBeCloseTo(0.003, 6);
  });

  it('needs a key with access: 401 without one, 404 for another workspace, 400 for a malformed body', async () => {
    const wf = await createDraft(greeting('Auth'));
    expect((await run(wf, undefined, { apiKey: null })).status).toBe(401);
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    expect((await run(wf, undefined, { apiKey: outsider.apiKey })).status).toBe(404);
    expect((await run(wf, { input: 'nope' })).body.code).toBe('VALIDATION_ERROR');
    const malformed = await t.request('POST', `/api/v1/workflows/${wf}/run`, { rawBody: '{"input":', headers: { 'content-type': 'application/json' } });
    expect(malformed.body.code).toBe('INVALID_JSON');
  });
});
