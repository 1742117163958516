// Output amplification (issue 21): one `<api.q>` written many times over turns a 10 MB request into a 600 MB answer.
// Every run's output is held to the size limits (docs/guarantees.md "Bounded output") as values are produced: the run
// fails with EXECUTION_FAILED naming the block and the limit — plain, streaming and async alike — its log is an
// error with that message, its completion webhook goes out, and no answer or log is ever built past the limit.
// A fault while finishing a run ends it as failed too, rather than leaving it running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployedWorkflow, eventually, startReceiver, subscribe, useWorkerApp, type WorkerApp } from '../completion-webhooks/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { logDetailOf, makeState, parseSse } from '../support/workflows.js';

// Small limits keep the payloads of these tests small: 128 KB per block, 256 KB per run.
const BLOCK_LIMIT = 128 * 1024;
const RUN_LIMIT = 256 * 1024;
let t: TestApp;
const { track } = useWorkerApp(
  (app: Omit<WorkerApp, 'track'>) => {
    t = app.t;
  },
  {
    env: {
      SLUICE_MAX_BLOCK_OUTPUT_BYTES: String(BLOCK_LIMIT),
      SLUICE_MAX_RUN_OUTPUT_BYTES: String(RUN_LIMIT),
      SLUICE_LIMIT_LOGS_FREE: 'unlimited',
    },
  },
);

const trigger = { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } };

/** api_trigger → a response block whose body is `body`. */
const responseState = (body: unknown) =>
  makeState([trigger, { id: 'resp', type: 'response', name: 'Resp', config: { body } }], [['start', 'resp']]);

/** `<api.q>` 60 times in one text: a 10 KB q becomes a 600 KB body. */
const amplifiedText = Array(60).fill('<api.q>').join(' ');
const q = 'x'.repeat(10_000);

/** api_trigger → functions named by `names`, one after the other, each returning `chars` characters. */
function functionsState(names: string[], chars: number) {
  const blocks = names.map((name, i) => ({ id: `f${i}`, type: 'function', name, config: { code: `return 'y'.repeat(${chars});` } }));
  const edges = names.map((_, i): [string, string] => [i === 0 ? 'start' : `f${i - 1}`, `f${i}`]);
  return makeState([trigger, ...blocks], edges);
}

const execute = (workflowId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers });

/** The async job's status once it has ended. */
const jobOutcome = (taskId: string) =>
  eventually(async () => {
    const status = await t.request('GET', `/api/jobs/${taskId}`);
    return ['completed', 'failed'].includes(status.body.status) && status.body;
  }, 15_000, 'the job to end');

async function expectFailedLog(executionId: string, error: RegExp) {
  const log = await logDetailOf(t, executionId);
  expect(log).toMatchObject({ status: 'error', level: 'error' });
  expect(log.error).toMatch(error);
}

const TEXT_TOO_LONG = /^Block "Resp": a text in its configuration with references filled in is larger than 128 KB, the limit on one block's output$/;

describe('output size limits', () => {
  it('a text that references blow up fails its block: 500 EXECUTION_FAILED naming block and limit, an error log, the webhook', async () => {
    const receiver = track(await startReceiver((_req, res) => res.end('ok')));
    const wf = await createDeployedWorkflow(t, responseState(amplifiedText));
    await subscribe(t, wf.id, { url: receiver.url });
    const res = await execute(wf.id, { q });
    expect(res.status, res.text.slice(0, 300)).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED', executionId: expect.stringMatching(/^exec_/) });
    expect(res.body.error).toMatch(TEXT_TOO_LONG);
    expect(res.headers.get('x-execution-id')).toBe(res.body.executionId);
    await expectFailedLog(res.body.executionId, TEXT_TOO_LONG);
    await receiver.waitForRequests(1);
    const event = JSON.parse(receiver.requests[0].body.toString());
    expect(event.data).toMatchObject({ executionId: res.body.executionId, status: 'error', level: 'error' });
  });

  it('one value referenced many times over (exact references, no text built) fails the same way', async () => {
    const body = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, '<api.q>']));
    const wf = await createDeployedWorkflow(t, responseState(body));
    const res = await execute(wf.id, { q });
    expect(res.status, res.text.slice(0, 300)).toBe(500);
    expect(res.body.code).toBe('EXECUTION_FAILED');
    expect(res.body.error).toBe(`Block "Resp": its configuration with references filled in is larger than 128 KB, the limit on one block's output`);
    await expectFailedLog(res.body.executionId, /its configuration with references filled in is larger than 128 KB/);
  });

  it("a block's output over the block limit fails that block", async () => {
    const wf = await createDeployedWorkflow(t, functionsState(['Big'], BLOCK_LIMIT + 1));
    const res = await execute(wf.id, { q: 'small' });
    expect(res.status, res.text.slice(0, 300)).toBe(500);
    expect(res.body.error).toBe(`Block "Big": its output is larger than 128 KB, the limit on one block's output`);
    // The failing block's output is its error, not the oversized value.
    expect(res.body.output).toEqual({ error: res.body.error });
    await expectFailedLog(res.body.executionId, /^Block "Big": its output is larger than 128 KB/);
  });

  it('outputs each under the block limit fail the block that takes the run past the run limit', async () => {
    // 100 KB each: two fit in 256 KB, the third does not.
    const wf = await createDeployedWorkflow(t, functionsState(['One', 'Two', 'Three'], 100_000));
    const res = await execute(wf.id, { q: 'small' });
    expect(res.status, res.text.slice(0, 300)).toBe(500);
    expect(res.body.error).toBe(`Block "Three": its output would take what the run has produced past 256 KB, the limit on one run's output`);
    const log = await logDetailOf(t, res.body.executionId);
    const spans = log.executionData.traceSpans as Array<{ name: string; status: string }>;
    expect(spans.map((s) => [s.name, s.status])).toEqual([['API', 'success'], ['One', 'success'], ['Two', 'success'], ['Three', 'error']]);
  });

  it('streaming: the final record says success false with the error (not "Internal server error"), then [DONE]', async () => {
    const wf = await createDeployedWorkflow(t, responseState(amplifiedText));
    const res = await execute(wf.id, { q, stream: true });
    expect(res.status).toBe(200);
    const { records } = parseSse(res.text);
    expect(records.at(-1)).toBe('[DONE]');
    const done = records.at(-2) as Record<string, unknown>;
    expect(done).toMatchObject({ event: 'done', success: false });
    expect(done.error).toMatch(TEXT_TOO_LONG);
    await expectFailedLog(res.headers.get('x-execution-id')!, TEXT_TOO_LONG);
  });

  it('async: the job fails promptly with the error, under its execution id, and the webhook is sent', async () => {
    const receiver = track(await startReceiver((_req, res) => res.end('ok')));
    const wf = await createDeployedWorkflow(t, responseState(amplifiedText));
    await subscribe(t, wf.id, { url: receiver.url });
    const res = await execute(wf.id, { q }, { 'X-Execution-Mode': 'async' });
    expect(res.status, res.text.slice(0, 300)).toBe(202);
    // Well within the 60 s job lease a stuck job would wait out.
    const job = await jobOutcome(res.body.taskId);
    expect(job).toMatchObject({ status: 'failed', metadata: { executionId: res.body.executionId } });
    expect(job.error).toMatch(TEXT_TOO_LONG);
    await expectFailedLog(res.body.executionId, TEXT_TOO_LONG);
    await receiver.waitForRequests(1);
    expect(JSON.parse(receiver.requests[0].body.toString()).data).toMatchObject({ executionId: res.body.executionId, status: 'error' });
  });
});

describe('a fault while finishing a run', () => {
  /** Makes the next read of the base charge (taken when the run's log is made) throw, as an unexpected bug would. */
  function faultOnceWhileFinishing() {
    const config = t.app.config as { baseCostUsd: number };
    const value = config.baseCostUsd;
    Object.defineProperty(config, 'baseCostUsd', {
      configurable: true,
      get() {
        Object.defineProperty(config, 'baseCostUsd', { configurable: true, writable: true, value });
        throw new Error('unexpected fault');
      },
    });
  }

  it('ends the run as failed: 500 EXECUTION_FAILED with its execution id and an error log, never a run left running', async () => {
    const wf = await createDeployedWorkflow(t, responseState('fine'));
    faultOnceWhileFinishing();
    const res = await execute(wf.id, { q: 'small' });
    expect(res.status, res.text.slice(0, 300)).toBe(500);
    expect(res.body).toMatchObject({ code: 'EXECUTION_FAILED', executionId: expect.any(String), error: 'Internal error while finishing the run' });
    await expectFailedLog(res.body.executionId, /^Internal error while finishing the run$/);
  });

  it('in an async run: the job fails promptly instead of staying processing', async () => {
    const wf = await createDeployedWorkflow(t, responseState('fine'));
    faultOnceWhileFinishing();
    const res = await execute(wf.id, { q: 'small' }, { 'X-Execution-Mode': 'async' });
    expect(res.status, res.text.slice(0, 300)).toBe(202);
    const job = await jobOutcome(res.body.taskId);
    expect(job).toMatchObject({ status: 'failed', error: 'Internal error while finishing the run' });
    await expectFailedLog(res.body.executionId, /^Internal error while finishing the run$/);
  });
});

describe('with the default limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it("the issue's case — 60 × <api.q> with a 10 MB q — answers 500 EXECUTION_FAILED naming the 64 MB limit", async () => {
    const q10MB = 'x'.repeat(10 * 1024 * 1024);
    const asObject = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, '<api.q>']));
    for (const [body, what] of [
      [amplifiedText, 'a text in its configuration with references filled in is'],
      [asObject, 'its configuration with references filled in is'],
    ] as const) {
      const wf = await createDeployedWorkflow(app, responseState(body));
      const res = await app.request('POST', `/api/workflows/${wf.id}/execute`, { body: { q: q10MB } });
      expect(res.status, res.text.slice(0, 300)).toBe(500);
      expect(res.body).toMatchObject({
        success: false,
        code: 'EXECUTION_FAILED',
        executionId: expect.stringMatching(/^exec_/),
        error: `Block "Resp": ${what} larger than 64 MB, the limit on one block's output`,
      });
    }
  }, 180_000);
});
