// Input a JavaScript string can hold but PostgreSQL's jsonb cannot (lone UTF-16 surrogates, U+0000), input nested
// deeper than any handler should walk, and error texts that merely mention a time-out: each used to end in a 500 or a
// run without a log. Every case here must answer as the API promises and leave exactly one complete log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/json-nesting.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  // Tests poll the logs API; its per-minute limit is not what they are about.
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

const fnState = (code: string, inputFormat: unknown[] = [{ name: 'q', type: 'json' }]) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat } },
      { id: 'fn', type: 'function', name: 'Fn', config: { code } },
    ],
    [['start', 'fn']],
  );

const rawExecute = (workflowId: string, rawBody: string, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { rawBody, headers: { 'content-type': 'application/json', ...headers } });

async function logOf(executionId: string) {
  const res = await eventually(async () => {
    const found = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&details=full&includeFinalOutput=true&includeTraceSpans=true`);
    return found.body.data?.length === 1 ? found : undefined;
  }, 10_000, `the log of ${executionId}`);
  return res.body.data[0];
}

describe('lone surrogates and NUL are stored (or refused), never a 500', () => {
  it('in an input value and in an input key: 200, and the log shows U+FFFD', async () => {
    const wf = await createAndDeploy(t, fnState('return { got: <api.input> };', []));
    // Written by hand: JSON.stringify would not produce these escapes from a test's own strings.
    const res = await rawExecute(wf, '{"q":"\\ud800x","\\udc00":"key","nul":"a\\u0000b"}');
    expect(res.status, res.text).toBe(200);
    const log = await logOf(res.body.executionId);
    expect(log.level).toBe('info');
    expect(log.executionData.finalOutput.result.got).toEqual({ q: '\uFFFDx', '\uFFFD': 'key', nul: 'a\uFFFDb' });
  });

  it('in what a function block returns (a string cut inside an emoji)', async () => {
    const wf = await createAndDeploy(t, fnState('return "héllo 😀 world".slice(0, 7);'));
    const res = await rawExecute(wf, '{}');
    expect(res.status, res.text).toBe(200);
    expect(res.body.output.result).toBe('héllo \ud83d');
    const log = await logOf(res.body.executionId);
    expect(log.executionData.finalOutput.result).toBe('héllo \uFFFD');
  });

  it('in an async call: the job runs and its log is written, under the same execution id', async () => {
    const wf = await createAndDeploy(t, fnState('return <api.q>;'));
    const worker = (await import('../../src/app/worker.js')).createAppWorker(t.app);
    await worker.start();
    try {
      const res = await rawExecute(wf, '{"q":"\\ud800"}', { 'x-execution-mode': 'async' });
      expect(res.status, res.text).toBe(202);
      const status = await eventually(async () => {
        const job = await t.request('GET', `/api/jobs/${res.body.taskId}`);
        return ['completed', 'failed'].includes(job.body.status) ? job.body : undefined;
      }, 15_000, 'the async job');
      expect(status.status).toBe('completed');
      expect(status.metadata.executionId).toBe(res.body.executionId);
      expect((await logOf(res.body.executionId)).executionData.finalOutput.result).toBe('\uFFFD');
    } finally {
      await worker.stop(1_000);
    }
  });

  it('in a workflow saved through the management API: refused with 400 naming the field, as NUL is', async () => {
    // What a person typed is refused rather than saved altered (docs/decisions.md); run data is stored as U+FFFD.
    const created = await t.request('POST', '/api/v1/workflows', {
      rawBody: `{"workspaceId":"${t.workspaceId}","name":"odd \\udfff name","state":${JSON.stringify(fnState('return 1;'))}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status, created.text).toBe(400);
    expect(created.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'name', message: expect.stringContaining('surrogates') }] });
  });
});

describe('nesting deeper than the limit', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it(`execute refuses a body nested deeper than ${MAX_JSON_DEPTH} with 400 VALIDATION_ERROR, and accepts one at the limit`, async () => {
    const wf = await createAndDeploy(t, fnState('return "ok";'));
    const tooDeep = await rawExecute(wf, `{"q":${deep(10_000)}}`);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.code).toBe('VALIDATION_ERROR');
    expect(tooDeep.body.error).toContain(`${MAX_JSON_DEPTH}`);
    // The body object itself is one level.
    const atLimit = await rawExecute(wf, `{"q":${deep(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status, atLimit.text).toBe(200);
  });

  it('management, manual-run, chat and webhook-trigger routes refuse it the same way', async () => {
    const body = `{"name":${deep(5_000)}}`;
    const headers = { 'content-type': 'application/json' };
    const workflow = await t.request('POST', '/api/v1/workflows', { rawBody: body, headers });
    expect(workflow.status).toBe(400);
    expect(workflow.body.code).toBe('VALIDATION_ERROR');
    const wf = await createAndDeploy(t, fnState('return 1;'));
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`, { rawBody: `{"input":{"q":${deep(5_000)}}}`, headers });
    expect(manual.status).toBe(400);

    const hook = makeState(
      [
        { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: 'deep-json' } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return 1;' } },
      ],
      [['hook', 'fn']],
    );
    await createAndDeploy(t, hook);
    const inbound = await t.request('POST', '/api/webhooks/trigger/deep-json', { rawBody: deep(5_000), headers, apiKey: null });
    expect(inbound.status).toBe(400);
    expect(inbound.body.code).toBe('VALIDATION_ERROR');
  });

  it('a block whose output nests deeper than 128 levels fails with a clear error, and its run is logged', async () => {
    const wf = await createAndDeploy(t, fnState('let v = 1; for (let i = 0; i < 10000; i++) v = [v]; return v;'));
    const res = await rawExecute(wf, '{}');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('EXECUTION_FAILED');
    // Building and returning it may also run into the sandbox's own limits first; either way the run fails cleanly.
    expect(res.body.error).toMatch(/deeper than 128 levels|timed out|stack/i);
    const log = await logOf(res.body.executionId);
    expect(log.level).toBe('error');

    const shallow = await createAndDeploy(t, fnState('let v = 1; for (let i = 0; i < 100; i++) v = [v]; return v;'));
    expect((await rawExecute(shallow, '{}')).status).toBe(200);
  });
});

describe('time-outs are a reason, not a word in an error message', () => {
  it('a block error that says "timed out" is 500 EXECUTION_FAILED with that message, not 408', async () => {
    const wf = await createAndDeploy(t, fnState('throw new Error("the upstream service timed out");'));
    const res = await rawExecute(wf, '{}');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('EXECUTION_FAILED');
    expect(res.body.error).toContain('the upstream service timed out');
  });

  it('a run that really passes the time-out is 408 naming the configured limit', async () => {
    const slow = await startTestApp({ SLUICE_EXECUTION_TIMEOUT_MS: '1000' });
    try {
      const state = makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'wait', type: 'wait', name: 'Wait', config: { ms: 5_000 } },
        ],
        [['start', 'wait']],
      );
      const wf = await createAndDeploy(slow, state);
      const res = await slow.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      expect(res.status).toBe(408);
      expect(res.body).toMatchObject({ code: 'EXECUTION_TIMEOUT', error: 'Execution timed out after 1000 ms' });
      expect(res.headers.get('x-execution-id')).toBe(res.body.executionId);
    } finally {
      await slow.close();
    }
  });
});

describe('one execution id from request to log', () => {
  it('every answer names its execution in X-Execution-Id, also when a response block shapes the body', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'out', type: 'response', name: 'Out', config: { status: 201, body: { shaped: true } } },
      ],
      [['start', 'out']],
    );
    const wf = await createAndDeploy(t, state);
    const plain = await rawExecute(wf, '{}');
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({ shaped: true });
    const id = plain.headers.get('x-execution-id');
    expect(id).toMatch(/^exec_/);
    expect((await logOf(id!)).executionId).toBe(id);

    const streamed = await rawExecute(wf, '{"stream":true}');
    const streamedId = streamed.headers.get('x-execution-id');
    expect(streamedId).toMatch(/^exec_/);
    expect((await logOf(streamedId!)).executionId).toBe(streamedId);
  });

  it('an async call with files stores them under the execution id its log and webhook carry', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'docs', type: 'files' }] } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return <api.docs>.map((f) => f.name);' } },
      ],
      [['start', 'fn']],
    );
    const wf = await createAndDeploy(t, state);
    const worker = (await import('../../src/app/worker.js')).createAppWorker(t.app);
    await worker.start();
    try {
      const file = { type: 'file', name: 'hello.txt', mime: 'text/plain', data: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` };
      const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { docs: [file] }, headers: { 'x-execution-mode': 'async' } });
      expect(res.status, res.text).toBe(202);
      expect(res.headers.get('x-execution-id')).toBe(res.body.executionId);
      const log = await logOf(res.body.executionId);
      expect(log.files).toEqual([expect.objectContaining({ name: 'hello.txt', size: 5, type: 'text/plain' })]);
      expect(log.executionData.finalOutput.result).toEqual(['hello.txt']);
      // The signed URL is built on the configured base URL; the test server listens on an ephemeral port.
      const signed = new URL(log.files[0].url);
      const download = await fetch(`${t.url}${signed.pathname}${signed.search}`);
      expect(await download.text()).toBe('hello');
    } finally {
      await worker.stop(1_000);
    }
  });
});
