// Human approval (README "Human approval"): an approval block pauses its run durably; a resume request (or the
// block's time-out) decides, and a worker — in any process — carries the run on from where it stopped, without
// calling upstream services again. Driven as a user would: execute, list what waits, resume, read the log and the
// completion webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { enqueueJob } from '../../src/jobs/enqueue.js';
import { reopenStrandedResumes, RESUME_JOB } from '../../src/runs/index.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { json, startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startReceiver, subscribe } from '../completion-webhooks/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { restartableSluice } from '../support/restartable.js';
import { createAndDeploy, eventually, logDetailOf, makeState, parseSse } from '../support/workflows.js';
import { isExecution } from '../../src/db/execution-lookup.js';

let t: TestApp;
let worker: Worker;
let upstream: FakeUpstream;
beforeAll(async () => {
  // Tests poll the logs API; its per-minute limit is not what they are about.
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  upstream = await startUpstream((_req, res, _recorded, index) => json(res, 200, { order: index + 1 }));
});
afterAll(async () => {
  await worker?.stop(1_000);
  await upstream?.close();
  await t?.close();
});

/** API → call an upstream → approval → a function that reports what it saw. */
const gatedState = (gate: Record<string, unknown> = { message: 'Ship order <call.data.order>?' }, url = `${upstream.url}/orders`) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
      { id: 'call', type: 'api', name: 'Call', config: { url, method: 'POST', retries: 0 } },
      { id: 'gate', type: 'approval', name: 'Gate', config: gate },
      {
        id: 'after',
        type: 'function',
        name: 'After',
        config: { code: 'return { approved: <gate.approved>, data: <gate.data>, by: <gate.decidedBy>, order: <call.data>.order, item: <api.item> };' },
      },
    ],
    [
      ['start', 'call'],
      ['call', 'gate'],
      ['gate', 'after'],
    ],
  );

const execute = (workflowId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers });
const resume = (executionId: string, body: unknown, apiKey?: string) =>
  t.request('POST', `/api/v1/executions/${executionId}/resume`, { body, apiKey });
const pausedRuns = async () => (await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`)).body.data;


/** An async call of `workflowId`: its job is seen paused, the run approved, and the completed job answered. */
async function approvedAsyncRun(workflowId: string, body: Record<string, unknown>) {
  const queued = await execute(workflowId, body, { 'X-Execution-Mode': 'async' });
  expect(queued.status).toBe(202);
  const job = (status: string) =>
    eventually(async () => {
      const res = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
      return res.body.status === status ? res.body : undefined;
    }, 15_000, `the job to be ${status}`);
  await job('paused');
  expect((await resume(queued.body.executionId, { approved: true })).status).toBe(202);
  return job('completed');
}

describe('approval', () => {
  it('pauses a sync call (202 with a resume link), waits in the paused list, and goes on when approved', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const wf = await createAndDeploy(t, gatedState());
      await subscribe(t, wf, { url: receiver.url, includeFinalOutput: true });
      const calls = upstream.requests.length;

      const paused = await execute(wf, { item: 'book' });
      expect(paused.status, paused.text).toBe(202);
      const { executionId } = paused.body;
      expect(paused.headers.get('x-execution-id')).toBe(executionId);
      expect(paused.body).toEqual({ executionId, status: 'paused', links: { resume: `/api/v1/executions/${executionId}/resume` } });
      expect(upstream.requests.length).toBe(calls + 1);
      const order = calls + 1;

      // Waiting: listed with its message, not yet a log, no webhook.
      expect(await pausedRuns()).toContainEqual(
        expect.objectContaining({ executionId, workflowId: wf, blockId: 'gate', message: `Ship order ${order}?`, timeoutAt: null }),
      );
      const logs = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
      expect(logs.body.data).toEqual([]);

      await new Promise((resolve) => setTimeout(resolve, 300)); // a measurable wait
      const resumed = await resume(executionId, { approved: true, data: { note: 'looks fine' } });
      expect(resumed.status, resumed.text).toBe(202);
      expect(resumed.body.data).toEqual({ executionId, status: 'resuming' });

      const log = await logDetailOf(t, executionId);
      expect(log).toMatchObject({ status: 'success', level: 'info' });
      expect(log.executionData.finalOutput.result).toEqual({ approved: true, data: { note: 'looks fine' }, by: t.userId, order, item: 'book' });
      expect(log.approvals).toMatchObject({ pauses: 1, decisions: { gate: { approved: true, decidedBy: t.userId, data: { note: 'looks fine' } } } });
      expect(log.approvals.pausedMs).toBeGreaterThanOrEqual(300);
      // The trace shows every block once; the upstream was not called again on resume.
      expect(log.executionData.traceSpans.map((s: { blockId: string }) => s.blockId)).toEqual(['start', 'call', 'gate', 'after']);
      expect(upstream.requests.length).toBe(calls + 1);
      expect(await pausedRuns()).not.toContainEqual(expect.objectContaining({ executionId }));

      // Subscribers hear of the run once, when it completes.
      await eventually(() => receiver.requests.length > 0, 10_000, 'the completion webhook');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.requests).toHaveLength(1);
      expect(JSON.parse(receiver.requests[0].body.toString()).data).toMatchObject({ executionId, status: 'success' });

      // Decided once: a second decision is refused.
      const again = await resume(executionId, { approved: false });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('EXECUTION_NOT_PAUSED');
    } finally {
      await receiver.close();
    }
  });

  it('passes a rejection downstream, so the workflow can branch on it', async () => {
    const wf = await createAndDeploy(t, gatedState({}));
    const paused = await execute(wf, { item: 'pen' });
    expect(paused.status).toBe(202);
    expect((await resume(paused.body.executionId, { approved: false })).status).toBe(202);
    const log = await logDetailOf(t, paused.body.executionId);
    expect(log.status).toBe('success');
    expect(log.executionData.finalOutput.result).toMatchObject({ approved: false, data: {}, item: 'pen' });
  });

  it('applies the default decision when its time-out passes with no decision', async () => {
    const wf = await createAndDeploy(t, gatedState({ timeoutMs: 1_000, defaultDecision: 'approve' }));
    const paused = await execute(wf, { item: 'lamp' });
    expect(paused.status).toBe(202);
    const [listed] = (await pausedRuns()).filter((run: { executionId: string }) => run.executionId === paused.body.executionId);
    expect(listed.defaultDecision).toBe('approve');
    expect(Date.parse(listed.timeoutAt) - Date.parse(listed.pausedAt)).toBe(1_000);
    const log = await logDetailOf(t, paused.body.executionId);
    expect(log.executionData.finalOutput.result).toMatchObject({ approved: true, by: null, item: 'lamp' });
    expect(log.approvals.decisions.gate.decidedBy).toBeNull();
    // Decided by the time-out: a late decision is refused.
    expect((await resume(paused.body.executionId, { approved: false })).status).toBe(409);
  });

  it('tells a streaming caller where to resume, and an async caller’s job follows the run through its pause', async () => {
    const wf = await createAndDeploy(t, gatedState({}));
    const streamed = await fetch(`${t.url}/api/workflows/${wf}/execute`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, item: 'cup' }),
    });
    const { records } = parseSse(await streamed.text());
    const executionId = streamed.headers.get('x-execution-id')!;
    expect(records.at(-1)).toBe('[DONE]');
    expect(records.at(-2)).toMatchObject({ event: 'done', success: true, paused: true, executionId, links: { resume: `/api/v1/executions/${executionId}/resume` } });
    expect((await resume(executionId, { approved: true })).status).toBe(202);
    expect((await logDetailOf(t, executionId)).executionData.finalOutput.result).toMatchObject({ approved: true, item: 'cup' });

    const done = await approvedAsyncRun(wf, { item: 'mug' });
    expect(done.output.result).toMatchObject({ approved: true, item: 'mug' });
  });

  it("answers an async caller's job with the whole final output after the pause, even one too large for the log row", async () => {
    // Over SLUICE_INLINE_VALUE_LIMIT (64 KB): the log keeps it in file storage, the job's answer reads it back from there.
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'gate', type: 'approval', name: 'Gate', config: {} },
          { id: 'big', type: 'function', name: 'Big', config: { code: "return { text: 'z'.repeat(100000) };" } },
        ],
        [
          ['start', 'gate'],
          ['gate', 'big'],
        ],
      ),
    );
    const done = await approvedAsyncRun(wf, {});
    expect(done.output.result.text).toBe('z'.repeat(100_000));
  });

  it('can be cancelled while it waits: logged as cancelled, webhook sent, no longer resumable', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const wf = await createAndDeploy(t, gatedState({}));
      await subscribe(t, wf, { url: receiver.url });
      const paused = await execute(wf, {});
      const { executionId } = paused.body;
      const cancelled = await t.request('POST', `/api/v1/executions/${executionId}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body.data).toEqual({ executionId, status: 'cancelled' });
      const log = await logDetailOf(t, executionId);
      expect(log).toMatchObject({ status: 'cancelled', level: 'error', error: 'Execution cancelled while it waited for an approval' });
      expect(log.approvals).toMatchObject({ pauses: 1, decisions: {} });
      await eventually(() => receiver.requests.length > 0, 10_000, 'the completion webhook');
      expect(JSON.parse(receiver.requests[0].body.toString()).data).toMatchObject({ executionId, status: 'error' });
      expect((await resume(executionId, { approved: true })).status).toBe(409);
      expect((await t.request('POST', `/api/v1/executions/${executionId}/cancel`)).status).toBe(409);
    } finally {
      await receiver.close();
    }
  });

  it('waits for a decision again when its resume job failed for good, and can then be decided', async () => {
    const wf = await createAndDeploy(t, gatedState({}));
    const paused = await execute(wf, { item: 'mug' });
    const { executionId } = paused.body;
    // What a resume job that kept failing before the run restarted leaves: decided, and nobody left to resume it.
    await t.app.db.execute(sql`update executions set status = 'resuming',
      pause = jsonb_set(pause, '{pending}', '{"approved":true,"data":{},"decidedBy":null,"decidedAt":"2026-01-01T00:00:00.000Z"}')
      where ${isExecution(executionId)}`);
    expect((await resume(executionId, { approved: true })).status).toBe(409);
    expect(await reopenStrandedResumes(t.app.db)).toBe(1);
    expect((await pausedRuns()).map((run: { executionId: string }) => run.executionId)).toContain(executionId);
    expect((await resume(executionId, { approved: true, data: { note: 'again' } })).status).toBe(202);
    const log = await logDetailOf(t, executionId);
    expect(log.executionData.finalOutput.result).toMatchObject({ approved: true, data: { note: 'again' }, item: 'mug' });

    // One whose resume job is still queued (here: not due for an hour) is left to it.
    const waiting = (await execute(wf, { item: 'cup' })).body.executionId;
    await t.app.db.execute(sql`update executions set status = 'resuming' where ${isExecution(waiting)}`);
    await enqueueJob(t.app.db, { kind: RESUME_JOB, payload: { executionId: waiting }, runAt: new Date(Date.now() + 3_600_000) });
    expect(await reopenStrandedResumes(t.app.db)).toBe(0);
    expect((await t.request('POST', `/api/v1/executions/${waiting}/cancel`)).body.data).toEqual({ executionId: waiting, status: 'cancelled' });
  });

  it('refuses bad decisions, other tenants and approvals where a run cannot wait', async () => {
    const wf = await createAndDeploy(t, gatedState({}));
    const paused = await execute(wf, {});
    const { executionId } = paused.body;
    const invalid = await resume(executionId, { approved: 'yes' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
    expect((await resume(executionId, { approved: true, extra: 1 })).status).toBe(400);
    expect((await resume('exec_doesnotexist0000000', { approved: true })).status).toBe(404);
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'mallory@example.com', plan: 'free' });
    expect((await resume(executionId, { approved: true }, outsider.apiKey)).status).toBe(404);
    const peek = await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`, { apiKey: outsider.apiKey });
    expect(peek.status).toBe(403);
    expect(await pausedRuns()).toContainEqual(expect.objectContaining({ executionId }));
    expect((await resume(executionId, { approved: false })).status).toBe(202);
    await logDetailOf(t, executionId);

    // Inside a loop a run cannot pause: the block fails with a message saying where to put it.
    const looped = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'each', type: 'loop', name: 'Each' },
        { id: 'gate', type: 'approval', name: 'Gate', parentId: 'each', config: {} },
      ],
      [
        ['start', 'each'],
        ['each', 'gate'],
      ],
    );
    const loops = { each: { id: 'each', nodes: ['gate'], iterations: 2, loopType: 'for' } };
    const refused = await execute(await createAndDeploy(t, { ...looped, loops }), {});
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/cannot sit inside a loop or parallel/);
    // A time-out outside the documented range is refused at save time.
    const tooLong = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'x', state: gatedState({ timeoutMs: 31 * 24 * 3_600_000 }) },
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('approval across a restart', { timeout: 120_000 }, () => {
  it('a run paused before kill -9 is resumed by the restarted server, without calling the upstream again', async () => {
    const key = generateApiKey();
    const { env, call, dispose } = await restartableSluice('sluice-approval-', key);
    let server: SluiceProcess | undefined;
    try {
      server = await startSluice(env);
      const me = await call(server, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId, name: 'gated', state: gatedState({}) });
      const workflowId: string = created.body.data.id;
      expect((await call(server, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
      const calls = upstream.requests.length;
      const paused = await call(server, 'POST', `/api/workflows/${workflowId}/execute`, { item: 'desk' });
      expect(paused.status).toBe(202);
      await server.stop('SIGKILL');

      server = await startSluice(env);
      const listed = await call(server, 'GET', `/api/v1/executions?workspaceId=${workspaceId}&status=paused`);
      expect(listed.body.data.map((run: { executionId: string }) => run.executionId)).toEqual([paused.body.executionId]);
      expect((await call(server, 'POST', `/api/v1/executions/${paused.body.executionId}/resume`, { approved: true })).status).toBe(202);
      const log = await eventually(async () => {
        const res = await call(server!, 'GET', `/api/v1/logs?workspaceId=${workspaceId}&executionId=${paused.body.executionId}&includeFinalOutput=true`);
        return res.body.data?.[0];
      }, 20_000, 'the resumed run to be logged');
      expect(log.level).toBe('info');
      expect(log.executionData.finalOutput.result).toMatchObject({ approved: true, item: 'desk', order: calls + 1 });
      expect(upstream.requests.length).toBe(calls + 1);
    } finally {
      await server?.stop();
      await dispose();
    }
  });
});
