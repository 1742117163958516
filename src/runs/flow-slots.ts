// Flow control slots (docs/workflows.md "Flow control"): a workflow's concurrency limit or singleton, per workflow or
// per key, held across every process by rows of `flow_slots` — one per run in flight, numbered 0…limit-1 per key, so
// two processes can never take the same one (the primary key decides). A run takes its slot just before it starts and
// frees it when it ends; the slots of a process that died are freed with its runs by the crash recovery (runners.ts).
// - Sync and streaming calls take a slot before they run, waiting up to `maxWaitMs` (then 429 CONCURRENCY_LIMIT), or
//   are refused at once (`reject`; a singleton's `skip`: 409 ALREADY_RUNNING), or stop the running one (cancel-running).
// - Async runs wait in the queue: their job carries the key and the limit, and the claim (jobs/claim.ts) passes over a
//   job whose key has no free slot; the job takes its slot when it starts (async-executions.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { CHANGES_CHANNEL } from '../db/change-feed.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOf } from '../db/rows.js';
import { AppError } from '../errors.js';
import { JOBS_CHANNEL } from '../jobs/enqueue.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import { flowLimitOf, type FlowMode, type FlowReason, type WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { RUNNER_ID } from './runners.js';
import { flowKeyOf } from './flow-keys.js';

/** Tries to take a slot before a key counts as full (see takeSlot). */
const TAKE_ATTEMPTS = 4;
/** How often a call waiting for a slot looks again. */
const WAIT_POLL_MS = 25;
/** A cancel-running call waits at least this long for the run it stopped to free its slot. */
const CANCEL_RUNNING_WAIT_MS = 10_000;
/** Retry-After of a 429 CONCURRENCY_LIMIT (seconds): how long a run lasts is unknown, so soon. */
const RETRY_AFTER_SECONDS = 1;

/** A run's flow control: which slots it needs and what it does when none is free. */
export interface RunFlow {
  workflowId: string;
  /** `<workflowId>:<key value>`. */
  flowKey: string;
  limit: number;
  mode: FlowMode;
  maxWaitMs: number;
  reason: 'concurrency' | 'singleton';
}

/** What the log says of a run flow control held back. */
export interface FlowWait {
  queuedMs: number;
  reason?: FlowReason;
}

/** The flow control of a run of `state` with `input`; undefined when the workflow sets none. */
export function runFlowOf(workflowId: string, state: WorkflowState, input: Record<string, unknown>): RunFlow | undefined {
  const limit = flowLimitOf(state.flowControl);
  if (!limit) return undefined;
  return { workflowId, flowKey: flowKeyOf(workflowId, limit.key, input), limit: limit.limit, mode: limit.mode, maxWaitMs: limit.maxWaitMs, reason: limit.reason };
}

/**
 * Takes a free slot of the run's key for `executionId`; true when it holds one (already holding one counts: a job
 * claimed again). The first tries go for a random slot number (with a large limit, racing takers rarely pick the same
 * one, and no list of free numbers is built), the last for the lowest free one. Two takers racing for the same slot
 * number: one gets it, the other tries again.
 */
export async function takeSlot(db: Db, flow: RunFlow, executionId: string): Promise<boolean> {
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    const lowest = flow.limit === 1 || attempt === TAKE_ATTEMPTS - 1;
    const numbers = lowest
      ? sql`select s from generate_series(0, ${flow.limit - 1}::int) s
          where not exists (select 1 from flow_slots f where f.flow_key = ${flow.flowKey} and f.slot = s)`
      : sql`select ${Math.floor(Math.random() * flow.limit)}::int as s`;
    const rows = await rowsOf<{ taken: string | null; mine: string | null; used: number }>(
      db,
      // Relaxed commits (db/relaxed.ts): a slot lost with a PostgreSQL crash is taken again by the run's retry, and one
      // whose freeing was lost is freed by the crash recovery once the run's log says it ended.
      sql`with ${RELAXED_COMMIT}, taken as (
        insert into flow_slots (flow_key, slot, workflow_id, execution_id, runner_id)
        select ${flow.flowKey}, n.s, ${flow.workflowId}, ${executionId}, ${RUNNER_ID}
        from (${numbers}) n
        where (select count(*) from flow_slots f where f.flow_key = ${flow.flowKey}) < ${flow.limit}
          and exists (select 1 from workflows w where w.id = ${flow.workflowId})
          and ${RELAXED_COMMIT_TAKEN}
        order by n.s limit 1
        on conflict do nothing
        returning execution_id)
      select (select execution_id from taken) as taken,
        (select execution_id from flow_slots where execution_id = ${executionId}) as mine,
        (select count(*)::int from flow_slots where flow_key = ${flow.flowKey}) as used`,
    );
    const [row] = rows;
    if (row?.taken || row?.mine) return true;
    // Full: nothing to race for. Otherwise another taker took the slot number this one picked.
    if (!row || row.used >= flow.limit) return false;
  }
  return false;
}

/** Frees the run's slot, if it holds one, and wakes the workers when a run of that key is queued (it may go now). */
export async function freeSlot(db: Db, executionId: string): Promise<void> {
  const rows = await rowsOf(
    db,
    sql`with ${RELAXED_COMMIT}, freed as (
        delete from flow_slots where execution_id = ${executionId} and ${RELAXED_COMMIT_TAKEN} returning flow_key)
      select pg_notify(${JOBS_CHANNEL}, '') as woke from jobs j
      where j.status = 'queued' and j.flow_key in (select flow_key from freed) limit 1`,
  );
  if (rows.length > 0) nudgeLocalWorkers();
}

/** Frees a run's slot outside its log's statement; on failure the crash recovery frees it (runners.ts). */
export async function freeSlotQuietly(app: AppContext, executionId: string): Promise<void> {
  await freeSlot(app.db, executionId).catch((err: unknown) => {
    app.logger.warn({ err, executionId }, 'could not free a flow control slot');
  });
}

/** Whether the run's slot went with its log (run-recorder.ts: a stored log frees it in the same statement). */
export const loggedWithSlot = (outcome: { stored: string } | undefined): boolean => outcome?.stored === 'full' || outcome?.stored === 'minimal';

/** The executions holding the key's slots, oldest first. */
export async function slotHolders(db: Db, flowKey: string): Promise<string[]> {
  const rows = await rowsOf<{ execution_id: string }>(
    db,
    sql`select execution_id from flow_slots where flow_key = ${flowKey} order by acquired_at, slot`,
  );
  return rows.map((row) => row.execution_id);
}

/** How many runs of the key are in flight or queued. */
async function keyLoad(db: Db, flowKey: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select (select count(*) from flow_slots where flow_key = ${flowKey})
      + (select count(*) from jobs where status = 'queued' and flow_key = ${flowKey}) as n`,
  );
  return Number(row?.n ?? 0);
}

/** Asks every process to stop the runs holding the key's slots (cancel-running): the newest run replaces them. */
async function cancelHolders(app: AppContext, flow: RunFlow, requester: { userId: string; keyWorkspaceId: string | null }): Promise<void> {
  for (const executionId of await slotHolders(app.db, flow.flowKey)) {
    const topic = app.cancellations.topicFor({ executionId, userId: requester.userId, keyWorkspaceId: requester.keyWorkspaceId });
    await app.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${topic})`);
  }
}

export function concurrencyLimited(flow: RunFlow, waitedMs: number): AppError {
  const what = flow.reason === 'singleton' ? 'a run for this singleton key is in flight' : `${flow.limit} run${flow.limit === 1 ? ' is' : 's are'} in flight for this key`;
  return new AppError(
    'CONCURRENCY_LIMIT',
    429,
    `Concurrency limit reached: ${what}${waitedMs > 0 ? ` (waited ${waitedMs} ms)` : ''}; try again later`,
    undefined,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}

async function alreadyRunning(db: Db, flow: RunFlow): Promise<AppError> {
  const [running] = await slotHolders(db, flow.flowKey);
  return new AppError(
    'ALREADY_RUNNING',
    409,
    `A run for this singleton key is already in flight${running ? ` (${running})` : ''}; this call was skipped`,
    undefined,
    undefined,
    running,
  );
}

/** A full key refuses a run at once under `skip` (409 ALREADY_RUNNING) and `reject` (429); other modes wait. */
async function refuseWhenItDoesNotWait(app: AppContext, flow: RunFlow): Promise<void> {
  if (flow.mode === 'skip') {
    app.metrics.flowRefused(flow.workflowId, 'ALREADY_RUNNING');
    throw await alreadyRunning(app.db, flow);
  }
  if (flow.mode === 'reject') {
    app.metrics.flowRefused(flow.workflowId, 'CONCURRENCY_LIMIT');
    throw concurrencyLimited(flow, 0);
  }
}

/**
 * For a sync or streaming call: takes a slot for the run, waiting as its flow control says, or throws the answer that
 * refuses it. Returns how long it waited and, when it did, why.
 */
export async function takeSlotForCall(
  app: AppContext,
  flow: RunFlow,
  executionId: string,
  requester: { userId: string; keyWorkspaceId: string | null },
): Promise<FlowWait> {
  const started = Date.now();
  if (await takeSlot(app.db, flow, executionId)) return { queuedMs: 0 };
  await refuseWhenItDoesNotWait(app, flow);
  let waitMs = flow.maxWaitMs;
  if (flow.mode === 'cancel-running') {
    await cancelHolders(app, flow, requester);
    waitMs = Math.max(waitMs, CANCEL_RUNNING_WAIT_MS);
  }
  while (Date.now() - started < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    if (await takeSlot(app.db, flow, executionId)) {
      app.metrics.flowWaited(flow.workflowId, flow.reason);
      return { queuedMs: Date.now() - started, reason: flow.reason };
    }
  }
  app.metrics.flowRefused(flow.workflowId, 'CONCURRENCY_LIMIT');
  throw concurrencyLimited(flow, Date.now() - started);
}

/**
 * For an async call, before its job is queued: refuses it when its flow control says so (`reject` and `skip` with
 * the key full), stops the running ones (cancel-running). Returns whether the run will wait for a slot.
 */
export async function admitQueuedRun(
  app: AppContext,
  flow: RunFlow,
  requester: { userId: string; keyWorkspaceId: string | null },
): Promise<{ waits: boolean }> {
  const load = await keyLoad(app.db, flow.flowKey);
  const waits = load >= flow.limit;
  if (!waits) return { waits };
  await refuseWhenItDoesNotWait(app, flow);
  if (flow.mode === 'cancel-running') await cancelHolders(app, flow, requester);
  return { waits };
}
