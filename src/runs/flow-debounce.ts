// Debounce (docs/workflows.md "Flow control"): a burst of async calls for one key becomes one run, with the last
// call's input, started `periodMs` after the last call (or `maxWaitMs` after the first, whichever comes first).
// The burst is one queued job per key (`jobs.debounce_key`, unique among queued jobs): the first call inserts it, each
// further call replaces its input and moves its due time, in one upsert — so it holds across processes without a
// lock. The job keeps the first call's task and execution id, which every call of the burst is answered with. Once a
// worker claims the job (the claim clears its debounce key, jobs/claim.ts), the burst is over: the next call starts a
// new one.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { toJsonText } from '../db/json.js';
import { rowsOf } from '../db/rows.js';
import { AppError } from '../errors.js';
import type { JobSpec } from '../jobs/enqueue.js';
import type { WorkflowState } from '../workflow/index.js';
import { flowKeyOf } from './flow-keys.js';

/** A run's debounce: the key whose burst it joins, and how long the burst waits. */
export interface RunDebounce {
  workflowId: string;
  /** `<workflowId>:<key value>`. */
  debounceKey: string;
  periodMs: number;
  maxWaitMs?: number;
}

/** The debounce of a run of `state` with `input`; undefined when the workflow sets none. */
export function debounceOf(workflowId: string, state: WorkflowState, input: Record<string, unknown>): RunDebounce | undefined {
  const debounce = state.flowControl?.debounce;
  if (!debounce) return undefined;
  return {
    workflowId,
    debounceKey: flowKeyOf(workflowId, debounce.key, input),
    periodMs: debounce.periodMs,
    ...(debounce.maxWaitMs !== undefined ? { maxWaitMs: debounce.maxWaitMs } : {}),
  };
}

export interface DebouncedJob {
  /** The burst's job: this call's, or the one it was folded into. */
  taskId: string;
  executionId: string;
  /** When the burst's first call queued it. */
  createdAt: Date;
  /** This call joined a burst already queued (its own job was not queued). */
  collapsed: boolean;
}

/**
 * Queues `job` as the key's burst, or folds it into the burst already queued: the queued job takes this call's payload
 * (keeping its execution id) and is due `periodMs` from now, but never later than `maxWaitMs` after the burst began.
 */
export async function enqueueDebounced(
  db: Db,
  job: JobSpec & { id: string; createdAt: Date },
  debounce: RunDebounce,
): Promise<DebouncedJob> {
  const runAt = new Date(job.createdAt.getTime() + debounce.periodMs).toISOString();
  const latest =
    debounce.maxWaitMs === undefined
      ? sql`excluded.run_at`
      : sql`least(excluded.run_at, jobs.created_at + (${debounce.maxWaitMs}::int * interval '1 millisecond'))`;
  const [row] = await rowsOf<{ id: string; execution_id: string; created_at: string | Date }>(
    db,
    sql`insert into jobs (id, kind, payload, run_at, created_at, tenant, priority, flow_key, flow_limit, debounce_key)
      values (${job.id}, ${job.kind}, ${toJsonText(job.payload)}::jsonb, ${runAt}::timestamptz, ${job.createdAt.toISOString()}::timestamptz,
        ${job.tenant ?? null}, ${job.priority ?? 0}::int, ${job.flow?.key ?? null}::text, ${job.flow?.limit ?? null}::int, ${debounce.debounceKey})
      on conflict (debounce_key) where status = 'queued' and debounce_key is not null do update set
        payload = excluded.payload || jsonb_build_object('executionId', jobs.payload -> 'executionId'),
        run_at = ${latest},
        priority = excluded.priority, flow_key = excluded.flow_key, flow_limit = excluded.flow_limit
      returning id, payload ->> 'executionId' as execution_id, created_at`,
  );
  if (!row) throw new Error('The debounced job was neither queued nor found');
  return { taskId: row.id, executionId: row.execution_id, createdAt: new Date(row.created_at), collapsed: row.id !== job.id };
}

/**
 * A sync or streaming call of a debounced workflow is refused: its caller waits for the output of its own input, which
 * a burst would replace, and running it beside the burst would break the one-run-per-burst promise.
 */
export function debouncedSyncCall(): AppError {
  return new AppError(
    'DEBOUNCED',
    409,
    'This workflow is debounced (flowControl.debounce): call it with X-Execution-Mode: async; the burst of calls runs once, with the last input',
  );
}
