// The workflow's `trace` setting (docs/workflows.md "Trace detail"): what a log keeps of its run's trace, what its
// webhooks carry, and why a re-run from a block is refused when the log kept only a summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { subscribe, webhookBodyOf } from '../completion-webhooks/support.js';

let t: TestApp;
let receiver: FakeUpstream;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startUpstream((_req, res) => res.end('ok'));
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** `api_trigger → variables → response`, or a variables block that fails the run when `fail`. */
function state(trace: string | undefined) {
  const base = makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }, { name: 'fail', type: 'boolean' }] } },
      { id: 'gate', type: 'function', name: 'Gate', config: { code: 'if (<api.fail>) throw new Error("asked to fail"); return { q: <api.q> };' } },
      { id: 'out', type: 'response', name: 'Out', config: { body: { echoed: '<gate.result.q>' } } },
    ],
    [
      ['start', 'gate'],
      ['gate', 'out'],
    ],
  );
  return trace === undefined ? base : { ...base, trace };
}

async function deploy(trace: string | undefined) {
  const id = await createAndDeploy(t, state(trace));
  await subscribe(t, id, { url: `${receiver.url}/hook`, includeFinalOutput: true, includeTraceSpans: true, levelFilter: ['info', 'error'] });
  return id;
}

async function run(workflowId: string, body: Record<string, unknown>) {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
  const executionId = res.headers.get('x-execution-id') ?? res.body.executionId;
  // A generous wait: a failing function block's run is slow to log on a loaded CI machine (seen: over 15 s).
  const detail = await logDetailOf(t, executionId, 60_000);
  return { executionId, detail, webhook: (await webhookBodyOf(t, executionId)).data };
}

const hasValues = (spans: Array<Record<string, unknown>>) => spans.map((s) => ['input' in s, 'output' in s]);

describe('trace detail', () => {
  it('summary keeps timings, statuses and the final output; outputs only of failed blocks; webhooks carry the same', async () => {
    const wf = await deploy('summary');
    const ok = await run(wf, { q: 'hello', fail: false });
    const spans = ok.detail.executionData.traceSpans;
    expect(spans.map((s: { blockId: string; status: string }) => [s.blockId, s.status])).toEqual([
      ['start', 'success'],
      ['gate', 'success'],
      ['out', 'success'],
    ]);
    expect(spans[1]).toMatchObject({ startTime: expect.any(String), endTime: expect.any(String), duration: expect.any(Number) });
    expect(hasValues(spans)).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    expect(ok.detail.executionData.finalOutput).toMatchObject({ body: { echoed: 'hello' } });
    expect(ok.webhook.traceSpans).toEqual(spans);
    expect(ok.webhook.finalOutput).toEqual(ok.detail.executionData.finalOutput);

    const failed = await run(wf, { q: 'hello', fail: true });
    const failedSpans = failed.detail.executionData.traceSpans;
    expect(hasValues(failedSpans)).toEqual([
      [false, false],
      [false, true],
    ]);
    expect(failedSpans[1].output).toMatchObject({ error: expect.stringContaining('asked to fail') });
  });

  it('errors keeps the whole trace of a failed run and a summary of one that succeeded', async () => {
    const wf = await deploy('errors');
    const ok = await run(wf, { q: 'hello', fail: false });
    expect(hasValues(ok.detail.executionData.traceSpans)).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    const failed = await run(wf, { q: 'hello', fail: true });
    expect(hasValues(failed.detail.executionData.traceSpans)).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(failed.detail.executionData.traceSpans[0].output).toMatchObject({ q: 'hello' });
  });

  it('full is the default: every span keeps its input and output', async () => {
    const wf = await deploy(undefined);
    const ok = await run(wf, { q: 'hello', fail: false });
    expect(hasValues(ok.detail.executionData.traceSpans)).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });

  it('a re-run that needs the outputs a summary did not keep says so; with its input it runs whole', async () => {
    const wf = await deploy('summary');
    const failed = await run(wf, { q: 'hello', fail: true });
    const fromBlock = await t.request('POST', `/api/v1/executions/${failed.executionId}/rerun`, { body: { fromBlock: 'gate' } });
    expect(fromBlock.status).toBe(410);
    expect(fromBlock.body).toMatchObject({ code: 'EXECUTION_SNAPSHOT_GONE', error: expect.stringContaining('kept only a summary of its trace') });
    const retry = await t.request('POST', `/api/v1/executions/${failed.executionId}/retry`, { body: {} });
    expect(retry.status).toBe(410);
    expect(retry.body.error).toContain('trace to "full"');
    const whole = await t.request('POST', `/api/v1/executions/${failed.executionId}/rerun`, { body: {} });
    expect(whole.status).toBe(410);
    expect(whole.body.error).toContain('"input"');
    const given = await t.request('POST', `/api/v1/executions/${failed.executionId}/rerun`, { body: { input: { q: 'again', fail: false } } });
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ echoed: 'again' });
  });

  it('is part of the state: refused when unknown, exported with the workflow', async () => {
    const bad = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Bad trace', state: state('some') } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'state.trace' })]);
    const wf = await createAndDeploy(t, state('errors'));
    const exported = await t.request('GET', `/api/v1/workflows/${wf}/export`);
    expect(exported.status).toBe(200);
    expect(JSON.stringify(exported.body)).toContain('"trace":"errors"');
  });
});
