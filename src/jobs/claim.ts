// Taking jobs: due rows are claimed with FOR UPDATE SKIP LOCKED, so any number of workers on one PostgreSQL
// split the queue without waiting on each other and never take the same row; PGlite runs the same SQL.
// A claim is a lease: the worker renews it while it runs the job, and once it lapses (the worker died) the job
// goes back to the queue.
import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOfPrepared } from '../db/rows.js';
import { jobs } from '../db/schema.js';
import type { ClaimedJob } from './types.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** What one claim asks of one kind. */
export interface KindClaim {
  kind: string;
  /** At most this many jobs of the kind. */
  limit: number;
  /** Fair between tenants (see fairDue) rather than oldest first. */
  fair?: boolean;
}

export interface ClaimResult {
  jobs: ClaimedJob[];
  /** Jobs whose lease had lapsed, put back in the queue by this statement (claimable from the next claim on). */
  requeued: number;
}

/**
 * Claims due jobs of every kind asked, each up to its own limit, in one statement: an idle worker sends one statement
 * per look, however many kinds it runs. With `sweepLeases`, the same statement also puts back in the queue the jobs
 * whose lease lapsed (their worker crashed or hung). A statement sees the queue as it was when it began, so those
 * are claimed by the next claim, not this one.
 */
export async function claimJobs(
  db: Db,
  input: { workerId: string; kinds: readonly KindClaim[]; now: number; leaseMs: number; sweepLeases?: boolean },
): Promise<ClaimResult> {
  const asked = input.kinds.filter((k) => k.limit > 0);
  if (asked.length === 0 && !input.sweepLeases) return { jobs: [], requeued: 0 };
  const now = iso(input.now);
  const ctes: SQL[] = [RELAXED_COMMIT];
  if (input.sweepLeases) {
    ctes.push(sql`swept as (
      update jobs set status = 'queued', locked_by = null, lease_until = null,
        last_error = 'lease expired: the worker stopped or crashed'
      where status = 'running' and lease_until < ${now}::timestamptz
      returning 1)`);
  }
  asked.forEach((k, i) => ctes.push(k.fair ? fairDue(`_${i}`, k.kind, now, k.limit) : oldestDue(`_${i}`, k.kind, now, k.limit)));
  const due = asked.length === 0 ? sql`select null::text as id where false` : sql.join(asked.map((_, i) => sql.raw(`select id from due_${i}`)), sql` union all `);
  // The claim clears a debounced run's key (runs/flow-debounce.ts): its burst is over, the next call starts a new one,
  // and the job can go back to the queue (released, its lease lapsed) without meeting that one's debounce key.
  ctes.push(sql`claimed as (
    update jobs set
      status = 'running',
      attempts = jobs.attempts + 1,
      lease_until = ${iso(input.now + input.leaseMs)}::timestamptz,
      locked_by = ${input.workerId},
      started_at = coalesce(jobs.started_at, ${now}::timestamptz),
      debounce_key = null
    from (${due}) due
    where jobs.id = due.id and ${RELAXED_COMMIT_TAKEN}
    returning jobs.id, jobs.kind, jobs.payload, jobs.attempts, jobs.created_at)`);
  const requeued = input.sweepLeases ? sql`select count(*)::int as n from swept` : sql`select 0 as n`;
  // One row even when nothing was claimed, so the sweep's count always comes back. Prepared (its shape is the kinds
  // asked and the sweep, its values apart): planning it cost more than running it — for the four kinds of `serve`'s
  // worker, PGlite 12.7 ms a look against 1.1 prepared, PostgreSQL 2.0 against 0.4 — and an idle worker looks twice a
  // second.
  const rows = await rowsOfPrepared(db, sql`
    with recursive ${sql.join(ctes, sql`, `)}
    select s.n as requeued, c.id, c.kind, c.payload, c.attempts, c.created_at
    from (${requeued}) s left join claimed c on true`);
  return {
    jobs: rows
      .filter((row) => row.id !== null && row.id !== undefined)
      .map((row) => ({
        id: String(row.id),
        kind: String(row.kind),
        payload: row.payload,
        attempts: Number(row.attempts),
        createdAt: new Date(row.created_at as string | Date),
      })),
    requeued: Number(rows[0]?.requeued ?? 0),
  };
}

/** Claims due jobs of one kind (claimJobs for a single kind, without the lease sweep). */
export async function claimDueJobs(
  db: Db,
  input: { workerId: string; kind: string; limit: number; now: number; leaseMs: number; fair?: boolean },
): Promise<ClaimedJob[]> {
  const { kind, limit, fair, ...rest } = input;
  return (await claimJobs(db, { ...rest, kinds: [{ kind, limit, fair }] })).jobs;
}

/**
 * The `due` rows of a kind, oldest first; locks exactly the rows it picks, skipping rows another worker holds. A job
 * under flow control (a resumed run or a schedule tick that found its key full) is passed over while its key has no
 * free slot; several of one key picked at once settle it with the slot, as fairDue's do.
 */
function oldestDue(suffix: string, kind: string, now: string, limit: number): SQL {
  return sql`${sql.raw(`due${suffix}`)} as (
    select id from jobs
    where status = 'queued' and kind = ${kind} and run_at <= ${now}::timestamptz
      and (flow_key is null or ${inUse(sql`jobs.flow_key`)} < flow_limit)
    order by run_at
    limit ${limit}
    for update skip locked
  )`;
}

/**
 * The `due` rows of a kind, fair between tenants (a job's `tenant`: an async run's workspace). Each job gets a turn:
 * its place among its tenant's waiting jobs (higher `priority` first, then oldest) plus the tenant's jobs already
 * running anywhere, so the first waiting job
 * of a workspace with nothing running goes before the hundredth of one that floods the queue; jobs of no tenant keep
 * turn 1 (oldest first). Everything is found by probes of jobs_claim_idx (kind, tenant, run_at): the kind's tenants
 * by a skip scan (one probe each), each one's `limit` oldest (no claim takes more), and the oldest of no tenant —
 * never by reading the whole queue. Candidates are over-picked, then locked in turn order, skipping rows another
 * worker holds. A job under flow control (runs/flow-slots.ts) is passed over while its key has no free slot, and no
 * more of a key's jobs are picked than it has free slots; a race with another claim is settled by the slot itself (the
 * job that finds none is handed back in its place).
 */
function fairDue(suffix: string, kind: string, now: string, limit: number): SQL {
  const window = limit * 4;
  // Each kind's WITH items get their own names, as several kinds are claimed in one statement.
  const [tenants, running, candidates, due] = ['tenants', 'running', 'candidates', 'due'].map((name) => sql.raw(`${name}${suffix}`));
  return sql`
    ${tenants} as (
      (select tenant from jobs where status = 'queued' and kind = ${kind} and tenant is not null order by tenant limit 1)
      union all
      select (select j.tenant from jobs j where j.status = 'queued' and j.kind = ${kind} and j.tenant > t.tenant
              order by j.tenant limit 1)
      from ${tenants} t where t.tenant is not null
    ),
    ${running} as (
      select tenant, count(*)::int as n from jobs where status = 'running' and kind = ${kind} and tenant is not null group by tenant
    ),
    ${candidates} as (
      select c.id, c.run_at, c.place + coalesce(r.n, 0) as turn
      from ${tenants} t
      cross join lateral (
        select id, run_at, row_number() over (order by priority desc, run_at) as place from (
          select id, run_at, priority from (
            select w.*, row_number() over (partition by coalesce(w.flow_key, w.id) order by w.priority desc, w.run_at) as nth
            from (
              select id, run_at, priority, flow_key, flow_limit from jobs j
              where j.status = 'queued' and j.kind = ${kind} and j.tenant = t.tenant and j.run_at <= ${now}::timestamptz
                and (j.flow_key is null or ${inUse(sql`j.flow_key`)} < j.flow_limit)
              -- nulls last as in jobs_claim_idx (priority is never null): any other order is not the index's, and the
              -- planner would read every due job of the tenant and sort them (30 ms for 10,000 queued; bench/REPORT.md)
              order by j.priority desc nulls last, j.run_at limit ${window}
            ) w
          ) keyed
          where keyed.flow_key is null
            or keyed.nth + ${inUse(sql`keyed.flow_key`)} <= keyed.flow_limit
          order by priority desc, run_at limit ${limit}
        ) own
      ) c
      left join ${running} r on r.tenant = t.tenant
      where t.tenant is not null
      union all
      (select id, run_at, 1 as turn from jobs
        where status = 'queued' and kind = ${kind} and tenant is null and run_at <= ${now}::timestamptz
        order by run_at limit ${window})
    ),
    ${due} as (
      select j.id from jobs j
      join (select id, turn, run_at from ${candidates} order by turn, run_at limit ${window}) c on c.id = j.id
      where j.status = 'queued'
      order by c.turn, c.run_at
      limit ${limit}
      for update of j skip locked
    )`;
}

/**
 * How many of a flow key's slots are in use: the slots taken (runs/flow-slots.ts), or the key's jobs running, if more —
 * a job just claimed takes its slot a moment later, and the next claim must not pick the key's next job meanwhile.
 */
function inUse(flowKey: SQL): SQL {
  return sql`greatest(
    (select count(*) from flow_slots f where f.flow_key = ${flowKey}),
    (select count(*) from jobs r where r.status = 'running' and r.flow_key = ${flowKey}))`;
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
