// Flow control on the editor's Run and on re-runs (docs/workflows.md "Flow control", docs/api.md 4.11): the editor's
// Run takes a throttle start like a sync call (429 THROTTLED with Retry-After); a re-run follows the workflow's flow
// control like an execute call of its mode — an async one is refused under `reject` and a singleton's `skip` when
// the key is full, a sync one also takes a throttle start. One process (PGlite, or PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually } from '../support/workflows.js';
import { flowState, type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' }, 50);
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

const execute = (workflowId: string, body: Record<string, unknown>) => t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
const rerun = (executionId: string, body: Record<string, unknown>) => t.request('POST', `/api/v1/executions/${executionId}/rerun`, { body });

/** A finished run of the workflow for `customer`, to re-run. */
async function finishedRun(workflowId: string, customer: string): Promise<string> {
  const res = await execute(workflowId, { customer, tag: 'original' });
  expect(res.status, res.text).toBe(200);
  return res.headers.get('x-execution-id')!;
}

/** Runs `fn` while a sync call of the workflow for `customer` is in flight (its upstream call held). */
async function whileInFlight<T>(workflowId: string, customer: string, fn: () => Promise<T>): Promise<T> {
  const gate = server.hold();
  const running = execute(workflowId, { customer, tag: 'holder' });
  try {
    await eventually(async () => server.inFlight(customer) === 1 || undefined, 20_000, 'the holder to call the upstream');
    return await fn();
  } finally {
    gate.release();
    expect((await running).status).toBe(200);
  }
}

describe("the editor's Run", { timeout: 60_000 }, () => {
  it('takes a throttle start: over the rate it is 429 THROTTLED with Retry-After, before any stream starts', async () => {
    const created = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Throttled draft', state: flowState(server.url, { throttle: { limit: 1, periodMs: 60_000 } }) },
    });
    expect(created.status, created.text).toBe(201);
    const wf = created.body.data.id as string;
    const run = (stream: boolean) =>
      t.request('POST', `/api/v1/workflows/${wf}/run${stream ? '' : '?stream=false'}`, { body: { input: { customer: 'editor', tag: 'x' } } });
    expect((await run(false)).status).toBe(200);
    for (const stream of [false, true]) {
      const refused = await run(stream);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect(refused.body).toMatchObject({ code: 'THROTTLED' });
      expect(refused.body.error).toContain('Throttled: 1 run per 60000 ms for this key have started');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(server.visits.filter((v) => v.key === 'editor')).toHaveLength(1);
  });
});

describe('re-runs', { timeout: 60_000 }, () => {
  it("singleton skip: an async re-run (and a sync one) while the key's run is in flight is 409 ALREADY_RUNNING naming it", async () => {
    const customer = `skip-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, flowState(server.url, { singleton: { mode: 'skip', key: '<api.customer>' } }), 'Skip rerun');
    const original = await finishedRun(wf, customer);
    const [queued, now] = await whileInFlight(wf, customer, async () => [await rerun(original, { mode: 'async' }), await rerun(original, {})]);
    for (const refused of [queued, now]) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.code).toBe('ALREADY_RUNNING');
      expect(refused.body.runningExecutionId).toMatch(/^exec_/);
    }
    // Once the key is free, an async re-run is taken.
    expect((await rerun(original, { mode: 'async' })).status).toBe(202);
  });

  it('concurrency reject: an async re-run (and a sync one) while the key is full is 429 CONCURRENCY_LIMIT', async () => {
    const customer = `reject-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>', onLimit: 'reject' } }), 'Reject rerun');
    const original = await finishedRun(wf, customer);
    const [queued, now] = await whileInFlight(wf, customer, async () => [await rerun(original, { mode: 'async' }), await rerun(original, {})]);
    for (const refused of [queued, now]) {
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body.code).toBe('CONCURRENCY_LIMIT');
      expect(refused.headers.get('retry-after')).toBe('1');
    }
  });

  it('throttle: a sync re-run over the rate is 429 THROTTLED with Retry-After; an async one is queued, not refused', async () => {
    const customer = `thr-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, flowState(server.url, { throttle: { limit: 1, periodMs: 60_000, key: '<api.customer>' } }), 'Throttled rerun');
    const original = await finishedRun(wf, customer);
    const now = await rerun(original, {});
    expect(now.status, now.text).toBe(429);
    expect(now.body.code).toBe('THROTTLED');
    expect(Number(now.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await rerun(original, { mode: 'async' })).status).toBe(202);
    expect(server.visits.filter((v) => v.key === customer)).toHaveLength(1);
  });
});
