// Re-runs (README "Re-running a run", docs/api.md "Re-runs"): a finished execution runs again, whole or from a block,
// and blocks before that block are replayed from the log — the upstream they called sees no second request. Counted
// with a real local upstream; driven through the API as a user would.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { isExecution, isAnyExecution } from '../../src/db/execution-lookup.js';
import { executions } from '../../src/db/schema.js';
import type { Worker } from '../../src/jobs/worker.js';
import { json, startUpstream, type FakeUpstream, type RecordedRequest } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';
import { freshRateWindow } from '../support/rate-window.js';

let t: TestApp;
let worker: Worker;
let upstream: FakeUpstream;
/** What the upstream is told to do; each test sets what it needs. */
const script = { failB: false, failItemOnce: -1, failBranchOnce: -1, hold: undefined as Promise<void> | undefined };

beforeAll(async () => {
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  upstream = await startUpstream((_req, res, recorded) => {
    const url = new URL(recorded.url, 'http://upstream');
    const i = Number(url.searchParams.get('i'));
    if (url.pathname === '/b' && script.failB) return json(res, 500, { down: true });
    if (url.pathname === '/item' && i === script.failItemOnce) {
      script.failItemOnce = -1;
      return json(res, 500, { down: true });
    }
    if (url.pathname === '/branch' && i === script.failBranchOnce) {
      script.failBranchOnce = -1;
      // The failing branch answers last, so its siblings have finished when it fails.
      return void setTimeout(() => json(res, 500, { down: true }), 400);
    }
    if (url.pathname === '/slow') return void script.hold?.then(() => json(res, 200, { slow: true }));
    json(res, 200, { path: url.pathname, i });
  });
});
afterAll(async () => {
  await worker?.stop(1_000);
  await upstream?.close();
  await t?.close();
});

const callsTo = (path: string, since: number) =>
  upstream.requests.slice(since).filter((r) => new URL(r.url, 'http://upstream').pathname === path);
const indexesOf = (requests: RecordedRequest[]) => requests.map((r) => Number(new URL(r.url, 'http://upstream').searchParams.get('i'))).sort();

/** API → GET /a → POST /b → a check that fails when /b did → the output. */
const chainState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
      { id: 'a', type: 'api', name: 'Fetch A', config: { url: `${upstream.url}/a`, method: 'GET' } },
      { id: 'b', type: 'api', name: 'Post B', config: { url: `${upstream.url}/b`, method: 'POST', retries: 0, body: { item: '<api.item>' } } },
      { id: 'check', type: 'function', name: 'Check', config: { code: 'if (<postb.status> !== 200) throw new Error("B is down"); return <postb.data>;' } },
      { id: 'out', type: 'function', name: 'Out', config: { code: 'return { item: <api.item>, a: <fetcha.data>.path, b: <check.result>.path };' } },
    ],
    [
      ['start', 'a'],
      ['a', 'b'],
      ['b', 'check'],
      ['check', 'out'],
    ],
  );

const execute = (workflowId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers });
const rerun = (executionId: string, body?: Record<string, unknown>, apiKey?: string) =>
  t.request('POST', `/api/v1/executions/${executionId}/rerun`, { body, apiKey });
const retry = (executionId: string, body?: Record<string, unknown>) => t.request('POST', `/api/v1/executions/${executionId}/retry`, { body });

describe('re-run', () => {
  it('runs the whole workflow again with the original input, calls the upstream again with idempotency keys, and is listed with the original', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'lamp' });
    expect(first.status, first.text).toBe(200);
    const original = first.body.executionId;
    const before = upstream.requests.length;

    const again = await rerun(original); // no body: the whole workflow, now
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ success: true, rerunOf: original, output: { result: { item: 'lamp', a: '/a', b: '/b' } } });
    const executionId = again.body.executionId;
    expect(executionId).not.toBe(original);
    expect(again.headers.get('x-execution-id')).toBe(executionId);
    // Both calls again, each with the key an idempotent upstream recognises.
    const made = upstream.requests.slice(before);
    expect(made.map((r) => [r.method, new URL(r.url, 'http://upstream').pathname, r.headers['idempotency-key']])).toEqual([
      ['GET', '/a', `${original}:a:0`],
      ['POST', '/b', `${original}:b:0`],
    ]);
    // The same keys on every re-run of that execution.
    const third = await rerun(original, { fromBlock: 'b' });
    expect(third.status, third.text).toBe(200);
    expect(upstream.requests.at(-1)!.headers['idempotency-key']).toBe(`${original}:b:0`);

    const log = await logDetailOf(t, executionId);
    expect(log).toMatchObject({ status: 'success', trigger: 'api', rerunOf: original, rerunFromBlock: null, reruns: [] });
    // A re-run of the re-run repeats the first execution's calls: same keys.
    const fourth = await rerun(executionId, { fromBlock: 'b' });
    expect(fourth.status, fourth.text).toBe(200);
    expect(fourth.body.rerunOf).toBe(executionId);
    expect(upstream.requests.at(-1)!.headers['idempotency-key']).toBe(`${original}:b:0`);
    const listed = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&rerunOf=${original}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { executionId: string }) => l.executionId).sort()).toEqual([executionId, third.body.executionId].sort());
    const originalLog = await logDetailOf(t, original);
    expect(originalLog.rerunOf).toBeNull();
    expect(originalLog.reruns.map((r: { executionId: string; status: string }) => [r.executionId, r.status])).toEqual([
      [executionId, 'success'],
      [third.body.executionId, 'success'],
    ]);
  });

  it('from a block: the blocks before it are replayed from the log (no upstream call), it and what follows run', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'desk' });
    expect(first.status, first.text).toBe(200);
    const original = first.body.executionId;
    const before = upstream.requests.length;

    // Named as references name it.
    const again = await rerun(original, { fromBlock: 'Post B' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ success: true, rerunOf: original, output: { result: { item: 'desk', a: '/a', b: '/b' } } });
    expect(callsTo('/a', before)).toHaveLength(0);
    expect(callsTo('/b', before)).toHaveLength(1);

    const log = await logDetailOf(t, again.body.executionId);
    expect(log).toMatchObject({ rerunOf: original, rerunFromBlock: 'b' });
    // The replayed block keeps its place in the trace, with the original's output.
    expect(log.executionData.traceSpans.map((s: { blockId: string }) => s.blockId)).toEqual(['start', 'a', 'b', 'check', 'out']);
  });

  it('with new input, checked against the Input Format like an execute call', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'cup' });
    const again = await rerun(first.body.executionId, { input: { item: 'mug' } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.output.result.item).toBe('mug');
    const bad = await rerun(first.body.executionId, { input: { item: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  it('dry run: says what is replayed and what runs again, with its side effects, and runs nothing', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'pen' });
    const original = first.body.executionId;
    const before = upstream.requests.length;
    const dry = await rerun(original, { fromBlock: 'b', dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.replayed).toEqual(['a']);
    expect(dry.body.willRun).toEqual([
      { blockId: 'start', type: 'api_trigger', sideEffects: false },
      { blockId: 'b', type: 'api', sideEffects: true },
      { blockId: 'check', type: 'function', sideEffects: true },
      { blockId: 'out', type: 'function', sideEffects: true },
    ]);
    const whole = await rerun(original, { dryRun: true });
    expect(whole.body.replayed).toEqual([]);
    expect(whole.body.willRun).toContainEqual({ blockId: 'a', type: 'api', sideEffects: false });
    expect(upstream.requests.length).toBe(before);
    const listed = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&rerunOf=${original}`);
    expect(listed.body.data).toEqual([]);
  });

  it('async: answers a task like an async execute, plus rerunOf; the worker replays from the log', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'box' });
    const before = upstream.requests.length;
    const queued = await rerun(first.body.executionId, { fromBlock: 'check', mode: 'async' });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({ success: true, async: true, status: 'queued', rerunOf: first.body.executionId });
    const log = await logDetailOf(t, queued.body.executionId);
    expect(log).toMatchObject({ status: 'success', rerunOf: first.body.executionId, rerunFromBlock: 'check' });
    expect(log.executionData.finalOutput.result).toEqual({ item: 'box', a: '/a', b: '/b' });
    expect(upstream.requests.length).toBe(before);
    const job = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
    expect(job.body.status).toBe('completed');
  });

  it('keeps a run\'s workflow state under a 22-character key, and re-runs logs written with the hex keys of before', async () => {
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Draft keys', state: chainState() } });
    const wf = created.body.data.id as string;
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run`, { body: { input: { item: 'key' } }, headers: { accept: 'application/json' } });
    expect(manual.status, manual.text).toBe(200);
    const original = manual.body.executionId as string;
    await logDetailOf(t, original);
    const keyOf = async (executionId: string) =>
      ((await t.app.db.execute(sql`select snapshot_hash from executions where ${isExecution(executionId)}`)) as { rows: Array<{ snapshot_hash: string }> }).rows[0].snapshot_hash;
    expect(await keyOf(original)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // As a log written before: the state's SHA-256 in hex (64 characters; the short key is its first 16 bytes), its
    // snapshot under that key only.
    const short = await keyOf(original);
    const hex = Buffer.from(short, 'base64url').toString('hex') + 'cd'.repeat(16);
    await t.app.db.execute(sql`insert into state_snapshots (hash, state) select ${hex}, state from state_snapshots where hash = ${short}`);
    await t.app.db.execute(sql`update executions set snapshot_hash = ${hex} where ${isExecution(original)}`);
    await t.app.db.execute(sql`delete from state_snapshots where hash = ${short} and not exists (select 1 from executions where snapshot_hash = ${short})`);
    // Re-run here and now, then queued (the worker reads the draft's state from its snapshot): both run the old log's
    // version, and their own logs keep it under the short key.
    const before = upstream.requests.length;
    const now = await rerun(original, { fromBlock: 'check' });
    expect(now.status, now.text).toBe(200);
    expect(now.body.output.result).toEqual({ item: 'key', a: '/a', b: '/b' });
    const queued = await rerun(original, { fromBlock: 'check', mode: 'async' });
    expect(queued.status, queued.text).toBe(202);
    const log = await logDetailOf(t, queued.body.executionId);
    expect(log).toMatchObject({ status: 'success', rerunOf: original, rerunFromBlock: 'check' });
    expect(log.executionData.finalOutput.result).toEqual({ item: 'key', a: '/a', b: '/b' });
    expect(upstream.requests.length).toBe(before);
    for (const id of [now.body.executionId as string, queued.body.executionId as string]) expect(await keyOf(id)).toBe(short);
    // And a re-run of the re-run finds its state under the short key.
    const again = await rerun(queued.body.executionId, { fromBlock: 'check', mode: 'async' });
    expect(again.status, again.text).toBe(202);
    expect((await logDetailOf(t, again.body.executionId)).status).toBe('success');
  });

  it('finds a log by its execution id, through its own id now and through the execution id for logs written before', async () => {
    const wf = await createAndDeploy(t, chainState());
    const [paired, before] = [(await execute(wf, { item: 'new' })).body.executionId as string, (await execute(wf, { item: 'old' })).body.executionId as string];
    const logIdOf = async (executionId: string) => (await logDetailOf(t, executionId)).id as string;
    // A run's log is its execution's pair (src/ids.ts pairedLogId): the logs keep no index entry of its execution id.
    const unpaired = async () =>
      Number(((await t.app.db.execute(sql`select count(*) as n from executions where id <> ('log_' || substr(execution_id, 6))`)) as { rows: Array<{ n: number }> }).rows[0].n);
    expect(await unpaired()).toBe(0);
    expect(await logIdOf(paired)).toBe(`log_${paired.slice(5)}`);
    // Its id says its execution id, so the row keeps none (db/schema.ts logExecutionId).
    const keptIds = await t.app.db.select({ kept: executions.executionId }).from(executions).where(eq(executions.workflowId, wf));
    expect(keptIds).toEqual([{ kept: null }, { kept: null }]);
    // As a log written before: its id unrelated to its execution id, which it keeps.
    const oldLogId = `log_${randomBytes(15).toString('base64url').slice(0, 20)}`;
    await t.app.db.execute(sql`update executions set id = ${oldLogId}, execution_id = ${before} where id = ${`log_${before.slice(5)}`}`);
    expect(await unpaired()).toBe(1);
    for (const [executionId, item] of [[paired, 'new'], [before, 'old']] as const) {
      const logId = executionId === before ? oldLogId : `log_${paired.slice(5)}`;
      const detail = await t.request('GET', `/api/v1/logs/executions/${executionId}`);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body).toMatchObject({ executionId });
      const listed = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
      expect(listed.body.data.map((l: { id: string }) => l.id)).toEqual([logId]);
      const again = await rerun(executionId, { fromBlock: 'check' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.output.result.item).toBe(item);
      const log = await t.request('GET', `/api/v1/logs/${logId}`);
      expect(log.body.data.reruns.map((r: { executionId: string }) => r.executionId)).toEqual([again.body.executionId]);
      expect((await t.app.db.select({ id: executions.id }).from(executions).where(isAnyExecution([executionId, again.body.executionId]))).map((r) => r.id).sort())
        .toEqual([logId, `log_${(again.body.executionId as string).slice(5)}`].sort());
    }
    // An execution id nobody ran is found nowhere, however it is spelled.
    for (const unknown of [`exec_${'0'.repeat(20)}`, `exec_${oldLogId.slice(4)}`, 'not-an-id']) {
      expect((await t.request('GET', `/api/v1/logs/executions/${unknown}`)).status).toBe(404);
    }
  });

  it('a header the workflow sets itself wins over the re-run\'s Idempotency-Key', async () => {
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'a', type: 'api', name: 'A', config: { url: `${upstream.url}/a`, method: 'POST', headers: [{ key: 'idempotency-key', value: 'mine-1' }] } },
        ],
        [['start', 'a']],
      ),
    );
    const first = await execute(wf);
    const again = await rerun(first.body.executionId);
    expect(again.status, again.text).toBe(200);
    expect(upstream.requests.at(-1)!.headers['idempotency-key']).toBe('mine-1');
  });
});

describe('retry from the failure', () => {
  it('re-runs from the first block that failed; the blocks before it make no call', async () => {
    const wf = await createAndDeploy(t, chainState());
    script.failB = true;
    const failed = await execute(wf, { item: 'chair' });
    script.failB = false;
    expect(failed.status, failed.text).toBe(500);
    const original = failed.body.executionId;
    const before = upstream.requests.length;

    const retried = await retry(original);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ success: true, rerunOf: original, output: { result: { item: 'chair', a: '/a', b: '/b' } } });
    expect(callsTo('/a', before)).toHaveLength(0);
    expect(callsTo('/b', before)).toHaveLength(1);
    expect((await logDetailOf(t, retried.body.executionId)).rerunFromBlock).toBe('b');

    // A run that did not fail is not retried.
    const notFailed = await retry(retried.body.executionId);
    expect(notFailed.status).toBe(409);
    expect(notFailed.body.code).toBe('EXECUTION_NOT_FAILED');
  });

  it('inside a loop: the finished iterations are replayed, the failed one runs again (and those it never reached run)', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'each', type: 'loop', name: 'Each' },
        { id: 'call', type: 'api', name: 'Call', config: { url: `${upstream.url}/item?i=<loop.index>`, method: 'POST', retries: 0 }, parentId: 'each' },
        { id: 'check', type: 'function', name: 'Check', config: { code: 'if (<call.status> !== 200) throw new Error("item failed"); return <call.data>.i;' }, parentId: 'each' },
        { id: 'out', type: 'response', name: 'Out', config: { body: { results: '<each.results>' } } },
      ],
      [
        ['start', 'each'],
        ['each', 'call'],
        ['call', 'check'],
        ['each', 'out'],
      ],
    );
    const wf = await createAndDeploy(t, { ...state, loops: { each: { id: 'each', nodes: ['call', 'check'], loopType: 'for', iterations: 5 } } });
    const before = upstream.requests.length;
    script.failItemOnce = 2;
    const failed = await execute(wf);
    expect(failed.status, failed.text).toBe(500);
    // Iterations 0 and 1 finished, the third failed, the loop stopped there.
    expect(indexesOf(callsTo('/item', before))).toEqual([0, 1, 2]);

    const retryStart = upstream.requests.length;
    const retried = await retry(failed.body.executionId);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.results.map((r: { result: number }) => r.result)).toEqual([0, 1, 2, 3, 4]);
    // The failed iteration's call again, then the iterations never reached; none of the finished ones.
    expect(indexesOf(callsTo('/item', retryStart))).toEqual([2, 3, 4]);
    // A response block shaped the answer; the execution is named in its header.
    const log = await logDetailOf(t, retried.headers.get('x-execution-id')!);
    expect(log).toMatchObject({ rerunOf: failed.headers.get('x-execution-id'), rerunFromBlock: 'call' });
  });

  it('inside a parallel: the branches that finished are replayed, the failed branch runs again', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'fan', type: 'parallel', name: 'Fan' },
        { id: 'pcall', type: 'api', name: 'PCall', config: { url: `${upstream.url}/branch?i=<parallel.index>`, method: 'POST', retries: 0 }, parentId: 'fan' },
        { id: 'pcheck', type: 'function', name: 'PCheck', config: { code: 'if (<pcall.status> !== 200) throw new Error("branch failed"); return <pcall.data>.i;' }, parentId: 'fan' },
        { id: 'out', type: 'response', name: 'Out', config: { body: { results: '<fan.results>' } } },
      ],
      [
        ['start', 'fan'],
        ['fan', 'pcall'],
        ['pcall', 'pcheck'],
        ['fan', 'out'],
      ],
    );
    const wf = await createAndDeploy(t, { ...state, parallels: { fan: { id: 'fan', nodes: ['pcall', 'pcheck'], parallelType: 'count', count: 3 } } });
    const before = upstream.requests.length;
    script.failBranchOnce = 1;
    const failed = await execute(wf);
    expect(failed.status, failed.text).toBe(500);
    expect(indexesOf(callsTo('/branch', before))).toEqual([0, 1, 2]);

    const retryStart = upstream.requests.length;
    const retried = await retry(failed.body.executionId);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.results.map((r: { result: number }) => r.result)).toEqual([0, 1, 2]);
    expect(indexesOf(callsTo('/branch', retryStart))).toEqual([1]);
  });
});

describe('refusals', () => {
  it('a run still in flight: 409 EXECUTION_IN_PROGRESS', async () => {
    let release!: () => void;
    script.hold = new Promise((resolve) => (release = resolve));
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'slow', type: 'api', name: 'Slow', config: { url: `${upstream.url}/slow`, method: 'GET' } },
        ],
        [['start', 'slow']],
      ),
    );
    const before = upstream.requests.length;
    const queued = await execute(wf, {}, { 'X-Execution-Mode': 'async' });
    expect(queued.status).toBe(202);
    await eventually(() => callsTo('/slow', before).length > 0, 10_000, 'the run to reach the upstream');
    try {
      const refused = await rerun(queued.body.executionId);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.code).toBe('EXECUTION_IN_PROGRESS');
      expect((await retry(queued.body.executionId)).body.code).toBe('EXECUTION_IN_PROGRESS');
    } finally {
      release();
    }
    await logDetailOf(t, queued.body.executionId);
  });

  it('a block that does not exist, or that the original never reached: 400 naming it', async () => {
    const wf = await createAndDeploy(t, chainState());
    script.failB = true;
    const failed = await execute(wf, { item: 'x' });
    script.failB = false;
    const missing = await rerun(failed.body.executionId, { fromBlock: 'Nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('"Nope"');
    const unreached = await rerun(failed.body.executionId, { fromBlock: 'out' });
    expect(unreached.status).toBe(400);
    expect(unreached.body.error).toBe('The original run never reached block "out", so it cannot be re-run from it');
    const unknownField = await rerun(failed.body.executionId, { from: 'b' });
    expect(unknownField.status).toBe(400);
  });

  it('a block missing from the active deployment: 400 naming the version', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'y' });
    const smaller = makeState([{ id: 'start', type: 'api_trigger', name: 'API' }, { id: 'a', type: 'api', name: 'Fetch A', config: { url: `${upstream.url}/a` } }], [['start', 'a']]);
    expect((await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: smaller } })).status).toBe(200);
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    const refused = await rerun(first.body.executionId, { fromBlock: 'b', deployment: 'active' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Block "b" does not exist in deployment version 2');
    // The original version still has it.
    expect((await rerun(first.body.executionId, { fromBlock: 'b' })).status).toBe(200);
  });

  it('what a re-run from a block needs is gone: 410 EXECUTION_SNAPSHOT_GONE', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'z' });
    await logDetailOf(t, first.body.executionId);
    await t.app.db.execute(sql`update executions set trace_spans = null, trace_packed = null where ${isExecution(first.body.executionId)}`);
    const gone = await rerun(first.body.executionId, { fromBlock: 'b' });
    expect(gone.status, gone.text).toBe(410);
    expect(gone.body.code).toBe('EXECUTION_SNAPSHOT_GONE');
  });

  it('a deleted workflow, an unknown execution, another workspace\'s execution: 404', async () => {
    const wf = await createAndDeploy(t, chainState());
    const first = await execute(wf, { item: 'w' });
    await logDetailOf(t, first.body.executionId);

    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } });
    expect(other.status, other.text).toBe(201);
    const theirs = await createAndDeploy(t, chainState(), 'Theirs', { workspaceId: other.body.data.id, apiKey: t.personalKey });
    const theirRun = await t.request('POST', `/api/workflows/${theirs}/execute`, { apiKey: t.personalKey, body: { item: 'v' } });
    expect(theirRun.status, theirRun.text).toBe(200);
    // The Default workspace's key cannot see it.
    const hidden = await rerun(theirRun.body.executionId, {});
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');

    expect((await rerun('exec_doesnotexist')).status).toBe(404);
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}`)).status).toBeLessThan(300);
    const deleted = await rerun(first.body.executionId);
    expect(deleted.status).toBe(404);
  });
});

describe('re-runs and limits', () => {
  it('count against the sync rate limit like executions (X-RateLimit headers, 429), and are charged to the owner', async () => {
    const limited = await startTestApp({ SLUICE_LIMIT_SYNC_FREE: '2', SLUICE_BASE_COST_USD: '0.001' });
    try {
      const wf = await createAndDeploy(
        limited,
        makeState([{ id: 'start', type: 'api_trigger', name: 'API' }, { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return 1;' } }], [['start', 'fn']]),
      );
      await freshRateWindow();
      const first = await limited.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      expect(first.status).toBe(200);
      const again = await limited.request('POST', `/api/v1/executions/${first.body.executionId}/rerun`, { body: {} });
      expect(again.status, again.text).toBe(200);
      expect(again.headers.get('x-ratelimit-remaining')).toBe('0');
      // A dry run runs nothing and is not counted.
      expect((await limited.request('POST', `/api/v1/executions/${first.body.executionId}/rerun`, { body: { dryRun: true } })).status).toBe(200);
      const refused = await limited.request('POST', `/api/v1/executions/${first.body.executionId}/retry`, { body: {} });
      expect(refused.status).toBe(409); // refused for what it is before any limit is counted
      const over = await limited.request('POST', `/api/v1/executions/${first.body.executionId}/rerun`, { body: {} });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('RATE_LIMIT_EXCEEDED');
      const usage = await eventually(async () => {
        const res = await limited.request('GET', '/api/users/me/usage-limits');
        return res.body.usage.currentPeriodCost >= 0.002 - 1e-9 && res.body.usage;
      }, 10_000, 'both runs to be charged');
      expect(usage.currentPeriodCost).toBeCloseTo(0.002, 6);
    } finally {
      await limited.close();
    }
  });
});
