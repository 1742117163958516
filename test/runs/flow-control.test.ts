// Flow control through the execute endpoint (docs/workflows.md "Flow control"), one process (PGlite, or PostgreSQL
// with TEST_DATABASE_URL): concurrency limits per key for async and sync calls, singleton skip, cancel-running,
// priority, validation at save, the log's queuedMs / flowControl, the metrics, and export/import.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf } from '../support/workflows.js';
import { flowState, noOverlapPerKey, type RecordingServer } from './flow-support.js';
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
const executeAsync = (workflowId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  execute(workflowId, body, { 'X-Execution-Mode': 'async', ...headers });

async function finished(taskId: string) {
  return eventually(async () => {
    const res = await t.request('GET', `/api/jobs/${taskId}`);
    return ['completed', 'failed', 'cancelled'].includes(res.body.status) && res.body;
  }, 60_000, `task ${taskId} to finish`);
}

describe('flow control', { timeout: 120_000 }, () => {
  it('20 async runs with limit 1 per key over 4 keys: runs of a key never overlap, the keys run side by side', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>' } }), 'Per customer');
    server.visits.length = 0;
    const tasks: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await executeAsync(wf, { customer: `c${i % 4}`, tag: String(i) });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      tasks.push(res.body.taskId);
    }
    await startWorker();
    const results = await Promise.all(tasks.map(finished));
    expect(results.map((r) => r.status)).toEqual(tasks.map(() => 'completed'));
    expect(server.visits).toHaveLength(20);
    expect(noOverlapPerKey(server.visits)).toBe(true);
    expect([...server.peakPerKey().values()]).toEqual([1, 1, 1, 1]);
    expect(server.peak()).toBeGreaterThan(1);
    // Each key's runs went in the order they were queued.
    for (let k = 0; k < 4; k++) {
      const order = server.visits.filter((v) => v.key === `c${k}`).sort((a, b) => a.start - b.start).map((v) => Number(v.tag));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    // A run that waited for its key says so on its log.
    const last = await logDetailOf(t, results[19].metadata.executionId);
    expect(last.flowControl).toEqual({ reason: 'concurrency' });
    expect(last.queuedMs).toBeGreaterThan(0);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toMatch(new RegExp(`sluice_flow_control_waits_total\\{workflow_id="${wf}",reason="concurrency"\\} \\d+`));
  });

  it('a sync call over the limit waits up to maxWaitMs, then gets 429 CONCURRENCY_LIMIT with Retry-After', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>', maxWaitMs: 300 } }), 'Sync limit');
    const gate = server.hold();
    const first = execute(wf, { customer: 'a', tag: 'first' });
    await eventually(async () => server.inFlight('a') === 1, 10_000, 'the first run to be in flight');
    const refused = await execute(wf, { customer: 'a', tag: 'second' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'CONCURRENCY_LIMIT' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another key is not held back.
    const other = execute(wf, { customer: 'b', tag: 'other' });
    await eventually(async () => server.inFlight('b') === 1, 10_000, 'the other key to run');
    gate.release();
    expect((await first).status).toBe(200);
    expect((await other).status).toBe(200);
    // The slot is free again once the run ended.
    expect((await execute(wf, { customer: 'a', tag: 'third' })).status).toBe(200);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toContain(`sluice_flow_control_refusals_total{workflow_id="${wf}",code="CONCURRENCY_LIMIT"} 1`);
  });

  it('a limit lowered by a new deployment holds while the old runs finish', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 3, key: '<api.customer>' } }), 'Lowered limit');
    const firstGate = server.hold();
    const first = execute(wf, { customer: 'l', tag: 'first' });
    await eventually(async () => server.inFlight('l') === 1, 10_000, 'the first run to be in flight');
    const laterGate = server.hold();
    const later = [execute(wf, { customer: 'l', tag: 'second' }), execute(wf, { customer: 'l', tag: 'third' })];
    await eventually(async () => server.inFlight('l') === 3, 10_000, 'three runs to be in flight');
    const saved = await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>' } }) } });
    expect(saved.status, saved.text).toBe(200);
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    // The first run's slot is free, but two old runs are still in flight: over the new limit of 1.
    firstGate.release();
    expect((await first).status).toBe(200);
    const refused = await execute(wf, { customer: 'l', tag: 'refused' });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toMatchObject({ code: 'CONCURRENCY_LIMIT' });
    laterGate.release();
    expect((await Promise.all(later)).map((r) => r.status)).toEqual([200, 200]);
    expect((await execute(wf, { customer: 'l', tag: 'after' })).status).toBe(200);
  });

  it('an async call of a key whose sync run is in flight waits for that run, then sync calls go again', async () => {
    // The process serving the sync calls alone keeps their slots in memory (a lease); the async call has them written
    // out first, so its run waits in the queue for the sync run's slot.
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>' } }), 'Lease hand-over');
    expect((await execute(wf, { customer: 'h', tag: 'warm' })).status).toBe(200);
    server.visits.length = 0;
    const gate = server.hold();
    const syncRun = execute(wf, { customer: 'h', tag: 'sync' });
    await eventually(async () => server.inFlight('h') === 1, 10_000, 'the sync run to be in flight');
    const queued = await executeAsync(wf, { customer: 'h', tag: 'async' });
    expect(queued.status, queued.text).toBe(202);
    await startWorker();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.inFlight('h')).toBe(1);
    gate.release();
    expect((await syncRun).status).toBe(200);
    expect((await finished(queued.body.taskId)).status).toBe('completed');
    expect(noOverlapPerKey(server.visits)).toBe(true);
    expect(server.visits.map((v) => v.tag)).toEqual(['sync', 'async']);
    // The key is free again for sync calls, one at a time.
    const again = server.hold();
    const first = execute(wf, { customer: 'h', tag: 'again' });
    await eventually(async () => server.inFlight('h') === 1, 10_000, 'the next sync run to be in flight');
    expect((await execute(wf, { customer: 'h', tag: 'refused' })).status).toBe(429);
    again.release();
    expect((await first).status).toBe(200);
  });

  it('a sync call that waited and then got its slot has queuedMs and the reason on its log', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, maxWaitMs: 20_000 } }), 'Sync wait');
    const gate = server.hold();
    const first = execute(wf, { customer: 'w', tag: '1' });
    await eventually(async () => server.inFlight('w') === 1, 10_000, 'the first run to be in flight');
    const sentAt = Date.now();
    const second = execute(wf, { customer: 'w', tag: '2' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.inFlight('w')).toBe(1);
    gate.release();
    expect((await first).status).toBe(200);
    const answered = await second;
    const answeredAfterMs = Date.now() - sentAt;
    expect(answered.status).toBe(200);
    const log = await logDetailOf(t, answered.headers.get('x-execution-id')!);
    expect(log.flowControl).toEqual({ reason: 'concurrency' });
    // It waited while the first held the slot (held at least 300 ms after it was sent), within the call's own time.
    expect(log.queuedMs).toBeGreaterThan(0);
    expect(log.queuedMs).toBeLessThanOrEqual(answeredAfterMs);
  });

  it('singleton skip: a call while a run for the key is in flight is 409 ALREADY_RUNNING naming that run', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { singleton: { key: '<api.customer>', mode: 'skip' } }), 'Singleton');
    const gate = server.hold();
    const first = execute(wf, { customer: 's', tag: '1' });
    await eventually(async () => server.inFlight('s') === 1, 10_000, 'the first run to be in flight');
    const skipped = await execute(wf, { customer: 's', tag: '2' });
    const skippedAsync = await executeAsync(wf, { customer: 's', tag: '3' });
    gate.release();
    const done = await first;
    expect(done.status).toBe(200);
    expect(skipped.status).toBe(409);
    expect(skipped.body).toMatchObject({ code: 'ALREADY_RUNNING', runningExecutionId: done.headers.get('x-execution-id') });
    expect(skippedAsync.status).toBe(409);
    expect(skippedAsync.body).toMatchObject({ code: 'ALREADY_RUNNING', runningExecutionId: done.headers.get('x-execution-id') });
    // Once it ended, the key is free.
    expect((await execute(wf, { customer: 's', tag: '4' })).status).toBe(200);
  });

  it('onLimit reject refuses async calls over the limit with 429', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, onLimit: 'reject' } }), 'Reject');
    const gate = server.hold();
    const first = execute(wf, { customer: 'r', tag: '1' });
    await eventually(async () => server.inFlight('r') === 1, 10_000, 'the first run to be in flight');
    const refused = await executeAsync(wf, { customer: 'r', tag: '2' });
    gate.release();
    expect((await first).status).toBe(200);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('CONCURRENCY_LIMIT');
  });

  it('cancel-running: the newest call replaces the running one, which is logged as cancelled', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>', onLimit: 'cancel-running' } }), 'Replace');
    const gate = server.hold();
    const first = execute(wf, { customer: 'x', tag: 'old' });
    await eventually(async () => server.inFlight('x') === 1, 10_000, 'the first run to be in flight');
    const newer = execute(wf, { customer: 'x', tag: 'new' });
    const old = await first;
    gate.release();
    const replaced = await newer;
    expect(replaced.status).toBe(200);
    expect(old.status).toBe(409);
    expect(old.body.code).toBe('EXECUTION_CANCELLED');
    const oldLog = await logDetailOf(t, old.headers.get('x-execution-id')!);
    expect(oldLog.status).toBe('cancelled');
  });

  it('priority: a workspace’s higher priority async runs are claimed first; out of range is 400', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1 }, priority: 0 }), 'Priority');
    server.visits.length = 0;
    const order = [
      ['low', '-50'],
      ['normal', undefined],
      ['high', '90'],
      ['higher', '100'],
    ] as const;
    const tasks: string[] = [];
    for (const [tag, priority] of order) {
      const res = await executeAsync(wf, { customer: 'p', tag }, priority ? { 'X-Execution-Priority': priority } : {});
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      tasks.push(res.body.taskId);
    }
    await startWorker();
    await Promise.all(tasks.map(finished));
    expect(server.visits.sort((a, b) => a.start - b.start).map((v) => v.tag)).toEqual(['higher', 'high', 'normal', 'low']);

    for (const bad of ['101', '-101', '1.5', 'high']) {
      const res = await executeAsync(wf, { customer: 'p', tag: 'bad' }, { 'X-Execution-Priority': bad });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'X-Execution-Priority', message: 'must be a whole number from -100 to 100' }]);
    }
  });

  it('refuses invalid settings at save with 400s naming the problem', async () => {
    const cases: Array<[unknown, string]> = [
      [{ concurrency: { limit: 0 } }, 'state.flowControl.concurrency.limit'],
      [{ concurrency: { limit: 1, key: 'customer' } }, 'state.flowControl.concurrency.key'],
      [{ concurrency: { limit: 1, onLimit: 'drop' } }, 'state.flowControl.concurrency.onLimit'],
      [{ singleton: { mode: 'later' } }, 'state.flowControl.singleton.mode'],
      [{ priority: 101 }, 'state.flowControl.priority'],
      [{ concurrency: { limit: 1 }, singleton: { mode: 'skip' } }, 'state.flowControl'],
    ];
    for (const [flowControl, path] of cases) {
      const res = await t.request('POST', '/api/v1/workflows', {
        body: { workspaceId: t.workspaceId, name: 'Bad', state: flowState(server.url, flowControl as Record<string, unknown>) },
      });
      expect(res.status, JSON.stringify(flowControl)).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('the settings round-trip through export and import', async () => {
    const flowControl = { concurrency: { limit: 3, key: '<api.customer>', onLimit: 'queue', maxWaitMs: 1000 }, priority: 7 };
    const wf = await createAndDeploy(t, flowState(server.url, flowControl), 'Exported');
    const exported = await t.request('GET', `/api/v1/workflows/${wf}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.data.state.flowControl).toEqual(flowControl);
    const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: exported.body.data } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const read = await t.request('GET', `/api/v1/workflows/${imported.body.data.id}`);
    expect(read.body.data.state.flowControl).toEqual(flowControl);
  });
});
