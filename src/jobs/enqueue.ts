// Adding jobs. Works inside a caller's transaction (pass the tx): the rows and the wake-up commit together; or as part
// of a caller's own statement (insertFollowingJobs).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { toJsonText } from '../db/json.js';
import { newId } from '../ids.js';
import { nudgeLocalWorkers } from './nudge.js';

/**
 * NOTIFY channel that wakes workers on PostgreSQL: a notification is delivered only when the transaction that sent
 * it commits, so a woken worker finds the job, in this process or any other. Workers in this process are also
 * nudged directly (nudge.ts).
 */
export const JOBS_CHANNEL = 'sluice_jobs';

export interface JobSpec {
  kind: string;
  payload: unknown;
  /** Not before this time; default now. */
  runAt?: Date;
  /** Pre-assigned id (e.g. an async execution's task id); generated otherwise. */
  id?: string;
  /** Default now; given when the caller reports it (an async task's createdAt). */
  createdAt?: Date;
  /** Whose job it is (a workspace): claims take turns between tenants (claim.ts). */
  tenant?: string;
  /** Higher first among the tenant's due jobs (default 0). */
  priority?: number;
  /** Flow control (runs/flow-slots.ts): the key whose slot the job needs, and how many slots the key has. */
  flow?: { key: string; limit: number };
}

export interface EnqueueOptions {
  /**
   * A job whose pre-assigned id is already queued is left alone instead of failing the insert: the id names what the
   * job is for (a schedule's tick), so whoever queues it second, in any process, queues nothing.
   */
  skipQueuedIds?: boolean;
}

export async function enqueueJobs(db: Db, specs: JobSpec[], options: EnqueueOptions = {}): Promise<string[]> {
  if (specs.length === 0) return [];
  const now = new Date();
  const rows = specs.map((spec) => ({
    id: spec.id ?? newId('job'),
    kind: spec.kind,
    payload: toJsonText(spec.payload),
    runAt: (spec.runAt ?? now).toISOString(),
    createdAt: (spec.createdAt ?? now).toISOString(),
    tenant: spec.tenant ?? null,
    priority: spec.priority ?? 0,
    flowKey: spec.flow?.key ?? null,
    flowLimit: spec.flow?.limit ?? null,
  }));
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}, ${r.kind}, ${r.payload}::jsonb, ${r.runAt}::timestamptz, ${r.createdAt}::timestamptz, ${r.tenant}, ${r.priority}::int, ${r.flowKey}::text, ${r.flowLimit}::int)`,
    ),
    sql`, `,
  );
  // One round trip: the rows and the wake-up (enqueue sits on the path that completes every execution).
  await db.execute(sql`
    with inserted as (
      insert into jobs (id, kind, payload, run_at, created_at, tenant, priority, flow_key, flow_limit) values ${values}
      ${options.skipQueuedIds ? sql`on conflict (id) do nothing` : sql``}
      returning 1)
    select pg_notify(${JOBS_CHANNEL}, '') from (select count(*) from inserted) as done`);
  nudgeLocalWorkers();
  return rows.map((row) => row.id);
}

/** A job queued by another module's statement, only if the row it follows from (its `after` key) was written. */
export interface FollowingJob extends JobSpec {
  /** Key of the row, written by the same statement, that this job follows from (a delivery id, an execution id). */
  after: string;
}

/**
 * The insert of `specs` for a WITH item of a caller's own statement, so the jobs commit together with the rows they
 * follow from, in one round trip (the run recorder writes a batch of logs, their deliveries and the deliveries' jobs
 * in one statement). `written` selects the keys of the rows that statement actually wrote: a job whose `after` is not
 * among them is not queued. A job whose id is already queued is left alone (a pre-assigned id names what the job is
 * for, so the same job is never queued twice). Times not given are the statement's `now()`. Returns the id of each
 * job queued; `wakeWorkersIfQueued` over it wakes the workers at commit.
 */
export function insertFollowingJobs(specs: FollowingJob[], written: SQL): SQL {
  const rows = specs.map((spec) => ({
    id: spec.id ?? newId('job'),
    kind: spec.kind,
    payload: spec.payload,
    run_at: spec.runAt?.toISOString() ?? null,
    created_at: spec.createdAt?.toISOString() ?? null,
    tenant: spec.tenant ?? null,
    after: spec.after,
  }));
  return sql`insert into jobs (id, kind, payload, run_at, created_at, tenant)
    select x.id, x.kind, x.payload, coalesce(x.run_at, now()), coalesce(x.created_at, now()), x.tenant
    from jsonb_to_recordset(${toJsonText(rows)}::jsonb)
      as x(id text, kind text, payload jsonb, run_at timestamptz, created_at timestamptz, tenant text, after text)
    where x.after in (${written})
    on conflict (id) do nothing
    returning id`;
}

/**
 * A select-list expression that sends the workers' wake-up (NOTIFY, delivered at commit) when `queued` — the name of
 * a WITH item over insertFollowingJobs — queued any job. The caller nudges this process's workers after the commit.
 */
export function wakeWorkersIfQueued(queued: string): SQL {
  return sql`(select pg_notify(${JOBS_CHANNEL}, '') from (select count(*) as n from ${sql.identifier(queued)}) c where c.n > 0)`;
}

export async function enqueueJob(db: Db, spec: JobSpec): Promise<string> {
  const [id] = await enqueueJobs(db, [spec]);
  return id;
}

export async function notifyWorkers(db: Db): Promise<void> {
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
  nudgeLocalWorkers();
}
