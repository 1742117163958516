// A delivery whose body cannot be built — a large value of its log is in file storage (docs/operations.md "Large values
// in logs") and storage cannot give it back — is never lost (docs/guarantees.md 3.3, 3.4): it waits on the retry
// schedule for as long as storage is down, without using up its job, says why in its history meanwhile, and is sent
// whole once the value can be read. A value still unreadable after a day gives the delivery up as `failed` with the
// reason, open to redelivery; so does a job the worker gives up. Run on the local disk (the value's file replaced by a
// directory, which opens but cannot be read) and on S3 (s3rver behind a proxy that resets every connection).
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries } from '../../src/db/schema.js';
import { rowsOf } from '../../src/db/rows.js';
import { UNBUILT_GIVE_UP_MS } from '../../src/services/completion-webhooks/constants.js';
import type { Worker } from '../../src/jobs/worker.js';
import type { TestApp } from '../support/app.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { createAndDeploy, makeState } from '../support/workflows.js';
import { eventually, offsetClock, startReceiver, subscribe, useWorkerApp, type TestClock } from './support.js';

/** The wait after the n-th failure: growing, so a wait shows which failure it followed. */
const SCHEDULE_MS = [60_000, 120_000, 240_000];
const env = {
  // The smallest inline limit, so the run's ~2 KB output goes to file storage.
  SLUICE_INLINE_VALUE_LIMIT: '1024',
  SLUICE_WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','),
};
/** The delivery job's claims before the worker gives it up (SLUICE_WEBHOOK_MAX_ATTEMPTS 5 + CLAIM_MARGIN 10). */
const MAX_CLAIMS = 15;
const NOT_SENT_YET = "Not sent yet: the body could not be built from the execution's log";

/** `api_trigger → function` whose output repeats the input 200 times: about 2 KB, over the inline limit. */
const state = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
    { id: 'grow', type: 'function', name: 'Grow', config: { code: 'const q = <api.q>; return { q, big: q.repeat(200) }' } },
  ],
  [['start', 'grow']],
);

interface Fixture {
  t: TestApp;
  worker: Worker;
  clock: TestClock;
  receiver(statuses: number[]): ReturnType<typeof startReceiver>;
}

/** One app with an in-process worker on a clock the test moves, so each retry runs when the test says. */
function useFixture(env: Record<string, string> | (() => Record<string, string>)): Fixture {
  const clock = offsetClock();
  const fixture = {} as Fixture;
  // The environment is read when the app starts (after the S3 server's beforeAll, for S3).
  const hooks = useWorkerApp(
    (ready) => Object.assign(fixture, ready),
    {
      clock,
      get env() {
        return typeof env === 'function' ? env() : env;
      },
    },
  );
  fixture.clock = clock;
  fixture.receiver = async (statuses) =>
    hooks.track(
      await startReceiver((_req, res, _recorded, index) => {
        res.writeHead(statuses[Math.min(index, statuses.length - 1)]);
        res.end('ok');
      }),
    );
  return fixture;
}

async function deliveryOf(t: TestApp, executionId: string) {
  const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, executionId));
  return row;
}

/** The delivery job still queued for it, if any. */
async function jobOf(t: TestApp, deliveryId: string) {
  const [job] = await rowsOf(t.app.db, sql`select status, attempts from jobs where payload->>'deliveryId' = ${deliveryId}`);
  return job;
}

/**
 * Runs the workflow with a subscription asking for the final output, against a receiver that fails the first attempt,
 * and waits for that attempt to be recorded: the delivery then waits for its retry, with the value in file storage.
 */
async function runWithFailedFirstAttempt(f: Fixture) {
  const r = await f.receiver([500, 200]);
  const workflowId = await createAndDeploy(f.t, state);
  const sub = await subscribe(f.t, workflowId, { url: r.url, includeFinalOutput: true });
  const marker = `MARK-${randomBytes(4).toString('hex')}`;
  const res = await f.t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: marker } });
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  const executionId = res.body.executionId as string;
  const first = await eventually(async () => {
    const row = await deliveryOf(f.t, executionId);
    return row?.attempts === 1 && row.nextAttemptAt !== null && row;
  }, 15_000, 'the first attempt recorded');
  expect(r.requests).toHaveLength(1);
  return { r, workflowId, sub, executionId, deliveryId: first.id, finalOutput: { result: { q: marker, big: marker.repeat(200) }, stdout: '' } };
}

/**
 * Moves the clock to the delivery's next try and waits for that try to be recorded: the delivery's next try moved
 * (a wait for storage), it settled, or it was sent again. Returns the row and the wait it was given, if any.
 */
async function nextTry(f: Fixture, executionId: string) {
  const before = (await deliveryOf(f.t, executionId))!;
  expect(before.status).toBe('pending');
  const due = before.nextAttemptAt!.getTime();
  f.clock.advance(Math.max(0, due - f.clock.now()) + 1);
  const triedAt = f.clock.now();
  f.worker.wake();
  const row = await eventually(async () => {
    const now = await deliveryOf(f.t, executionId);
    const moved = now.nextAttemptAt !== null && now.nextAttemptAt.getTime() > due;
    return (moved || now.status !== 'pending' || now.attempts !== before.attempts) && now;
  }, 15_000, `the delivery's try due ${before.nextAttemptAt!.toISOString()} recorded`);
  return { row, waitMs: row.nextAttemptAt === null ? null : row.nextAttemptAt.getTime() - triedAt };
}

/** A wait of the schedule's entry `n` (1-based, the last repeating), with its ≤10% jitter and a little slack. */
function expectScheduledWait(waitMs: number | null, n: number) {
  const base = SCHEDULE_MS[Math.min(n, SCHEDULE_MS.length) - 1];
  expect(waitMs).toBeGreaterThanOrEqual(base - 1_000);
  expect(waitMs).toBeLessThanOrEqual(base * 1.1 + 1_000);
}

describe('a delivery whose body cannot be built (local disk)', () => {
  const f = useFixture(env);

  /** Replaces each value file of the execution by a directory (it opens, but reading it fails); returns the undo. */
  async function breakValues(executionId: string) {
    const dir = join(f.t.config.dataDir, 'files', 'executions', executionId, 'values');
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    expect(names.length, 'values in file storage').toBeGreaterThan(0);
    for (const name of names) {
      await rename(join(dir, name), join(dir, `${name}.kept`));
      await mkdir(join(dir, name));
    }
    return async () => {
      for (const name of names) {
        await rm(join(dir, name), { recursive: true });
        await rename(join(dir, `${name}.kept`), join(dir, name));
      }
    };
  }

  it('waits on the retry schedule for as long as the value cannot be read, past the job’s claims, and sends the whole body once it can', async () => {
    const run = await runWithFailedFirstAttempt(f);
    const restore = await breakValues(run.executionId);

    // More tries than the job may be claimed: waiting for storage does not use the job up, and each wait is the
    // schedule's next entry, as after a failed attempt.
    for (let n = 1; n <= MAX_CLAIMS + 3; n++) {
      const { row, waitMs } = await nextTry(f, run.executionId);
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.lastError).toBe(
        // A local disk's I/O error is the storage's 503 (local-storage.ts), whose message a client may see.
        `${NOT_SENT_YET} (File storage is unavailable; try again later); trying again on the retry schedule`,
      );
      expectScheduledWait(waitMs, n);
    }
    expect(run.r.requests).toHaveLength(1);
    expect(await jobOf(f.t, run.deliveryId)).toMatchObject({ status: 'queued' });

    await restore();
    const { row } = await nextTry(f, run.executionId);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, lastError: null });
    expect(run.r.requests).toHaveLength(2);
    const [first, second] = run.r.requests;
    expect(second.body.equals(first.body)).toBe(true);
    expect(JSON.parse(second.body.toString('utf8')).data.finalOutput).toEqual(run.finalOutput);
  });

  it('gives the delivery up after a day of an unreadable value: failed with the reason in its history, and redeliverable', async () => {
    const run = await runWithFailedFirstAttempt(f);
    const restore = await breakValues(run.executionId);
    await nextTry(f, run.executionId);
    // A day on, the value is still unreadable.
    f.clock.advance(UNBUILT_GIVE_UP_MS);
    const { row } = await nextTry(f, run.executionId);
    const reason =
      "Not sent: the body could not be built from the execution's log (File storage is unavailable; try again later) for 24 hours; redeliver it once file storage can be read";
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: reason, nextAttemptAt: null });
    expect(await jobOf(f.t, run.deliveryId)).toBeUndefined();
    expect(run.r.requests).toHaveLength(1);

    // Storage readable again: the history says what happened, and a redelivery sends the same bytes.
    await restore();
    const history = await f.t.request('GET', `/api/v1/workflows/${run.workflowId}/webhooks/${run.sub.id}/deliveries`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ id: run.deliveryId, status: 'failed', attemptCount: 1, lastError: reason, nextAttemptAt: null });
    const again = await f.t.request('POST', `/api/v1/workflows/${run.workflowId}/webhooks/deliveries/${run.deliveryId}/redeliver`);
    expect(again.status, again.text).toBe(202);
    await run.r.waitForRequests(2);
    expect(run.r.requests[1].body.equals(run.r.requests[0].body)).toBe(true);
  });

  it('marks the delivery failed when the worker gives its job up, instead of leaving it pending with no job', async () => {
    const run = await runWithFailedFirstAttempt(f);
    // As if workers had died holding the job until it reached its last claim (workers killed mid-job are what
    // ledger.test.ts does; killing fifteen here would only make this slower).
    await rowsOf(f.t.app.db, sql`update jobs set attempts = ${MAX_CLAIMS} where payload->>'deliveryId' = ${run.deliveryId}`);
    const { row } = await nextTry(f, run.executionId);
    const reason = `Not sent: Gave up after ${MAX_CLAIMS} claims (workers kept stopping during this job)`;
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: reason });
    expect(await jobOf(f.t, run.deliveryId)).toBeUndefined();
    expect(run.r.requests).toHaveLength(1);
    const history = await f.t.request('GET', `/api/v1/workflows/${run.workflowId}/webhooks/${run.sub.id}/deliveries`);
    expect(history.body.data[0]).toMatchObject({ status: 'failed', lastError: reason });
  });
});

describe('a delivery whose body cannot be built (S3 unreachable)', () => {
  let s3: TestS3Server;
  let proxy: TcpProxy;
  // Registered before the app's hooks: started before the app, closed after it.
  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(s3.endpoint).port));
  });
  afterAll(async () => {
    await proxy?.cut();
    await s3?.close();
  });
  const f = useFixture(() => ({ ...env, ...s3.env('sluice'), SLUICE_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` }));

  it('waits out the outage on the retry schedule, saying storage is unavailable, and sends the whole body when it is back', async () => {
    const run = await runWithFailedFirstAttempt(f);
    expect((await s3.keys()).some((key) => key.startsWith(`sluice/executions/${run.executionId}/values/`))).toBe(true);
    proxy.down();
    try {
      for (let n = 1; n <= 3; n++) {
        const { row, waitMs } = await nextTry(f, run.executionId);
        expect(row).toMatchObject({ status: 'pending', attempts: 1 });
        expect(row.lastError).toBe(`${NOT_SENT_YET} (File storage is unavailable; try again later); trying again on the retry schedule`);
        expectScheduledWait(waitMs, n);
      }
      // The history shows the delivery's body, which needs the value too: it says storage is down, in the error shape.
      const history = await f.t.request('GET', `/api/v1/workflows/${run.workflowId}/webhooks/${run.sub.id}/deliveries`);
      expect(history.status).toBe(503);
      expect(history.body).toEqual({ code: 'FILE_STORAGE_UNAVAILABLE', error: 'File storage is unavailable; try again later' });
    } finally {
      proxy.up();
    }
    const { row } = await nextTry(f, run.executionId);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(JSON.parse(run.r.requests[1].body.toString('utf8')).data.finalOutput).toEqual(run.finalOutput);
  });
});
