// Requests that decide a paused run at the same moment (README "Human approval", "Cancelling a run"): one wins, the
// others are told the run is no longer waiting — also when the run paused in an earlier month. On PostgreSQL logs
// are partitioned by the month of started_at (docs/operations.md "Log partitions"), and closing or resuming a paused
// run restarts its clock, so the winner moves the row to this month's partition; the losers then failed with
// SQLSTATE 40001 (500 INTERNAL_ERROR, a failed resume job) instead of finding the run decided.
//
// To make the requests truly meet, the PostgreSQL cases hold the run's row locked until every request waits on it:
// they then go in the order they arrived. PGlite runs one statement at a time, so there they simply overlap.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExecutionPartitions } from '../../src/db/executions-partitions.js';
import { createResumeJobHandler, reopenStrandedResumes, RESUME_JOB, runExecution } from '../../src/runs/index.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';
import { isExecution } from '../../src/db/execution-lookup.js';

const DAY_MS = 86_400_000;

let t: TestApp;
let hanging: FakeUpstream;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  hanging = await startUpstream(() => undefined); // never answers: a resumed run waits there until it is cancelled
});
afterAll(async () => {
  await hanging?.close();
  await t?.close();
});

/** API → approval → a call that never answers (so a resumed run is still running when a cancel reaches it). */
const gatedState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'gate', type: 'approval', name: 'Gate', config: {} },
      { id: 'call', type: 'api', name: 'Call', config: { url: `${hanging.url}/slow`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
    ],
    [
      ['start', 'gate'],
      ['gate', 'call'],
    ],
  );

const cancel = (executionId: string) => t.request('POST', `/api/v1/executions/${executionId}/cancel`);

/** A paused run; `daysAgo` > 0 dates its pause back (into that month's partition on PostgreSQL). */
async function pausedRun(daysAgo = 0): Promise<string> {
  const paused = await t.request('POST', `/api/workflows/${await createAndDeploy(t, gatedState())}/execute`, { body: {} });
  expect(paused.status, paused.text).toBe(202);
  const { executionId } = paused.body;
  if (daysAgo > 0) {
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    await ensureExecutionPartitions(t.app.db, at);
    await t.app.db.execute(sql`update executions set started_at = ${at} where ${isExecution(executionId)}`);
  }
  return executionId;
}

/** A run decided and waiting for its resume job, which the test runs itself (no worker here takes it). */
async function resumingRun(daysAgo: number) {
  const executionId = await pausedRun(daysAgo);
  await t.app.db.execute(sql`update executions set status = 'resuming',
    pause = jsonb_set(pause, '{pending}', '{"approved":true,"data":{},"decidedBy":null,"decidedAt":"2026-01-01T00:00:00.000Z"}')
    where ${isExecution(executionId)}`);
  const handler = createResumeJobHandler(t.app, runExecution);
  const context = { clock: { now: Date.now }, signal: new AbortController().signal, workerId: 'test' };
  const resumeJob = () => handler.run({ id: `job_${executionId}`, kind: RESUME_JOB, payload: { executionId }, attempts: 1 }, context);
  return { executionId, resumeJob };
}

/**
 * PostgreSQL: locks `executionId`'s row from another session, starts each piece of `work` in turn once the one before
 * waits on the lock (an UPDATE of the logs), then lets them all go; answers them under way, in the order of `work`.
 */
async function queuedOnRow(executionId: string, work: Array<() => Promise<unknown>>): Promise<Array<Promise<unknown>>> {
  const holder = new pg.Client({ connectionString: t.databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query(`select 1 from executions where coalesce(execution_id, 'exec_' || substr(id, 5)) = $1 for update`, [executionId]);
    const waiting = async () => {
      // Activity is read once per transaction unless the snapshot is cleared: the holder's would never change.
      await holder.query('select pg_stat_clear_snapshot()');
      return (await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "executions"%'`,
      )).rows[0].n;
    };
    const started: Array<Promise<unknown>> = [];
    for (const piece of work) {
      // Settled or not, each is awaited below; the catch only keeps an early failure from being reported as unhandled.
      const running = piece();
      running.catch(() => undefined);
      started.push(running);
      await eventually(async () => (await waiting()) >= started.length, 10_000, `${started.length} statements waiting on the row`);
    }
    await holder.query('commit');
    return started;
  } finally {
    await holder.end();
  }
}

/** Four cancels of `executionId` at once; their answers, 200 first. */
async function fourCancels(executionId: string) {
  const requests = Array.from({ length: 4 }, () => () => cancel(executionId));
  const answers = (await Promise.all(TEST_DATABASE_URL ? await queuedOnRow(executionId, requests) : requests.map((r) => r()))) as TestResponse[];
  return answers.sort((a, b) => a.status - b.status);
}

async function expectOneCancelled(executionId: string, answers: Awaited<ReturnType<typeof fourCancels>>) {
  expect(answers.map((a) => a.status), answers.map((a) => a.text).join('\n')).toEqual([200, 409, 409, 409]);
  expect(answers[0].body.data).toEqual({ executionId, status: 'cancelled' });
  for (const lost of answers.slice(1)) expect(lost.body.code).toBe('EXECUTION_NOT_RUNNING');
  const log = await logDetailOf(t, executionId);
  expect(log).toMatchObject({ status: 'cancelled', error: 'Execution cancelled while it waited for an approval' });
  expect(log.approvals).toMatchObject({ pauses: 1 });
}

describe('requests deciding a paused run at once', () => {
  it('four cancels of a run paused this month: one cancels it, the others get 409', async () => {
    const executionId = await pausedRun();
    await expectOneCancelled(executionId, await fourCancels(executionId));
  });

  it.skipIf(!TEST_DATABASE_URL)('four cancels of a run paused in an earlier month: the same answers, no 500', async () => {
    const executionId = await pausedRun(40);
    await expectOneCancelled(executionId, await fourCancels(executionId));
  });

  it.skipIf(!TEST_DATABASE_URL)('a cancel racing the resume job of a run paused in an earlier month: the resumed run is cancelled', async () => {
    const { executionId, resumeJob } = await resumingRun(40);
    // The resume job first: it starts the run (moving the row to this month), then the cancel must stop it running.
    const [resuming, cancelling] = await queuedOnRow(executionId, [resumeJob, () => cancel(executionId)]);
    // The cancel first: the run it stops would otherwise wait on its call until the test times out.
    const cancelled = (await cancelling) as TestResponse;
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toEqual({ executionId, status: 'cancelled' });
    expect(await resuming).toEqual({ outcome: { type: 'complete', result: { executionId, status: 'error' } } });
    expect(await logDetailOf(t, executionId)).toMatchObject({ status: 'cancelled' });
  });

  it.skipIf(!TEST_DATABASE_URL)('the resume job racing a cancel of a run paused in an earlier month: the job stands down', async () => {
    const { executionId, resumeJob } = await resumingRun(40);
    // The cancel first: the run ends cancelled, and the resume job finds nothing to resume instead of failing.
    const before = hanging.requests.length;
    const [cancelling, resuming] = await queuedOnRow(executionId, [() => cancel(executionId), resumeJob]);
    const cancelled = (await cancelling) as TestResponse;
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toEqual({ executionId, status: 'cancelled' });
    expect(await resuming).toEqual({ outcome: { type: 'complete', result: { skipped: 'not waiting to resume' } } });
    const log = await logDetailOf(t, executionId);
    expect(log).toMatchObject({ status: 'cancelled', error: 'Execution cancelled while it waited for an approval' });
    expect(hanging.requests.length).toBe(before);
  });

  it.skipIf(!TEST_DATABASE_URL)('an approval racing a cancel of a run paused in an earlier month: 409, the run stays cancelled', async () => {
    const executionId = await pausedRun(40);
    const approve = () => t.request('POST', `/api/v1/executions/${executionId}/resume`, { body: { approved: true } });
    const [cancelling, approving] = await queuedOnRow(executionId, [() => cancel(executionId), approve]);
    const [cancelled, approved] = (await Promise.all([cancelling, approving])) as TestResponse[];
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(approved.status, approved.text).toBe(409);
    expect(approved.body.code).toBe('EXECUTION_NOT_PAUSED');
    expect(await logDetailOf(t, executionId)).toMatchObject({ status: 'cancelled' });
  });

  it.skipIf(!TEST_DATABASE_URL)('reopening stranded resumes while one is cancelled (earlier month): the cancel stands', async () => {
    // Decided, and no resume job left to act on it: what housekeeping reopens, unless a cancel closes it first.
    const { executionId } = await resumingRun(40);
    const [cancelling, reopening] = await queuedOnRow(executionId, [() => cancel(executionId), () => reopenStrandedResumes(t.app.db)]);
    expect(((await cancelling) as TestResponse).status).toBe(200);
    expect(await reopening).toBe(0);
    expect(await logDetailOf(t, executionId)).toMatchObject({ status: 'cancelled' });
  });
});
