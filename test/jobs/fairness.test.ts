// Worker fairness (issue 12): a receiver that never answers must not hold back other kinds of jobs. Deliveries to
// it fill every slot they may take; an async run enqueued afterwards still starts and finishes while they hang.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, jobs } from '../../src/db/schema.js';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { DELIVERY_JOB } from '../../src/services/completion-webhooks/constants.js';
import type { FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createDeployedWorkflow, eventually, plainState, runOnce, startReceiver, subscribe } from '../completion-webhooks/support.js';

const CONCURRENCY = 8;
const DELIVERIES = 2 * CONCURRENCY;

let t: TestApp;
let worker: Worker | undefined;
let silent: FakeUpstream;

beforeAll(async () => {
  // Attempts never time out during the test: only a free slot can let anything else run.
  t = await startTestApp({ SLUICE_WORKER_CONCURRENCY: String(CONCURRENCY), SLUICE_WEBHOOK_TIMEOUT_MS: '300000' });
  silent = await startReceiver(() => undefined);
});
afterAll(async () => {
  await worker?.stop(1000);
  await silent?.close();
  await t?.close();
});

describe('worker fairness', () => {
  it('runs an async execution enqueued behind many deliveries to a receiver that never answers', async () => {
    const hooked = await createDeployedWorkflow(t, plainState());
    await subscribe(t, hooked.id, { url: silent.url });
    for (let i = 0; i < DELIVERIES; i++) await runOnce(t, hooked);

    worker = createAppWorker(t.app, { pollIntervalMs: 50 });
    await worker.start();
    // Deliveries take what they may (all but the slots kept for the other kinds) and hang there; more wait.
    await eventually(() => silent.requests.length >= CONCURRENCY / 2, 15_000, 'deliveries to fill their slots');

    const other = await createDeployedWorkflow(t, plainState());
    const submitted = await t.request('POST', `/api/workflows/${other.id}/execute`, {
      body: { q: 'not stuck' },
      headers: { 'X-Execution-Mode': 'async' },
    });
    expect(submitted.status).toBe(202);
    const done = await eventually(async () => {
      const res = await t.request('GET', `/api/jobs/${submitted.body.taskId}`);
      return res.body.status === 'completed' && res.body;
    }, 15_000, 'the async execution to complete');
    expect(done.output).toMatchObject({ result: 'NOT STUCK' });

    // It finished while every delivery was still hanging or waiting: none has got an answer or given up.
    expect(await t.app.db.select().from(deliveryAttempts)).toEqual([]);
    const pending = await t.app.db.select().from(deliveries).where(eq(deliveries.status, 'pending'));
    expect(pending).toHaveLength(DELIVERIES);
    const waiting = await t.app.db.select().from(jobs).where(and(eq(jobs.kind, DELIVERY_JOB), eq(jobs.status, 'queued')));
    expect(waiting.length).toBeGreaterThan(0);
    expect(silent.requests.length).toBeLessThan(CONCURRENCY);
  });
});
