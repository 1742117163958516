// The queued async runs of one workflow, in the order a worker would claim them, and why each one waits
// (`GET /api/v1/workflows/{id}/queued-runs`, the Executions tab's "Queued" section; docs/api.md "Queued runs").
// Read from the queue itself (`jobs`), so it holds across processes: a run is listed until a worker claims it.
// The order is the claim's within a workspace (jobs/claim.ts: higher priority first, then the earlier due time); the
// claim's fairness between workspaces and other workflows' runs of the same workspace may still go between them, so
// `place` is the run's place among this workflow's queued runs, not a promise of the how-manyth start.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { EXECUTION_JOB } from './async-executions.js';

/**
 * Why a queued run has not started:
 * - `due`: due now, waiting for a free worker;
 * - `concurrency` / `singleton`: its concurrency key (or singleton key) has no free slot: it starts when a run of the
 *   key ends;
 * - `throttled`: its throttle key had no start free when a worker tried; due when the next one frees (`dueAt`);
 * - `debounced`: a debounce burst still taking calls; it runs at `dueAt` unless another call moves it;
 * - `retry`: it was claimed before and its worker stopped or crashed; it runs again (once, never twice: the earlier
 *   attempt is settled first);
 * - `scheduled`: not due yet for any other reason (`dueAt`).
 */
export const QUEUED_REASONS = ['due', 'concurrency', 'singleton', 'throttled', 'debounced', 'retry', 'scheduled'] as const;
export type QueuedReason = (typeof QUEUED_REASONS)[number];

export interface QueuedRun {
  executionId: string;
  /** ISO 8601: when the run was queued (a debounce burst: its first call). */
  queuedAt: string;
  /** ISO 8601: when it is due (earliest it can be claimed). */
  dueAt: string;
  priority: number;
  /** 1-based, among the workflow's queued runs in claim order. */
  place: number;
  reason: QueuedReason;
  /** The value of the flow control key the reason is about (absent when the setting has no key: one for the workflow). */
  key?: string;
}

export interface QueuedRunList {
  data: QueuedRun[];
  /** Every queued run of the workflow, beyond the page too. */
  total: number;
}

interface Row {
  execution_id: string;
  created_at: string | Date;
  run_at: string | Date;
  priority: number;
  place: number | string;
  total: number | string;
  flow_key: string | null;
  flow_limit: number | null;
  debounce_key: string | null;
  throttle_key: string | null;
  throttled: boolean | null;
  flow_reason: string | null;
  attempts: number;
  due: boolean;
  /** The run's place among its flow key's due runs (null: not due, or no flow key). */
  nth: number | string | null;
  in_use: number | string | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();

/**
 * The first `limit` queued runs of the workflow and how many there are. `now` (epoch ms) decides which runs are due,
 * as the claim's own clock does.
 */
export async function listQueuedRuns(
  db: Db,
  workflow: { id: string; workspaceId: string },
  options: { limit: number; now: number },
): Promise<QueuedRunList> {
  const now = new Date(options.now).toISOString();
  // Async runs carry their workspace as the tenant, so the claim index (kind, tenant, priority, run_at) narrows the
  // read to the workspace's queue. A flow key's due runs are numbered as the claim numbers them (`nth`): the first
  // (limit - slots in use) of them can start, the rest wait for the key.
  const rows = await rowsOf<Row>(
    db,
    sql`with q as (
        select id, payload, run_at, created_at, priority, flow_key, flow_limit, debounce_key, attempts,
          (run_at <= ${now}::timestamptz and debounce_key is null) as due
        from jobs
        where kind = ${EXECUTION_JOB} and tenant = ${workflow.workspaceId} and status = 'queued'
          and payload ->> 'workflowId' = ${workflow.id}
      ),
      keyed as (
        select id, row_number() over (partition by flow_key order by priority desc, run_at, id) as nth
        from q where due and flow_key is not null
      ),
      ranked as (
        select q.*, row_number() over (order by q.priority desc, q.run_at, q.id) as place, count(*) over () as total
        from q
      )
      select r.payload ->> 'executionId' as execution_id, r.created_at, r.run_at, r.priority, r.place, r.total,
        r.flow_key, r.flow_limit, r.debounce_key, r.attempts, r.due,
        r.payload -> 'throttle' ->> 'throttleKey' as throttle_key,
        (r.payload ->> 'throttled')::boolean as throttled,
        r.payload -> 'flow' ->> 'reason' as flow_reason,
        k.nth,
        case when k.nth is null then null else greatest(
          (select count(*) from flow_slots f where f.flow_key = r.flow_key),
          (select count(*) from jobs j where j.status = 'running' and j.flow_key = r.flow_key)) end as in_use
      from ranked r left join keyed k on k.id = r.id
      order by r.place
      limit ${options.limit}`,
  );
  // The count rides on the rows (the page starts at the first run, so an empty page means none queued).
  return { data: rows.map((row) => queuedRunOf(row, workflow.id)), total: Number(rows[0]?.total ?? 0) };
}

function queuedRunOf(row: Row, workflowId: string): QueuedRun {
  const { reason, key } = whyWaiting(row);
  const value = key === null ? undefined : keyValue(key, workflowId);
  return {
    executionId: row.execution_id,
    queuedAt: iso(row.created_at),
    dueAt: iso(row.run_at),
    priority: Number(row.priority),
    place: Number(row.place),
    reason,
    ...(value ? { key: value } : {}),
  };
}

/** The one reason that holds the run back now, strongest first, and the key it is about. */
function whyWaiting(row: Row): { reason: QueuedReason; key: string | null } {
  const otherKey = row.flow_key ?? row.throttle_key;
  if (row.debounce_key !== null) return { reason: 'debounced', key: row.debounce_key };
  if (!row.due && row.throttled) return { reason: 'throttled', key: row.throttle_key };
  if (row.nth !== null && row.flow_limit !== null && Number(row.nth) + Number(row.in_use ?? 0) > row.flow_limit) {
    return { reason: row.flow_reason === 'singleton' ? 'singleton' : 'concurrency', key: row.flow_key };
  }
  if (Number(row.attempts) > 0) return { reason: 'retry', key: otherKey };
  if (!row.due) return { reason: 'scheduled', key: otherKey };
  return { reason: 'due', key: otherKey };
}

/** A key is `<workflowId>:<value>` (runs/flow-keys.ts); an empty value is the workflow's one key. */
function keyValue(key: string, workflowId: string): string | undefined {
  const prefix = `${workflowId}:`;
  const value = key.startsWith(prefix) ? key.slice(prefix.length) : key;
  return value === '' ? undefined : value;
}
