// Throttle and debounce through the execute endpoint (docs/workflows.md "Flow control"), one process (PGlite, or
// PostgreSQL with TEST_DATABASE_URL): async runs over a throttle are delayed, never refused, and no period holds more
// starts than the limit; a sync call over it gets 429 THROTTLED; a burst of debounced async calls becomes one run with
// the last input, every call answered with its execution id; validation at save; export/import.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf } from '../support/workflows.js';
import { flowState, mostStartsInWindow, type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_METRICS_ENABLED: 'true' }, 150);
const { startWorker } = flow;
// The names the tests use, set once the app is up.
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

const execute = (workflowId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers });
const executeAsync = (workflowId: string, body: Record<string, unknown>) => execute(workflowId, body, { 'X-Execution-Mode': 'async' });

async function finished(taskId: string) {
  return eventually(async () => {
    const res = await t.request('GET', `/api/jobs/${taskId}`);
    return ['completed', 'failed', 'cancelled'].includes(res.body.status) && res.body;
  }, 60_000, `task ${taskId} to finish`);
}

/** When each logged run of the workflow started (its log's startedAt), from one page of the logs API. */
async function startTimes(workflowId: string): Promise<number[]> {
  const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${workflowId}&limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((log: { startedAt: string }) => Date.parse(log.startedAt));
}

describe('throttle and debounce', { timeout: 120_000 }, () => {
  it('throttle: async runs over the rate are delayed, not refused; no period holds more starts than the limit', async () => {
    const periodMs = 1000;
    const wf = await createAndDeploy(t, flowState(server.url, { throttle: { limit: 2, periodMs, key: '<api.customer>' } }), 'Throttled async');
    const tasks: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await executeAsync(wf, { customer: 't', tag: String(i) });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      tasks.push(res.body.taskId);
    }
    await startWorker();
    const results = await Promise.all(tasks.map(finished));
    expect(results.map((r) => r.status)).toEqual(tasks.map(() => 'completed'));
    const starts = await startTimes(wf);
    expect(starts).toHaveLength(6);
    expect(mostStartsInWindow(starts, periodMs)).toBeLessThanOrEqual(2);
    // A run held back says so on its log.
    const last = await logDetailOf(t, results[5].metadata.executionId);
    expect(last.flowControl).toEqual({ reason: 'throttle' });
    expect(last.queuedMs).toBeGreaterThan(0);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toMatch(new RegExp(`sluice_flow_control_waits_total\\{workflow_id="${wf}",reason="throttle"\\} \\d+`));
  });

  it('throttle: a sync call over the rate gets 429 THROTTLED with Retry-After; another key is not held back', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { throttle: { limit: 2, periodMs: 60_000, key: '<api.customer>' } }), 'Throttled sync');
    expect((await execute(wf, { customer: 's', tag: '1' })).status).toBe(200);
    expect((await execute(wf, { customer: 's', tag: '2' })).status).toBe(200);
    const refused = await execute(wf, { customer: 's', tag: '3' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'THROTTLED' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const streamed = await execute(wf, { customer: 's', tag: '4', stream: true });
    expect(streamed.status).toBe(429);
    expect(streamed.body.code).toBe('THROTTLED');
    expect((await execute(wf, { customer: 'other', tag: '5' })).status).toBe(200);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toContain(`sluice_flow_control_refusals_total{workflow_id="${wf}",code="THROTTLED"} 2`);
  });

  it('throttle with concurrency: a run that waited for its slot still counts against the rate', async () => {
    const wf = await createAndDeploy(
      t,
      flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>' }, throttle: { limit: 1, periodMs: 500, key: '<api.customer>' } }),
      'Throttled and limited',
    );
    const tasks: string[] = [];
    for (let i = 0; i < 4; i++) tasks.push((await executeAsync(wf, { customer: 'c', tag: String(i) })).body.taskId);
    await startWorker();
    const results = await Promise.all(tasks.map(finished));
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(mostStartsInWindow(await startTimes(wf), 500)).toBe(1);
  });

  it('debounce: a burst of async calls becomes one run with the last input; every call is answered with its execution id', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { debounce: { periodMs: 500, key: '<api.customer>' } }), 'Debounced');
    await startWorker();
    server.visits.length = 0;
    const answers: Array<Awaited<ReturnType<typeof executeAsync>>> = [];
    for (let i = 0; i < 10; i++) answers.push(await executeAsync(wf, { customer: 'd', tag: String(i) }));
    // Another key is a burst of its own.
    const other = await executeAsync(wf, { customer: 'e', tag: 'other' });
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const executionIds = new Set(answers.map((a) => a.body.executionId));
    expect(executionIds.size).toBe(1);
    expect(new Set(answers.map((a) => a.body.taskId)).size).toBe(1);
    expect(answers.every((a) => a.headers.get('x-execution-id') === answers[0].body.executionId)).toBe(true);
    expect(other.body.executionId).not.toBe(answers[0].body.executionId);
    const done = await finished(answers[0].body.taskId);
    expect(done.status).toBe('completed');
    await finished(other.body.taskId);
    expect(server.visits.filter((v) => v.key === 'd').map((v) => v.tag)).toEqual(['9']);
    expect(server.visits.filter((v) => v.key === 'e').map((v) => v.tag)).toEqual(['other']);
    const log = await logDetailOf(t, answers[0].body.executionId);
    expect(log.flowControl).toEqual({ reason: 'debounce' });
    expect(log.queuedMs).toBeGreaterThanOrEqual(500);
    // The burst is over once its run started: the next call is a new run.
    const next = await executeAsync(wf, { customer: 'd', tag: 'next' });
    expect(next.body.executionId).not.toBe(answers[0].body.executionId);
    await finished(next.body.taskId);
    expect(server.visits.filter((v) => v.key === 'd').map((v) => v.tag)).toEqual(['9', 'next']);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toContain(`sluice_flow_control_debounced_total{workflow_id="${wf}"} 9`);
  });

  it('debounce maxWaitMs: a burst that never pauses still runs, maxWaitMs after its first call', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { debounce: { periodMs: 400, maxWaitMs: 800 } }), 'Debounced max wait');
    await startWorker();
    server.visits.length = 0;
    const ids = new Set<string>();
    const first = Date.now();
    let i = 0;
    // Calls every 100 ms for 3 s: the burst never goes quiet for periodMs.
    while (Date.now() - first < 3000) {
      const res = await executeAsync(wf, { customer: 'm', tag: String(i++) });
      expect(res.status).toBe(202);
      ids.add(res.body.executionId);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ids.size).toBeGreaterThanOrEqual(2);
    await eventually(async () => server.visits.filter((v) => v.key === 'm').length === ids.size, 30_000, 'every burst to run');
  });

  it('a sync or streaming call of a debounced workflow is refused with 409 DEBOUNCED', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { debounce: { periodMs: 1000 } }), 'Debounced sync');
    const sync = await execute(wf, { customer: 'x', tag: '1' });
    expect(sync.status).toBe(409);
    expect(sync.body.code).toBe('DEBOUNCED');
    const stream = await execute(wf, { customer: 'x', tag: '1', stream: true });
    expect(stream.status).toBe(409);
    expect(stream.body.code).toBe('DEBOUNCED');
  });

  it('refuses invalid throttle and debounce settings at save with 400s naming the problem', async () => {
    const cases: Array<[unknown, string]> = [
      [{ throttle: { limit: 0, periodMs: 1000 } }, 'state.flowControl.throttle.limit'],
      [{ throttle: { limit: 1, periodMs: 10 } }, 'state.flowControl.throttle.periodMs'],
      [{ throttle: { limit: 1 } }, 'state.flowControl.throttle.periodMs'],
      [{ throttle: { limit: 1, periodMs: 1000, key: 'customer' } }, 'state.flowControl.throttle.key'],
      [{ debounce: { periodMs: 1000, maxWaitMs: 500 } }, 'state.flowControl.debounce.maxWaitMs'],
      [{ debounce: { periodMs: 1000, extra: 1 } }, 'state.flowControl.debounce'],
    ];
    for (const [flowControl, path] of cases) {
      const res = await t.request('POST', '/api/v1/workflows', {
        body: { workspaceId: t.workspaceId, name: 'Bad', state: flowState(server.url, flowControl as Record<string, unknown>) },
      });
      expect(res.status, JSON.stringify(flowControl)).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path), JSON.stringify(res.body.details)).toContain(path);
    }
  });

  it('the settings round-trip through export and import', async () => {
    const flowControl = { throttle: { limit: 5, periodMs: 60_000, key: '<api.customer>' }, debounce: { periodMs: 2000, key: '<api.customer>', maxWaitMs: 10_000 } };
    const wf = await createAndDeploy(t, flowState(server.url, flowControl), 'Exported throttle');
    const exported = await t.request('GET', `/api/v1/workflows/${wf}/export`);
    expect(exported.body.data.state.flowControl).toEqual(flowControl);
    const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: exported.body.data } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const read = await t.request('GET', `/api/v1/workflows/${imported.body.data.id}`);
    expect(read.body.data.state.flowControl).toEqual(flowControl);
  });
});
