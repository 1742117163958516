// Taking jobs: due rows are claimed with FOR UPDATE SKIP LOCKED, so any number of workers on one PostgreSQL
// split the queue without waiting on each other and never take the same row; PGlite runs the same SQL.
// A claim is a lease: the worker renews it while it runs the job, and once it lapses (the worker died) the job
// goes back to the queue.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { jobs } from '../db/schema.js';
import { RELAXED_COMMIT } from './settle.js';
import type { ClaimedJob } from './types.js';

const iso = (ms: number) => new Date(ms).toISOString();

export async function claimDueJobs(
  db: Db,
  input: { workerId: string; kinds: string[]; limit: number; now: number; leaseMs: number },
): Promise<ClaimedJob[]> {
  if (input.limit <= 0 || input.kinds.length === 0) return [];
  const now = iso(input.now);
  const kinds = sql.join(
    input.kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  // The CTE locks exactly the rows it picked; the UPDATE then cannot touch a row another worker holds.
  const rows = await rowsOf(db, sql`
    with ${RELAXED_COMMIT}, due as (
      select id from jobs
      where status = 'queued' and run_at <= ${now}::timestamptz and kind in (${kinds})
      order by run_at
      limit ${input.limit}
      for update skip locked
    )
    update jobs set
      status = 'running',
      attempts = jobs.attempts + 1,
      lease_until = ${iso(input.now + input.leaseMs)}::timestamptz,
      locked_by = ${input.workerId},
      started_at = coalesce(jobs.started_at, ${now}::timestamptz)
    from due
    where jobs.id = due.id and (select on_commit from relaxed) is not null
    returning jobs.id, jobs.kind, jobs.payload, jobs.attempts`);
  return rows.map((row) => ({
    id: String(row.id),
    kind: String(row.kind),
    payload: row.payload,
    attempts: Number(row.attempts),
  }));
}

/** Renews this worker's leases on the jobs it is still running. */
export async function extendLeases(
  db: Db,
  input: { workerId: string; jobIds: string[]; now: number; leaseMs: number },
): Promise<void> {
  if (input.jobIds.length === 0) return;
  await db
    .update(jobs)
    .set({ leaseUntil: new Date(input.now + input.leaseMs) })
    .where(and(eq(jobs.status, 'running'), eq(jobs.lockedBy, input.workerId), inArray(jobs.id, input.jobIds)));
}

/**
 * Puts every running job back in the queue at once, whatever its lease: for a process that knows all other workers
 * are gone (PGlite's data directory belongs to one process, so after a restart nothing else can be running them).
 */
export async function requeueAllRunningJobs(db: Db): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', lockedBy: null, leaseUntil: null, lastError: 'the process running it stopped' })
    .where(eq(jobs.status, 'running'))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Puts jobs whose lease lapsed (their worker crashed or hung) back in the queue; returns how many. */
export async function requeueExpiredLeases(db: Db, now: number): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', lockedBy: null, leaseUntil: null, lastError: 'lease expired: the worker stopped or crashed' })
    .where(and(eq(jobs.status, 'running'), lt(jobs.leaseUntil, new Date(now))))
    .returning({ id: jobs.id });
  return rows.length;
}
