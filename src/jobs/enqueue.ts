// Adding jobs. Works inside a caller's transaction (pass the tx): the rows and the wake-up commit together.
import { sql } from 'drizzle-orm';
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
}

export async function enqueueJobs(db: Db, specs: JobSpec[]): Promise<string[]> {
  if (specs.length === 0) return [];
  const now = new Date();
  const rows = specs.map((spec) => ({
    id: spec.id ?? newId('job'),
    kind: spec.kind,
    payload: toJsonText(spec.payload),
    runAt: (spec.runAt ?? now).toISOString(),
    createdAt: (spec.createdAt ?? now).toISOString(),
    tenant: spec.tenant ?? null,
  }));
  const values = sql.join(
    rows.map((r) => sql`(${r.id}, ${r.kind}, ${r.payload}::jsonb, ${r.runAt}::timestamptz, ${r.createdAt}::timestamptz, ${r.tenant})`),
    sql`, `,
  );
  // One round trip: the rows and the wake-up (enqueue sits on the path that completes every execution).
  await db.execute(sql`
    with inserted as (insert into jobs (id, kind, payload, run_at, created_at, tenant) values ${values} returning 1)
    select pg_notify(${JOBS_CHANNEL}, '') from (select count(*) from inserted) as done`);
  nudgeLocalWorkers();
  return rows.map((row) => row.id);
}

export async function enqueueJob(db: Db, spec: JobSpec): Promise<string> {
  const [id] = await enqueueJobs(db, [spec]);
  return id;
}

export async function notifyWorkers(db: Db): Promise<void> {
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
  nudgeLocalWorkers();
}
