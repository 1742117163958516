// The job mechanism on its own (src/jobs): claim, complete, fail, reschedule, leases and their expiry, fencing,
// bounded concurrency, wake-ups at commit, graceful stop, an idle worker's statements (one per look, planned once),
// and several workers sharing one queue.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { rowsOf } from '../../src/db/rows.js';
import { jobs } from '../../src/db/schema.js';
import { claimDueJobs } from '../../src/jobs/claim.js';
import { enqueueJob, enqueueJobs } from '../../src/jobs/enqueue.js';
import { settleJobs } from '../../src/jobs/settle.js';
import type { ClaimedJob, JobHandler, JobHandlers, JobRunContext } from '../../src/jobs/types.js';
import { createWorker, type Worker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { eventually, offsetClock, type TestClock } from '../completion-webhooks/support.js';

const logger = createLogger('silent');
let testDb: TestDatabase;
let database: Database;
let clock: TestClock;
const workers: Worker[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = testDb.database;
});
afterAll(async () => {
  await testDb?.drop();
});
beforeEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(0)));
  await database.db.delete(jobs);
  clock = offsetClock();
});

function startWorker(handlers: JobHandlers, options: { concurrency?: number; pollIntervalMs?: number; leaseMs?: number; db?: Database } = {}) {
  const db = options.db ?? database;
  const worker = createWorker({
    db: db.db,
    database: db,
    handlers,
    logger,
    concurrency: options.concurrency ?? 4,
    pollIntervalMs: options.pollIntervalMs ?? 50,
    leaseMs: options.leaseMs ?? 5_000,
    clock,
  });
  workers.push(worker);
  return worker.start().then(() => worker);
}

const jobRow = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
const handler = (run: (job: ClaimedJob, context: JobRunContext) => Promise<unknown> | unknown, extra: Partial<JobHandler> = {}): JobHandler => ({
  run: async (job, context) => ({ outcome: { type: 'complete', result: await run(job, context) } }),
  ...extra,
});

describe('jobs', () => {
  it('a worker with fewer slots than job kinds still runs every kind (the first kinds having nothing due)', async () => {
    const ran: string[] = [];
    await startWorker(
      Object.fromEntries(['first', 'second', 'third'].map((kind) => [kind, handler(() => void ran.push(kind))])),
      { concurrency: 1 },
    );
    await enqueueJob(database.db, { kind: 'third', payload: {} });
    await eventually(async () => ran.includes('third') || undefined);
  });

  it('runs a job once and keeps or deletes the finished row as its kind says', async () => {
    const seen: unknown[] = [];
    await startWorker({
      kept: handler((job) => {
        seen.push(job.payload);
        return { doubled: (job.payload as { n: number }).n * 2 };
      }, { keepFinished: true }),
      dropped: handler(() => undefined),
    });
    const kept = await enqueueJob(database.db, { kind: 'kept', payload: { n: 21 } });
    const dropped = await enqueueJob(database.db, { kind: 'dropped', payload: {} });
    const row = await eventually(async () => {
      const r = await jobRow(kept);
      return r?.status === 'completed' && r;
    });
    expect(row.result).toEqual({ doubled: 42 });
    expect(row.attempts).toBe(1);
    expect(row.startedAt).not.toBeNull();
    expect(row.completedAt).not.toBeNull();
    await eventually(async () => (await jobRow(dropped)) === undefined);
    expect(seen).toEqual([{ n: 21 }]);
  });

  it('fails, and reschedules to a later run time that only a moving clock reaches', async () => {
    let calls = 0;
    const worker = await startWorker({
      flaky: {
        keepFinished: true,
        run: async (_job, context) => {
          calls++;
          if (calls === 1) return { outcome: { type: 'retry', runAt: context.clock.now() + 60_000, error: 'try later' } };
          return { outcome: { type: 'fail', error: 'gave up' } };
        },
      },
    });
    const id = await enqueueJob(database.db, { kind: 'flaky', payload: {} });
    const queued = await eventually(async () => {
      const r = await jobRow(id);
      return r.lastError === 'try later' && r;
    });
    expect(queued.status).toBe('queued');
    expect(queued.runAt.getTime()).toBeGreaterThan(Date.now() + 55_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toBe(1);
    clock.advance(60_000);
    worker.wake();
    const failed = await eventually(async () => {
      const r = await jobRow(id);
      return r.status === 'failed' && r;
    });
    expect(failed.lastError).toBe('gave up');
    expect(failed.attempts).toBe(2);
    expect(calls).toBe(2);
  });

  it('retries a handler that throws, later, with the error recorded', async () => {
    let calls = 0;
    const worker = await startWorker({
      throws: handler(() => {
        calls++;
        if (calls === 1) throw new Error('database hiccup');
        return 'ok';
      }, { keepFinished: true }),
    });
    const id = await enqueueJob(database.db, { kind: 'throws', payload: {} });
    const queued = await eventually(async () => {
      const r = await jobRow(id);
      return r.lastError?.includes('database hiccup') && r;
    });
    expect(queued.status).toBe('queued');
    clock.advance(2_000);
    worker.wake();
    await eventually(async () => (await jobRow(id)).status === 'completed');
  });

  it('fails a job whose result cannot be stored, at once, instead of leaving it running until its lease lapses', async () => {
    let calls = 0;
    await startWorker({
      // JSON has no BigInt: the result cannot be written, as with a string past what JavaScript can build.
      odd: handler(() => {
        calls++;
        return { n: 1n };
      }, { keepFinished: true }),
    });
    const id = await enqueueJob(database.db, { kind: 'odd', payload: {} });
    const row = await eventually(async () => {
      const r = await jobRow(id);
      return r.status === 'failed' && r;
    }, 3_000, 'the job to fail');
    expect(row.result).toBeNull();
    expect(row.lastError).toMatch(/^The job's result could not be stored \(.*BigInt.*\)$/);
    expect(calls).toBe(1);
  });

  it('takes a job back once its lease lapses (crashed worker), and the old holder can no longer settle it', async () => {
    const id = await enqueueJob(database.db, { kind: 'work', payload: {} });
    // A worker that claims and then "dies": it never renews nor settles.
    const [claimed] = await claimDueJobs(database.db, { workerId: 'dead-worker', kind: 'work', limit: 1, now: clock.now(), leaseMs: 1_000 });
    expect(claimed.id).toBe(id);
    expect(await claimDueJobs(database.db, { workerId: 'other', kind: 'work', limit: 1, now: clock.now(), leaseMs: 1_000 })).toEqual([]);

    const ran: string[] = [];
    const worker = await startWorker({ work: handler((_job, context) => ran.push(context.workerId), { keepFinished: true }) }, { pollIntervalMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toEqual([]);
    clock.advance(1_500);
    worker.wake();
    const row = await eventually(async () => {
      const r = await jobRow(id);
      return r.status === 'completed' && r;
    });
    expect(ran).toEqual([worker.id]);
    expect(row.attempts).toBe(2);
    expect(row.lockedBy).toBe(worker.id);

    const [late] = await settleJobs(database.db, 'dead-worker', [
      { job: claimed, result: { outcome: { type: 'fail', error: 'zombie' } }, keepFinished: true },
    ], clock.now());
    expect(late).toBe(false);
    expect((await jobRow(id)).status).toBe('completed');
  });

  it('renews the lease of a long job, so no other worker takes it while it runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const slow = handler(async () => {
      runs++;
      await gate;
    }, { keepFinished: true });
    await startWorker({ slow }, { leaseMs: 300 });
    const id = await enqueueJob(database.db, { kind: 'slow', payload: {} });
    await eventually(async () => runs === 1);
    await startWorker({ slow }, { leaseMs: 300 });
    // Several lease lengths pass; the heartbeat keeps it (real time, as the heartbeat runs on real timers).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(runs).toBe(1);
    expect((await jobRow(id)).status).toBe('running');
    release();
    await eventually(async () => (await jobRow(id)).status === 'completed');
    expect(runs).toBe(1);
  });

  it('never runs more than its concurrency at once, nor more of a kind than that kind allows', async () => {
    let running = 0;
    let peak = 0;
    let peakCapped = 0;
    let runningCapped = 0;
    const busy = (capped: boolean) =>
      handler(async () => {
        running++;
        if (capped) runningCapped++;
        peak = Math.max(peak, running);
        peakCapped = Math.max(peakCapped, runningCapped);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        if (capped) runningCapped--;
      });
    await startWorker({ free: busy(false), capped: { ...busy(true), concurrency: 2 } }, { concurrency: 5 });
    await enqueueJobs(database.db, [
      ...Array.from({ length: 30 }, () => ({ kind: 'free', payload: {} })),
      ...Array.from({ length: 15 }, () => ({ kind: 'capped', payload: {} })),
    ]);
    await eventually(async () => (await database.db.select().from(jobs)).length === 0, 20_000);
    expect(peak).toBe(5);
    expect(peakCapped).toBe(2);
  });

  it('wakes at once when a job commits — and never for a rolled-back enqueue', async () => {
    const ran: string[] = [];
    // A poll interval far longer than the test: only the NOTIFY wake-up can explain a prompt run.
    await startWorker({ ping: handler((job) => ran.push(job.id)) }, { pollIntervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const id = await database.db.transaction(async (tx) => enqueueJob(tx, { kind: 'ping', payload: {} }));
    await eventually(async () => ran.includes(id), 5_000, 'the job to run');
    expect(Date.now() - started).toBeLessThan(2_000);

    await database.db
      .transaction(async (tx) => {
        await enqueueJob(tx, { kind: 'ping', payload: {}, id: 'job_rolled_back' });
        tx.rollback();
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).not.toContain('job_rolled_back');
    expect(await jobRow('job_rolled_back')).toBeUndefined();
  });

  it('on stop, lets in-flight jobs finish within the grace period, then hands the rest back unattempted', async () => {
    const finished: string[] = [];
    const worker = await startWorker(
      {
        quick: handler(async (job) => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          finished.push(job.id);
        }),
        stuck: {
          run: (_job, context) =>
            new Promise((resolve) => {
              context.signal.addEventListener('abort', () => resolve({ outcome: { type: 'release' } }));
            }),
        },
      },
      { concurrency: 4 },
    );
    const quick = await enqueueJob(database.db, { kind: 'quick', payload: {} });
    const stuck = await enqueueJob(database.db, { kind: 'stuck', payload: {} });
    await eventually(async () => worker.inFlight() === 2);
    await worker.stop(300);
    expect(finished).toEqual([quick]);
    const row = await jobRow(stuck);
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(0);
    expect(row.lockedBy).toBeNull();
    expect(await jobRow(quick)).toBeUndefined();
  });

  it('sends one statement per look when idle, whatever the number of kinds (the lease sweep rides in it)', async () => {
    const idle = handler(() => undefined);
    const pollIntervalMs = 100;
    await startWorker({ a: idle, b: idle, c: idle, d: idle }, { pollIntervalMs });
    // Past start-up (the LISTEN of the wake-ups on PostgreSQL).
    await new Promise((resolve) => setTimeout(resolve, 2 * pollIntervalMs));
    const before = database.statements();
    const windowMs = 1_000;
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const sent = database.statements() - before;
    // A look every poll interval at most, one statement each. It was a lease sweep plus one claim per kind at every
    // look: 5 per look here, up to 50 over the window (20 on a loaded 2-core machine, where it is now 6).
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(windowMs / pollIntervalMs + 1);
  });

  it('plans a look once: its claim is a prepared statement that every later look only executes', async () => {
    // Two connections on PostgreSQL: the worker holds one for its LISTEN, so its looks and this test's questions share
    // the other, and pg_prepared_statements (the asking session's own) is the looks' session.
    const shared = TEST_DATABASE_URL ? await openDatabase({ kind: 'postgres', url: testDb.url!, poolSize: 2 }) : database;
    try {
      const claims = () =>
        rowsOf<{ statement: string; runs: number }>(
          shared.db,
          sql`select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where statement like '%claimed as (%'`,
        );
      // The shape of a look for three kinds without the lease sweep, which rides in the first look (and now and then
      // after): a shape of its own. On PGlite the session is the one earlier tests' workers used, so count from here.
      const threeKinds = (c: { statement: string }) => !c.statement.includes('swept as (') && /due_2 as/.test(c.statement) && !/due_3 as/.test(c.statement);
      const before = (await claims()).find(threeKinds)?.runs ?? 0;
      const idle = handler(() => undefined);
      await startWorker({ a: idle, b: idle, c: idle }, { pollIntervalMs: 20, db: shared });
      // Every such look is the same statement, planned for its values the first five times (PostgreSQL's rule), then
      // run on its generic plan.
      await eventually(async () => {
        const found = (await claims()).filter(threeKinds);
        return found.length === 1 && found[0].runs >= before + 8;
      }, 10_000, 'eight looks through one prepared claim');
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop(0)));
      if (shared !== database) await shared.close();
    }
  });

  it('gives up on a job that keeps killing its workers', async () => {
    const id = await enqueueJob(database.db, { kind: 'poison', payload: {} });
    await database.db.update(jobs).set({ attempts: 3 }).where(eq(jobs.id, id));
    let ran = false;
    await startWorker({ poison: handler(() => (ran = true), { maxClaims: 3, keepFinished: true }) });
    const row = await eventually(async () => {
      const r = await jobRow(id);
      return r.status === 'failed' && r;
    });
    expect(ran).toBe(false);
    expect(row.lastError).toMatch(/Gave up/);
  });

  it('shares one queue among several workers: every job runs exactly once, never two at a time', async () => {
    const extra: Database[] = [];
    // On PostgreSQL each worker gets its own connection pool, as separate processes would.
    if (testDb.url) for (let i = 0; i < 3; i++) extra.push(await openDatabase({ kind: 'postgres', url: testDb.url, poolSize: 4 }));
    try {
      const runs = new Map<string, number>();
      const active = new Set<string>();
      let overlaps = 0;
      const record = handler(async (job) => {
        if (active.has(job.id)) overlaps++;
        active.add(job.id);
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        active.delete(job.id);
      });
      const dbs = extra.length > 0 ? [database, ...extra] : [database, database, database, database];
      for (const db of dbs) await startWorker({ record }, { db, concurrency: 8, pollIntervalMs: 20 });
      const ids = await enqueueJobs(database.db, Array.from({ length: 300 }, (_, i) => ({ kind: 'record', payload: { i } })));
      await eventually(async () => {
        const [{ left }] = await database.db.select({ left: count() }).from(jobs);
        return left === 0;
      }, 30_000, 'all jobs to finish');
      expect(overlaps).toBe(0);
      expect(runs.size).toBe(300);
      expect(ids.every((id) => runs.get(id) === 1)).toBe(true);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop(0)));
      await Promise.all(extra.map((d) => d.close()));
    }
  });
});
