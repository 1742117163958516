// Long runs (docs/workflows.md "Long runs"): a workflow's own time limit (`flowControl.timeoutMs`) for runs nobody
// waits on, while sync calls keep the server's bound; a wait block longer than a few seconds parks an async run — it
// holds no worker slot meanwhile and is resumed at its due time — and the time limit counts the time it was parked.
// Driven through the execute endpoint with one in-process worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';

const WORKER_CONCURRENCY = 8;
/** The slots async runs get: half the worker's (runs/async-executions.ts). */
const ASYNC_SLOTS = WORKER_CONCURRENCY / 2;
let t: TestApp;
let worker: Worker;
beforeAll(async () => {
  // A sync call may take 2 s at most; a worker of concurrency 8 gives async runs 4 slots (half of them).
  t = await startTestApp({
    SLUICE_WORKER_POLL_MS: '50',
    SLUICE_LIMIT_LOGS_FREE: 'unlimited',
    SLUICE_EXECUTION_TIMEOUT_MS: '2000',
    SLUICE_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
  });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(1_000);
  await t?.close();
});

/** API → wait `ms` → a response that echoes the input (no sandbox: its cold start is not what these tests time). */
const waitingState = (ms: number | string, flowControl?: Record<string, unknown>) => ({
  ...makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
      { id: 'pause', type: 'wait', name: 'Pause', config: { ms } },
      { id: 'after', type: 'response', name: 'After', config: { body: { item: '<api.item>', waited: '<pause.waitedMs>' } } },
    ],
    [
      ['start', 'pause'],
      ['pause', 'after'],
    ],
  ),
  ...(flowControl ? { flowControl } : {}),
});

const executeAsync = async (workflowId: string, body: Record<string, unknown>) => {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers: { 'X-Execution-Mode': 'async' } });
  expect(res.status, res.text).toBe(202);
  return { taskId: res.body.taskId as string, executionId: res.body.executionId as string };
};
const jobOf = async (taskId: string) => (await t.request('GET', `/api/jobs/${taskId}`)).body;
const finishedJob = (taskId: string, timeoutMs = 30_000) =>
  eventually(async () => {
    const job = await jobOf(taskId);
    return ['completed', 'failed', 'cancelled'].includes(job.status) && job;
  }, timeoutMs, `job ${taskId} to finish`);
const pausedRuns = async () => (await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`)).body.data;
const parkedRun = (executionId: string) =>
  eventually(async () => (await pausedRuns()).find((run: { executionId: string }) => run.executionId === executionId), 15_000, 'the run to park');

describe('the workflow time limit', () => {
  it('refuses a time limit over 7 days or under a second, and a wait over 7 days, naming the field', async () => {
    for (const [timeoutMs, message] of [
      [7 * 24 * 3_600_000 + 1, 'at most 604800000 ms (7 days)'],
      [999, 'at least 1000 ms'],
    ] as const) {
      const res = await t.request('POST', '/api/v1/workflows', {
        body: { workspaceId: t.workspaceId, name: 'Too long', state: waitingState(10, { timeoutMs }) },
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('timeoutMs');
      expect(res.text).toContain(message);
    }
    const wait = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Long wait', state: waitingState(7 * 24 * 3_600_000 + 1) },
    });
    expect(wait.status).toBe(400);
    expect(wait.text).toContain('must be at most 604800000 ms (7 days)');
  });

  it('gives an async run the workflow limit beyond the server bound, while a sync call of it keeps the bound', async () => {
    // 3 s wait: over the 2 s bound, short enough to sleep in process rather than park.
    const wf = await createAndDeploy(t, waitingState(3000, { timeoutMs: 60_000 }), 'Longer than a request');
    const sync = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { item: 'sync' } });
    expect(sync.status, sync.text).toBe(408);
    expect(sync.body).toMatchObject({ code: 'EXECUTION_TIMEOUT', error: 'Execution timed out after 2000 ms' });

    const { taskId } = await executeAsync(wf, { item: 'async' });
    const job = await finishedJob(taskId);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.output.body).toEqual({ item: 'async', waited: 3000 });
  });

  it('round-trips through export and import', async () => {
    const wf = await createAndDeploy(t, waitingState(10, { timeoutMs: 86_400_000, priority: 5 }), 'Exported');
    const exported = await t.request('GET', `/api/v1/workflows/${wf}/export`);
    expect(exported.body.data.state.flowControl).toEqual({ timeoutMs: 86_400_000, priority: 5 });
    const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: exported.body.data } });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body.data.state.flowControl).toEqual({ timeoutMs: 86_400_000, priority: 5 });
  });
});

describe('a long wait parks the run', () => {
  it('frees its worker slot while parked, shows when it goes on, and finishes with the right output', { timeout: 60_000 }, async () => {
    const waits = await createAndDeploy(t, waitingState(10_000, { timeoutMs: 120_000 }), 'Waits 10 s');
    const quick = await createAndDeploy(t, waitingState(0, { timeoutMs: 60_000 }), 'Quick');

    // As many parked runs as async runs have slots: none of them holds one.
    const parked = [];
    for (let i = 0; i < ASYNC_SLOTS; i++) parked.push(await executeAsync(waits, { item: `parcel ${i}` }));
    const listed = await parkedRun(parked[0].executionId);
    expect(listed).toMatchObject({ kind: 'wait', blockId: 'pause', workflowId: waits });
    expect(Date.parse(listed.resumeAt) - Date.parse(listed.pausedAt)).toBeGreaterThan(5000);
    for (const run of parked) await parkedRun(run.executionId);
    expect((await jobOf(parked[0].taskId)).status).toBe('paused');
    // Nobody decides a wait: it is not resumed early.
    const early = await t.request('POST', `/api/v1/executions/${parked[0].executionId}/resume`, { body: { approved: true } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('EXECUTION_NOT_PAUSED');

    // Another async run goes through while they are parked.
    const other = await executeAsync(quick, { item: 'meanwhile' });
    const otherJob = await finishedJob(other.taskId);
    expect(otherJob.output.body).toEqual({ item: 'meanwhile', waited: 0 });
    expect((await jobOf(parked[0].taskId)).status).toBe('paused');

    for (const [i, run] of parked.entries()) {
      const done = await finishedJob(run.taskId);
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.output.body).toEqual({ item: `parcel ${i}`, waited: 10_000 });
    }
    const detail = await logDetailOf(t, parked[0].executionId);
    expect(detail.status).toBe('success');
    expect(detail.approvals.pauses).toBe(1);
    expect(detail.approvals.pausedMs).toBeGreaterThan(5000);
    expect(detail.approvals.decisions).toEqual({});
    const stillParked = (await pausedRuns()).map((run: { executionId: string }) => run.executionId);
    for (const run of parked) expect(stillParked).not.toContain(run.executionId);
  });

  it('ends a run parked past its time limit as timed out when it wakes', { timeout: 60_000 }, async () => {
    const wf = await createAndDeploy(t, waitingState(10_000, { timeoutMs: 6000 }), 'Waits past its limit');
    const run = await executeAsync(wf, { item: 'late' });
    await parkedRun(run.executionId);
    const job = await finishedJob(run.taskId);
    expect(job.status).toBe('failed');
    expect(job.error).toContain('Execution timed out after 6000 ms');
    const detail = await logDetailOf(t, run.executionId);
    expect(detail.status).toBe('error');
    expect(detail.error).toContain('Execution timed out after 6000 ms');
  });

  it('cancels a parked run: logged as cancelled, no longer listed as parked', async () => {
    const wf = await createAndDeploy(t, waitingState(3_600_000, { timeoutMs: 7_200_000 }), 'Waits an hour');
    const run = await executeAsync(wf, { item: 'never' });
    await parkedRun(run.executionId);
    const cancelled = await t.request('POST', `/api/v1/executions/${run.executionId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    const detail = await logDetailOf(t, run.executionId);
    expect(detail.status).toBe('cancelled');
    expect(detail.error).toBe('Execution cancelled while it waited in a wait block');
    expect((await jobOf(run.taskId)).status).toBe('cancelled');
    expect((await pausedRuns()).map((r: { executionId: string }) => r.executionId)).not.toContain(run.executionId);
  });
});
