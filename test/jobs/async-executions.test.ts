// Async mode (docs/api.md 4.6): `X-Execution-Mode: async` → 202 and a durable job; `GET /api/jobs/{taskId}` follows it
// through queued → processing → completed | failed; another workspace's task is 404; a job taken over after a
// crash never runs its workflow twice.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { executions, jobs, stateSnapshots } from '../../src/db/schema.js';
import { createAppWorker } from '../../src/app/worker.js';
import { claimDueJobs } from '../../src/jobs/claim.js';
import type { Worker } from '../../src/jobs/worker.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { EXECUTION_JOB, enqueueAsyncExecution } from '../../src/runs/async-executions.js';
import { runExecution } from '../../src/runs/run-execution.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { newExecutionId } from '../../src/ids.js';
import type { WorkflowState } from '../../src/workflow/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createDeployedWorkflow, eventually, failingState, offsetClock, plainState, startReceiver, subscribe, type TestClock } from '../completion-webhooks/support.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
let clock: TestClock;
let worker: Worker | undefined;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_JOB_LEASE_MS: '1000' });
  clock = offsetClock();
});
afterEach(async () => {
  await worker?.stop(1000);
  worker = undefined;
});
afterAll(async () => t?.close());

async function startWorker() {
  worker = createAppWorker(t.app, { clock, pollIntervalMs: 50 });
  await worker.start();
  return worker;
}

const submit = (workflowId: string, body: unknown, apiKey?: string) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers: { 'X-Execution-Mode': 'async' }, apiKey });
const status = (taskId: string, apiKey?: string | null) => t.request('GET', `/api/jobs/${taskId}`, { apiKey });

async function finalStatus(taskId: string) {
  return eventually(async () => {
    const res = await status(taskId);
    return ['completed', 'failed'].includes(res.body.status) && res.body;
  }, 15_000, 'the task to finish');
}

/** api_trigger → api block calling `url` (so the test can count runs) → function. */
function sideEffectState(url: string): WorkflowState {
  return {
    blocks: {
      start: { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } },
      call: { id: 'call', type: 'api', name: 'Call', position: { x: 200, y: 0 }, enabled: true, config: { url, method: 'POST', retries: 0 } },
    },
    edges: [{ id: 'e1', source: 'start', target: 'call' }],
    loops: {},
    parallels: {},
  };
}

describe('async executions', () => {
  it('answers 202, stays queued without a worker, then completes with the output and a log', async () => {
    const wf = await createDeployedWorkflow(t, plainState());
    const res = await submit(wf.id, { q: 'later' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      success: true,
      async: true,
      taskId: expect.stringMatching(/^job_/),
      jobId: res.body.taskId,
      executionId: expect.stringMatching(/^exec_/),
      status: 'queued',
      createdAt: expect.any(String),
      links: { status: `/api/jobs/${res.body.taskId}` },
      statusUrl: expect.stringMatching(new RegExp(`/api/jobs/${res.body.taskId}$`)),
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('200');

    const queued = await status(res.body.taskId);
    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({
      success: true,
      taskId: res.body.taskId,
      status: 'queued',
      createdAt: res.body.createdAt,
      metadata: { workflowId: wf.id, executionId: res.body.executionId },
    });
    // Queued as its workspace's job: claims take turns between workspaces (test/jobs/tenant-fairness.test.ts).
    const [row] = await t.app.db.select({ tenant: jobs.tenant }).from(jobs).where(eq(jobs.id, res.body.taskId));
    expect(row.tenant).toBe(t.workspaceId);

    await startWorker();
    const done = await finalStatus(res.body.taskId);
    expect(done).toMatchObject({
      success: true,
      taskId: res.body.taskId,
      status: 'completed',
      output: { result: 'LATER' },
      metadata: { workflowId: wf.id, executionId: res.body.executionId, duration: expect.any(Number) },
    });
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
    expect(Date.parse(done.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    expect(done.error).toBeUndefined();

    const [log] = await t.app.db.select(executionRow).from(executions).where(isExecution(res.body.executionId));
    expect(log).toMatchObject({ status: 'success', trigger: 'api', workflowId: wf.id });
    expect((await t.request('GET', `/api/v1/logs/executions/${res.body.executionId}`)).status).toBe(200);
  });

  it('reports a failed workflow as failed with its error, and sends its completion webhook', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const wf = await createDeployedWorkflow(t, failingState());
      await subscribe(t, wf.id, { url: receiver.url });
      await startWorker();
      const res = await submit(wf.id, {});
      const done = await finalStatus(res.body.taskId);
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/boom/);
      await receiver.waitForRequests(1);
      const event = JSON.parse(receiver.requests[0].body.toString());
      expect(event.data).toMatchObject({ executionId: res.body.executionId, status: 'error', level: 'error', trigger: 'api' });
    } finally {
      await receiver.close();
    }
  });

  it('hides tasks from other workspaces and unknown ids (404), and wants a key (401)', async () => {
    const wf = await createDeployedWorkflow(t, plainState());
    const res = await submit(wf.id, { q: 'mine' });
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    expect((await status(res.body.taskId, outsider.apiKey)).status).toBe(404);
    expect((await status('job_doesnotexist')).status).toBe(404);
    expect((await status(res.body.taskId, null)).status).toBe(401);
    expect((await status('bad id!')).status).toBe(400);
    // A delivery job's id is not a task.
    await t.app.db.insert(jobs).values({ id: 'job_delivery_like', kind: 'webhook.deliver', payload: { deliveryId: 'x' }, status: 'completed' });
    expect((await status('job_delivery_like')).status).toBe(404);
    // The personal key of the owner reaches it too.
    expect((await status(res.body.taskId, t.personalKey)).status).toBe(200);
    // No worker ran here; the crash tests below claim "the next job" and must find their own.
    await t.app.db.delete(jobs).where(eq(jobs.id, res.body.taskId));
  });

  it('does not run again a job whose worker died after the run completed', async () => {
    const upstream = await startReceiver((_req, res) => res.end('{}'));
    try {
      const wf = await createDeployedWorkflow(t, sideEffectState(upstream.url));
      const queued = await enqueueAsyncExecution(t.app, { workflowId: wf.id, workspaceId: wf.workspaceId, deploymentVersion: wf.version, input: {}, trigger: 'api', executionId: newExecutionId() });
      // A worker claims it, runs the workflow to completion, and dies before recording the job's outcome.
      const [claimed] = await claimDueJobs(t.app.db, { workerId: 'doomed', kind: EXECUTION_JOB, limit: 1, now: clock.now(), leaseMs: 1000 });
      expect(claimed.id).toBe(queued.taskId);
      await runExecution(t.app, {
        workflow: { id: wf.id, workspaceId: wf.workspaceId },
        state: wf.state,
        deploymentVersion: wf.version,
        trigger: 'api',
        input: {},
        executionId: queued.executionId,
      });
      expect(upstream.requests).toHaveLength(1);
      expect((await status(queued.taskId)).body.status).toBe('processing');

      await startWorker();
      clock.advance(2_000);
      worker!.wake();
      const done = await finalStatus(queued.taskId);
      expect(done.status).toBe('completed');
      expect(done.metadata.executionId).toBe(queued.executionId);
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });

  it('does not start again a run its dead worker left half done: the log is closed as an error', async () => {
    const upstream = await startReceiver((_req, res) => res.end('{}'));
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const wf = await createDeployedWorkflow(t, sideEffectState(upstream.url));
      await subscribe(t, wf.id, { url: receiver.url });
      const queued = await enqueueAsyncExecution(t.app, { workflowId: wf.id, workspaceId: wf.workspaceId, deploymentVersion: wf.version, input: {}, trigger: 'api', executionId: newExecutionId() });
      await claimDueJobs(t.app.db, { workerId: 'doomed', kind: EXECUTION_JOB, limit: 1, now: clock.now(), leaseMs: 1000 });
      // The dead worker had written the run's log as running (as runExecution does first), then vanished.
      await t.app.db.insert(stateSnapshots).values({ hash: 'half-done', state: wf.state }).onConflictDoNothing();
      await t.app.db.insert(executions).values({
        id: 'log_half_done',
        executionId: queued.executionId,
        workspaceId: wf.workspaceId,
        workflowId: wf.id,
        deploymentVersion: wf.version,
        snapshotHash: 'half-done',
        trigger: 'api',
        status: 'running',
        startedAt: new Date(),
      });

      await startWorker();
      clock.advance(2_000);
      worker!.wake();
      const done = await finalStatus(queued.taskId);
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/stopped before it finished/);
      expect(upstream.requests).toHaveLength(0);
      const [log] = await t.app.db.select(executionRow).from(executions).where(eq(executions.id, 'log_half_done'));
      expect(log).toMatchObject({ status: 'error', level: 'error' });
      await receiver.waitForRequests(1);
      expect(JSON.parse(receiver.requests[0].body.toString()).data).toMatchObject({ executionId: queued.executionId, status: 'error' });
    } finally {
      await upstream.close();
      await receiver.close();
    }
  });
});
