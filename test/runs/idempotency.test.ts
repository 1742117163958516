// Idempotency-Key on execute calls, in every mode (README "Idempotency"): the same key and request replay the first
// answer, a different request under the same key is 422, a repeat while the first still runs is 409, and a key is
// free again after 24 hours. Each replay is checked by the side effect a user would see: how often the workflow ran.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/db/schema.js';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
let upstream: FakeUpstream;
let worker: Worker;
/** Requests for paths listed here are held until released (a run that is "still running"). */
const held = new Map<string, () => void>();

beforeAll(async () => {
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50' });
  upstream = await startUpstream((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (req.url?.startsWith('/hold')) held.set(req.url, answer);
    else answer();
  });
  worker = createAppWorker(t.app);
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(1_000);
  await upstream?.close();
  await t?.close();
});

/** api_trigger → API block calling the upstream at `path` → function: each run is one upstream request. */
const calling = (path: string) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'n', type: 'number' }] } },
      { id: 'call', type: 'api', name: 'Call', config: { url: `${upstream.url}${path}`, method: 'POST', body: { n: '<api.n>' }, retries: 0 } },
      { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return { n: <api.n> };' } },
    ],
    [
      ['start', 'call'],
      ['call', 'fn'],
    ],
  );

const timesCalled = (path: string) => upstream.requests.filter((r) => r.url === path).length;

const execute = (workflowId: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers: { 'idempotency-key': key, ...headers } });

describe('Idempotency-Key', () => {
  it('plain: replays the first answer, with Idempotent-Replayed, and runs once', async () => {
    const wf = await createAndDeploy(t, calling('/plain'));
    const first = await execute(wf, { n: 1 }, 'k-plain');
    const again = await execute(wf, { n: 1 }, 'k-plain');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-execution-id')).toBe(first.body.executionId);
    expect(timesCalled('/plain')).toBe(1);
  });

  it('streaming: a repeat gets the first run’s final record as a stream, and the run is not repeated', async () => {
    const wf = await createAndDeploy(t, calling('/stream'));
    const first = await execute(wf, { n: 2, stream: true }, 'k-stream');
    const again = await execute(wf, { n: 2, stream: true }, 'k-stream');
    expect(again.headers.get('content-type')).toContain('text/event-stream');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const done = (text: string) => parseSse(text).records.find((r) => (r as { event?: string }).event === 'done');
    expect(done(again.text)).toEqual(done(first.text));
    expect(parseSse(again.text).records.at(-1)).toBe('[DONE]');
    expect(again.headers.get('x-execution-id')).toBe(first.headers.get('x-execution-id'));
    expect(timesCalled('/stream')).toBe(1);
  });

  it('async: a repeat gets the same task, and the workflow runs once', async () => {
    const wf = await createAndDeploy(t, calling('/async'));
    const first = await execute(wf, { n: 3 }, 'k-async', { 'x-execution-mode': 'async' });
    const again = await execute(wf, { n: 3 }, 'k-async', { 'x-execution-mode': 'async' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.taskId).toBe(first.body.taskId);
    expect(again.body.executionId).toBe(first.body.executionId);
    await eventually(async () => (await t.request('GET', `/api/jobs/${first.body.taskId}`)).body.status === 'completed', 15_000, 'the job');
    expect(timesCalled('/async')).toBe(1);
  });

  it('the same key with another body or another mode is 422 IDEMPOTENCY_KEY_REUSED and runs nothing', async () => {
    const wf = await createAndDeploy(t, calling('/reuse'));
    expect((await execute(wf, { n: 4 }, 'k-reuse')).status).toBe(200);
    const otherBody = await execute(wf, { n: 5 }, 'k-reuse');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherMode = await execute(wf, { n: 4 }, 'k-reuse', { 'x-execution-mode': 'async' });
    expect(otherMode.status).toBe(422);
    expect(timesCalled('/reuse')).toBe(1);
  });

  it('a repeat while the first call still runs is 409 IDEMPOTENCY_CONFLICT; afterwards it replays', async () => {
    const wf = await createAndDeploy(t, calling('/hold-1'));
    const first = execute(wf, { n: 6 }, 'k-running');
    await eventually(() => held.has('/hold-1'), 10_000, 'the first run to reach the upstream');
    const during = await execute(wf, { n: 6 }, 'k-running');
    expect(during.status).toBe(409);
    expect(during.body.code).toBe('IDEMPOTENCY_CONFLICT');
    held.get('/hold-1')!();
    const done = await first;
    expect(done.status).toBe(200);
    const after = await execute(wf, { n: 6 }, 'k-running');
    expect(after.body).toEqual(done.body);
    expect(timesCalled('/hold-1')).toBe(1);
  });

  it('a key is free again after 24 hours: the same request then runs anew', async () => {
    const wf = await createAndDeploy(t, calling('/expiry'));
    const first = await execute(wf, { n: 7 }, 'k-expiry');
    await t.app.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '24 hours 1 minute'` })
      .where(and(eq(idempotencyKeys.workflowId, wf), eq(idempotencyKeys.key, 'k-expiry')));
    const later = await execute(wf, { n: 7 }, 'k-expiry');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.executionId).not.toBe(first.body.executionId);
    expect(timesCalled('/expiry')).toBe(2);
  });

  it('a call refused before it runs (a bad file) does not use up its key', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'docs', type: 'files' }] } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return 1;' } },
      ],
      [['start', 'fn']],
    );
    const wf = await createAndDeploy(t, state);
    const bad = await execute(wf, { docs: [{ type: 'file', name: 'x', data: 'not a data url' }] }, 'k-bad');
    expect(bad.status).toBe(400);
    const good = await execute(wf, { docs: [] }, 'k-bad');
    expect(good.status).toBe(200);
  });
});
