// Bulk re-runs (docs/api.md "Bulk re-runs"): `POST /api/v1/executions/rerun` queues a re-run of every execution the
// logs filters select, each once; `GET /api/v1/executions/rerun/{batchId}` follows them. Counted with a real local
// upstream that fails until it is fixed; driven through the API as a user would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { json, startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';

let t: TestApp;
let worker: Worker;
let upstream: FakeUpstream;
let failB = false;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  upstream = await startUpstream((_req, res, recorded) => {
    const path = new URL(recorded.url, 'http://upstream').pathname;
    if (path === '/b' && failB) return json(res, 500, { down: true });
    json(res, 200, { path });
  });
});
afterAll(async () => {
  await worker?.stop(1_000);
  await upstream?.close();
  await t?.close();
});

const callsTo = (path: string, since: number) => upstream.requests.slice(since).filter((r) => new URL(r.url, 'http://upstream').pathname === path);

/** API → GET /a → POST /b → a check that fails when /b did → the output. */
const chainState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
      { id: 'a', type: 'api', name: 'Fetch A', config: { url: `${upstream.url}/a`, method: 'GET' } },
      { id: 'b', type: 'api', name: 'Post B', config: { url: `${upstream.url}/b`, method: 'POST', retries: 0, body: { item: '<api.item>' } } },
      { id: 'check', type: 'function', name: 'Check', config: { code: 'if (<postb.status> !== 200) throw new Error("B is down"); return <postb.data>;' } },
      { id: 'out', type: 'function', name: 'Out', config: { code: 'return { item: <api.item>, b: <check.result>.path };' } },
    ],
    [
      ['start', 'a'],
      ['a', 'b'],
      ['b', 'check'],
      ['check', 'out'],
    ],
  );

/** Runs the workflow once per item, failing at /b for those listed in `failing`; the execution ids, logged. */
async function runs(workflowId: string, items: string[], failing: string[], apiKey?: string, workspaceId = t.workspaceId) {
  const ids: Record<string, string> = {};
  for (const item of items) {
    failB = failing.includes(item);
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { item }, apiKey });
    expect(res.status, res.text).toBe(failB ? 500 : 200);
    ids[item] = res.body.executionId;
  }
  failB = false;
  // Logged before they are looked for (a sync answer may come before its log is committed).
  await eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${workspaceId}&workflowIds=${workflowId}&limit=1000`, { apiKey });
    return res.body.data?.length === items.length;
  }, 15_000, 'the logs');
  return ids;
}

const bulk = (body: Record<string, unknown>, headers: Record<string, string> = {}, apiKey?: string) =>
  t.request('POST', '/api/v1/executions/rerun', { body, headers, apiKey });
const progressOf = (batchId: string, apiKey?: string) => t.request('GET', `/api/v1/executions/rerun/${batchId}`, { apiKey });
const finished = (batchId: string) =>
  eventually(async () => {
    const res = await progressOf(batchId);
    return res.body.data?.done === true && res.body.data;
  }, 20_000, 'the batch to finish');
const rerunsOf = async (executionId: string) =>
  (await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&rerunOf=${executionId}`)).body.data as Array<{ executionId: string }>;

describe('bulk re-runs', () => {
  it('retries exactly the failed runs among successes, each once, from the failed block; progress converges to all succeeded', async () => {
    const wf = await createAndDeploy(t, chainState(), 'Bulk');
    const ids = await runs(wf, ['ok1', 'bad1', 'ok2', 'bad2', 'bad3'], ['bad1', 'bad2', 'bad3']);
    const failed = [ids.bad1, ids.bad2, ids.bad3];
    const before = upstream.requests.length;

    const queued = await bulk({ workspaceId: t.workspaceId, filter: { workflowIds: [wf], level: 'error' }, fromFailedBlock: true });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body.data).toMatchObject({ total: 3, queued: 3 });
    const batchId: string = queued.body.data.batchId;

    const done = await finished(batchId);
    expect(done).toMatchObject({ batchId, total: 3, queued: 0, running: 0, succeeded: 3, failed: 0, skipped: 0, done: true });
    expect(done.executions.map((e: { originalExecutionId: string }) => e.originalExecutionId).sort()).toEqual([...failed].sort());
    // From the failed block: /a is replayed from the log, /b is called once per failed run.
    expect(callsTo('/a', before)).toHaveLength(0);
    expect(callsTo('/b', before)).toHaveLength(3);
    for (const original of failed) {
      const reruns = await rerunsOf(original);
      expect(reruns).toHaveLength(1);
      const log = await logDetailOf(t, reruns[0]!.executionId);
      expect(log).toMatchObject({ status: 'success', rerunOf: original, rerunFromBlock: 'b' });
    }
    expect(await rerunsOf(ids.ok1!)).toEqual([]);
    expect(await rerunsOf(ids.ok2!)).toEqual([]);
  });

  it('without fromFailedBlock re-runs every matching run whole, newest first up to the limit', async () => {
    const wf = await createAndDeploy(t, chainState(), 'Whole');
    const ids = await runs(wf, ['w1', 'w2', 'w3'], ['w2']);
    const before = upstream.requests.length;
    const queued = await bulk({ workspaceId: t.workspaceId, filter: { workflowIds: wf }, limit: 2 });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body.data).toMatchObject({ total: 2, queued: 2 });
    const done = await finished(queued.body.data.batchId);
    expect(done.executions.map((e: { originalExecutionId: string }) => e.originalExecutionId)).toEqual([ids.w3, ids.w2]);
    expect(done.succeeded).toBe(2);
    expect(callsTo('/a', before)).toHaveLength(2);
  });

  it('a re-run whose workflow is deleted before it starts ends the batch as failed with the reason, not queued forever', async () => {
    const wf = await createAndDeploy(t, chainState(), 'Doomed');
    await runs(wf, ['d1'], ['d1']);
    // No worker while the batch is queued and its workflow deleted: its re-run cannot start before the delete.
    await worker.stop(1_000);
    const queued = await bulk({ workspaceId: t.workspaceId, filter: { workflowIds: wf } });
    expect(queued.body.data).toMatchObject({ total: 1, queued: 1 });
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}`)).status).toBe(204);
    worker = createAppWorker(t.app, { pollIntervalMs: 50 });
    await worker.start();
    const done = await finished(queued.body.data.batchId);
    expect(done).toMatchObject({ total: 1, queued: 0, failed: 1, done: true });
    expect(done.executions[0].reason).toMatch(/deleted/);
  });

  it('the same Idempotency-Key answers the same batch and queues nothing more; with another body it is refused', async () => {
    const wf = await createAndDeploy(t, chainState(), 'Keyed');
    const ids = await runs(wf, ['k1'], ['k1']);
    const body = { workspaceId: t.workspaceId, filter: { workflowIds: wf }, fromFailedBlock: true };
    const first = await bulk(body, { 'Idempotency-Key': 'nightly-retry-1' });
    expect(first.status, first.text).toBe(202);
    await finished(first.body.data.batchId);

    const again = await bulk(body, { 'Idempotency-Key': 'nightly-retry-1' });
    expect(again.status, again.text).toBe(202);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await rerunsOf(ids.k1!)).toHaveLength(1);

    const other = await bulk({ ...body, limit: 5 }, { 'Idempotency-Key': 'nightly-retry-1' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    // Two requests with one new key at the same time: one batch, each failed run re-run once more in all.
    const both = await Promise.all([1, 2].map(() => bulk(body, { 'Idempotency-Key': 'nightly-retry-2' })));
    expect(both.map((r) => r.status)).toEqual([202, 202]);
    expect(both[0]!.body.data).toEqual(both[1]!.body.data);
    await finished(both[0]!.body.data.batchId);
    expect(await rerunsOf(ids.k1!)).toHaveLength(2);
  });

  it('refuses a limit over 1000, an unknown filter and a malformed one with 400 naming it', async () => {
    const over = await bulk({ workspaceId: t.workspaceId, fromFailedBlock: true, limit: 1001 });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('VALIDATION_ERROR');
    expect(over.body.details.map((d: { path: string }) => d.path)).toContain('limit');

    const unknown = await bulk({ workspaceId: t.workspaceId, filter: { status: 'error' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error, unknown.text).toContain('"status"');

    const malformed = await bulk({ workspaceId: t.workspaceId, filter: { level: 'warn', startDate: 'yesterday' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['filter.level', 'filter.startDate']);
  });

  it("never matches another workspace's executions, and another workspace's batch cannot be read", async () => {
    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } });
    expect(other.status, other.text).toBe(201);
    const otherWorkspace: string = other.body.data.id;
    const theirs = await createAndDeploy(t, chainState(), 'Theirs', { workspaceId: otherWorkspace, apiKey: t.personalKey });
    const theirIds = await runs(theirs, ['t1'], ['t1'], t.personalKey, otherWorkspace);

    // Their workflow named in our workspace's filter matches nothing.
    const ours = await bulk({ workspaceId: t.workspaceId, filter: { workflowIds: theirs }, fromFailedBlock: true });
    expect(ours.status, ours.text).toBe(202);
    expect(ours.body.data).toMatchObject({ total: 0, queued: 0 });
    // The Default workspace's key cannot act in theirs.
    const refused = await bulk({ workspaceId: otherWorkspace, fromFailedBlock: true });
    expect(refused.status).toBe(403);

    const theirBatch = await bulk({ workspaceId: otherWorkspace, filter: { workflowIds: theirs }, fromFailedBlock: true }, {}, t.personalKey);
    expect(theirBatch.status, theirBatch.text).toBe(202);
    expect(theirBatch.body.data).toMatchObject({ total: 1, queued: 1 });
    expect((await progressOf(theirBatch.body.data.batchId)).status).toBe(404);
    const seen = await eventually(async () => {
      const res = await progressOf(theirBatch.body.data.batchId, t.personalKey);
      return res.body.data?.done === true && res.body.data;
    }, 20_000, 'their batch');
    expect(seen.executions).toEqual([expect.objectContaining({ originalExecutionId: theirIds.t1, status: 'succeeded' })]);
    expect((await progressOf('rrb_doesnotexist')).status).toBe(404);
  });
});
