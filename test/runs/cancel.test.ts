// Cancelling a run (README "Cancelling a run"): a plain, a streaming and an async call, each stopped by a cancel
// request while it waits on a slow upstream; a queued async job; a finished run; another tenant's run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startReceiver, subscribe } from '../completion-webhooks/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
let hanging: FakeUpstream;
beforeAll(async () => {
  // Tests poll the logs API; its per-minute limit is not what they are about.
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  hanging = await startUpstream(() => undefined); // never answers: the run waits until it is stopped
});
afterAll(async () => {
  await hanging?.close();
  await t?.close();
});

const slowState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'call', type: 'api', name: 'Call', config: { url: `${hanging.url}/slow`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
      { id: 'after', type: 'function', name: 'After', config: { code: 'return "never";' } },
    ],
    [
      ['start', 'call'],
      ['call', 'after'],
    ],
  );

const cancel = (executionId: string, apiKey?: string) => t.request('POST', `/api/v1/executions/${executionId}/cancel`, { apiKey });


describe('cancel', () => {
  it('stops a plain call: the caller gets 409 EXECUTION_CANCELLED, the log says cancelled, the webhook says error', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    const worker = createAppWorker(t.app);
    await worker.start();
    try {
      const wf = await createAndDeploy(t, slowState());
      await subscribe(t, wf, { url: receiver.url });
      const before = hanging.requests.length;
      const call = t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      await eventually(() => hanging.requests.length > before, 10_000, 'the run to reach the upstream');
      const executionId = await eventually(async () => {
        // The caller has no answer yet; the id is the one the run logs under. Find it the way an operator would.
        const running = [...(t.app.recorder.inFlight())].find((run) => run.marker.workflowId === wf);
        return running?.marker.executionId;
      }, 5_000, 'the run in flight');
      const cancelled = await cancel(executionId);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body.data).toEqual({ executionId, status: 'cancelled' });

      const answer = await call;
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ success: false, code: 'EXECUTION_CANCELLED', executionId });
      const log = await logDetailOf(t, executionId);
      expect(log).toMatchObject({ status: 'cancelled', level: 'error' });
      expect(log.executionData.traceSpans.map((s: { blockId: string }) => s.blockId)).not.toContain('after');
      await eventually(() => receiver.requests.length > 0, 10_000, 'the completion webhook');
      expect(JSON.parse(receiver.requests[0].body.toString()).data).toMatchObject({ executionId, status: 'error', level: 'error' });

      expect((await cancel(executionId)).status).toBe(409);
    } finally {
      await worker.stop(1_000);
      await receiver.close();
    }
  });

  it('stops a streaming call: its final record says so', async () => {
    const wf = await createAndDeploy(t, slowState());
    const before = hanging.requests.length;
    const call = t.request('POST', `/api/workflows/${wf}/execute`, { body: { stream: true } });
    await eventually(() => hanging.requests.length > before, 10_000, 'the run to reach the upstream');
    const running = t.app.recorder.inFlight().find((run) => run.marker.workflowId === wf)!;
    expect((await cancel(running.marker.executionId)).status).toBe(200);
    const { records } = parseSse((await call).text);
    expect(records.at(-2)).toMatchObject({ event: 'done', success: false, cancelled: true, error: 'Execution cancelled' });
    expect(records.at(-1)).toBe('[DONE]');
  });

  it('stops an async run on a worker, and cancels a queued one before it starts', async () => {
    const wf = await createAndDeploy(t, slowState());
    const queued = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {}, headers: { 'x-execution-mode': 'async' } });
    // No worker runs yet: the job is queued.
    const cancelledEarly = await cancel(queued.body.executionId);
    expect(cancelledEarly.status).toBe(200);
    const job = (await t.request('GET', `/api/jobs/${queued.body.taskId}`)).body;
    expect(job.status).toBe('cancelled');
    const early = await logDetailOf(t, queued.body.executionId);
    expect(early.status).toBe('cancelled');
    // It never ran a step: nothing reached the upstream for it.
    expect(early.executionData.traceSpans.filter((s: { blockId: string; status: string }) => s.blockId === 'call' && s.status !== 'skipped')).toEqual([]);

    const worker: Worker = createAppWorker(t.app);
    await worker.start();
    try {
      const before = hanging.requests.length;
      const running = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {}, headers: { 'x-execution-mode': 'async' } });
      await eventually(() => hanging.requests.length > before, 10_000, 'the async run to reach the upstream');
      expect((await cancel(running.body.executionId)).status).toBe(200);
      const status = await eventually(async () => {
        const res = (await t.request('GET', `/api/jobs/${running.body.taskId}`)).body;
        return res.status === 'cancelled' ? res : undefined;
      }, 10_000, 'the job to end cancelled');
      expect(status.error).toBe('Execution cancelled');
    } finally {
      await worker.stop(1_000);
    }
  });

  it('is 404 for an unknown execution and for another tenant’s run, which keeps running', async () => {
    expect((await cancel('exec_doesnotexist0000000')).status).toBe(404);
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    const wf = await createAndDeploy(t, slowState());
    const before = hanging.requests.length;
    const controller = new AbortController();
    const call = fetch(`${t.url}/api/workflows/${wf}/execute`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    }).catch(() => undefined);
    await eventually(() => hanging.requests.length > before, 10_000, 'the run to reach the upstream');
    const running = t.app.recorder.inFlight().find((run) => run.marker.workflowId === wf)!;
    const refused = await cancel(running.marker.executionId, outsider.apiKey);
    expect(refused.status).toBe(404);
    expect(t.app.recorder.inFlight().some((run) => run.marker.executionId === running.marker.executionId)).toBe(true);
    controller.abort();
    await call;
  });
});
