// The one SQL statement that records a batch of runs (run-recorder.ts): running markers, completed logs, their state
// snapshots, the owners' usage, the completion webhook outbox, jobs that follow from a completion and finished
// idempotency keys. A single statement is its own transaction: everything in it commits together, with one round
// trip and one WAL flush for the batch.
// Rows travel as JSON (one parameter per table, via toJsonText, so nothing jsonb refuses can reach it), expanded
// with jsonb_to_recordset.
import { sql, type SQL } from 'drizzle-orm';
import { toJsonText } from '../db/json.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { logExecutionId } from '../db/schema.js';
import { pairedLogId } from '../ids.js';
import { insertFollowingJobs, JOBS_CHANNEL, wakeWorkersIfQueued } from '../jobs/enqueue.js';
import { COMPLETION_EVENT, DELIVERY_JOB, type OutboxDelivery } from '../services/completion-webhooks/constants.js';
import type { StoredValues } from '../services/logs/offloaded-values.js';
import { storedCost } from '../services/cost.js';
import { packTrace } from '../services/logs/packed-trace.js';
import { storeTrace, type KeptTrace } from '../services/logs/stored-trace.js';

/** An `executions` row as written: the running marker (status `running`) or the completed log. */
export interface ExecutionRecord {
  id: string;
  executionId: string;
  workspaceId: string;
  workflowId: string;
  deploymentVersion: number | null;
  snapshotHash: string;
  trigger: string;
  /**
   * `cancelled` runs are logged with level `error`; completion webhooks report them as `error`. `paused` is a run
   * waiting for an approval: not a log yet (the logs API lists it once it has finished).
   */
  status: 'running' | 'success' | 'error' | 'cancelled' | 'paused';
  level: 'info' | 'error' | null;
  startedAt: Date;
  endedAt: Date | null;
  totalDurationMs: number | null;
  costTotal: number;
  cost: Record<string, unknown> | null;
  models: string[];
  finalOutput: Record<string, unknown> | null;
  /** The trace as the engine made it (webhook bodies are built from it); stored once per value (logs/stored-trace.ts). */
  traceSpans: unknown[] | null;
  /** How much of the trace `traceSpans` kept (runs/trace-detail.ts); `full` when not said. */
  traceKept?: KeptTrace;
  /**
   * The trace and final output as the row stores them, made before the batch when the log has values too large for
   * the row (services/logs/offloaded-values.ts), with the files they went to; else the row is made from the above.
   */
  stored?: StoredValues;
  files: unknown[] | null;
  error: string | null;
  /** Blocks that reported an error in a run that still succeeded (workflow/block-errors.ts); 0 otherwise. */
  blockErrorCount: number;
  runnerId: string | null;
  parentExecutionId: string | null;
  /** X-Request-Id of the request that started the run; null for schedules. */
  requestId: string | null;
  /** Set while paused for an approval, and kept on the log of a run that paused (approvals.ts). */
  pause: Record<string, unknown> | null;
  /** Set on a re-run: the execution it re-ran, and the block it ran from (null when all of it ran again). */
  rerunOf: string | null;
  rerunFromBlock: string | null;
  /** How long the run waited before it started; null when it did not (flow-slots.ts). */
  queuedMs: number | null;
  /** `{ reason }` when flow control held the run back. */
  flowControl: Record<string, unknown> | null;
}

export interface SnapshotRecord {
  hash: string;
  state: unknown;
}

export interface UsageRecord {
  userId: string;
  period: string;
  costUsd: number;
}

/** A completion webhook delivery as the outbox builds it (completion-webhooks/outbox.ts). */
export type DeliveryRecord = OutboxDelivery;

export interface IdempotencyRecord {
  workflowId: string;
  key: string;
  response: { status: number; headers: Record<string, string>; body: unknown };
}

/** A job that follows from a completion (a paused run's approval time-out); queued only if that log is written. */
export interface FollowUpJob {
  executionId: string;
  id: string;
  kind: string;
  payload: unknown;
  runAt: Date;
}

export interface RecordBatch {
  /** Executions whose flow control slot (flow-slots.ts) is freed with their log. */
  freedSlots?: string[];
  snapshots: SnapshotRecord[];
  markers: ExecutionRecord[];
  completions: ExecutionRecord[];
  usage: UsageRecord[];
  deliveries: DeliveryRecord[];
  idempotency: IdempotencyRecord[];
  followUps: FollowUpJob[];
}

const EXECUTION_COLUMNS = `id text, execution_id text, workspace_id text, workflow_id text, deployment_version int,
  snapshot_hash text, trigger text, status text, level text, started_at timestamptz, ended_at timestamptz,
  total_duration_ms int, cost_total float8, cost jsonb, models text[], final_output jsonb, trace_spans jsonb,
  trace_packed text, files jsonb, error text, block_error_count int, runner_id text, parent_execution_id text,
  request_id text, pause jsonb, rerun_of text, rerun_from_block text, queued_ms int, flow_control jsonb`;
const EXECUTION_NAMES = `id, execution_id, workspace_id, workflow_id, deployment_version, snapshot_hash, trigger, status,
  level, started_at, ended_at, total_duration_ms, cost_total, cost, models, final_output, trace_spans, trace_packed,
  files, error, block_error_count, runner_id, parent_execution_id, request_id, pause, rerun_of, rerun_from_block,
  queued_ms, flow_control`;
/** The names as selected from the JSON: the packed trace travels as base64 there (JSON holds no bytes). */
const EXECUTION_VALUES = EXECUTION_NAMES.replace('trace_packed', `decode(trace_packed, 'base64')`);

const executionJson = (rows: ExecutionRecord[]) =>
  toJsonText(
    rows.map((r) => {
      // Packed last, as the row is written (offloading, run-recorder.ts, works on the unpacked form), unless the
      // offloading found nothing to move and packed it on the way. The final output goes into the packed trace.
      const finalOutput = r.stored ? r.stored.finalOutput : r.finalOutput;
      const packed = r.stored
        ? (r.stored.packed ?? packTrace(r.stored.trace, finalOutput))
        : r.traceSpans && packTrace(storeTrace(r.traceSpans, finalOutput, r.traceKept), finalOutput);
      return {
        id: r.id,
        // A paired log's id says its execution id (ids.ts pairedLogId): the column keeps only one of another shape.
        execution_id: pairedLogId(r.executionId) === r.id ? null : r.executionId,
        workspace_id: r.workspaceId,
        workflow_id: r.workflowId,
        deployment_version: r.deploymentVersion,
        snapshot_hash: r.snapshotHash,
        trigger: r.trigger,
        status: r.status,
        level: r.level,
        started_at: r.startedAt.toISOString(),
        ended_at: r.endedAt?.toISOString() ?? null,
        total_duration_ms: r.totalDurationMs,
        cost_total: r.costTotal,
        cost: storedCost(r.cost),
        models: r.models.length > 0 ? r.models : null,
        // Only a log with no trace (a running marker) keeps a final output in the column (packed-trace.ts `final`).
        final_output: packed ? null : finalOutput,
        // The compressed bytes in their own column; beside them only what the logs list reads in SQL (columns.ts).
        trace_spans: packed && packed.offloaded !== undefined ? { offloaded: packed.offloaded } : null,
        trace_packed: packed ? packed.z : null,
        files: r.files,
        error: r.error,
        block_error_count: r.blockErrorCount,
        runner_id: r.runnerId,
        parent_execution_id: r.parentExecutionId,
        request_id: r.requestId,
        pause: r.pause,
        rerun_of: r.rerunOf,
        rerun_from_block: r.rerunFromBlock,
        queued_ms: r.queuedMs,
        flow_control: r.flowControl,
      };
    }),
  );

/** Inserts execution rows, leaving out those whose workflow is gone; the caller adds what a conflict does. */
const insertExecutions = (rows: ExecutionRecord[]) =>
  sql`insert into executions (${sql.raw(EXECUTION_NAMES)})
      select ${sql.raw(EXECUTION_VALUES)} from jsonb_to_recordset(${executionJson(rows)}::jsonb) as x(${sql.raw(EXECUTION_COLUMNS)})
      where exists (select 1 from workflows w where w.id = x.workflow_id)`;

/**
 * Rows whose workflow was deleted while they ran are left out (the deletion cascades to logs anyway), as are
 * deliveries of a subscription deleted meanwhile: a race with a deletion never fails the batch.
 */
export function recordStatement(batch: RecordBatch, options: { durable: boolean }): SQL {
  const durable = options.durable || batch.completions.length > 0 || batch.usage.length > 0 || batch.idempotency.length > 0;
  const parts: SQL[] = [];
  // Markers of runs that started without waiting for them may be lost in a database crash (such a run then has no
  // marker, like one that finished sooner); anything else waits for the WAL flush. On PGlite a crash of the process
  // is a crash of the database, so a marker a job relies on is always written durably.
  if (!durable) parts.push(RELAXED_COMMIT);
  if (batch.snapshots.length > 0) {
    parts.push(sql`snap as (
      insert into state_snapshots (hash, state)
      select x.hash, x.state from jsonb_to_recordset(${toJsonText(batch.snapshots)}::jsonb) as x(hash text, state jsonb)
      on conflict (hash) do nothing)`);
  }
  if (batch.markers.length > 0) {
    parts.push(sql`marks as (
      ${insertExecutions(batch.markers)}
      on conflict (id, started_at) do nothing)`);
  }
  if (batch.completions.length > 0) {
    // A marker written earlier is completed in place; a run that ended before its marker was due is inserted whole.
    // A log already closed by someone else (an orphan sweep that wrongly judged this process dead) is left as is.
    parts.push(sql`done as (
      ${insertExecutions(batch.completions)}
      on conflict (id, started_at) do update set
        status = excluded.status, level = excluded.level, ended_at = excluded.ended_at,
        total_duration_ms = excluded.total_duration_ms, cost_total = excluded.cost_total, cost = excluded.cost,
        models = excluded.models, final_output = excluded.final_output, trace_spans = excluded.trace_spans,
        trace_packed = excluded.trace_packed,
        files = excluded.files, error = excluded.error, block_error_count = excluded.block_error_count,
        pause = excluded.pause, runner_id = excluded.runner_id,
        -- A run resumed after a pause that waited for its flow control slot again says so (else what its start said).
        queued_ms = coalesce(excluded.queued_ms, executions.queued_ms),
        flow_control = coalesce(excluded.flow_control, executions.flow_control)
      where executions.status = 'running'
      returning ${logExecutionId} as execution_id)`);
  }
  const offloaded = batch.completions.flatMap((r) => (r.stored?.files ?? []).map((f) => ({ id: f.id, execution_id: r.executionId })));
  if (offloaded.length > 0) {
    // The values a log keeps in file storage become its files, with it and only if it is written: retention deletes
    // them with it (services/logs/retention.ts). Their rows were reserved as orphans before their bytes were written
    // (services/logs/orphaned-values.ts reserveValueRows, where a row's shape is written) and are only given the log's
    // execution id here. A row housekeeping took meanwhile is not made again: it deleted the bytes first, so the row
    // would point at nothing (the log shows its markers, as for a value gone from storage). The files of a log left
    // out (closed meanwhile, its workflow deleted) stay orphans, which housekeeping deletes once an hour old — not the
    // recorder at once: a log left out of a retry may be the one an earlier try committed without hearing so (a lost
    // answer), whose values are then its.
    parts.push(sql`offloaded as (
      update files f set execution_id = x.execution_id
      from jsonb_to_recordset(${toJsonText(offloaded)}::jsonb) as x(id text, execution_id text)
      where f.id = x.id and x.execution_id in (select execution_id from done))`);
  }
  if (batch.usage.length > 0) {
    parts.push(sql`charged as (
      insert into usage_periods (user_id, period, cost_usd)
      select x.user_id, x.period, x.cost_usd from jsonb_to_recordset(${toJsonText(
        batch.usage.map((u) => ({ user_id: u.userId, period: u.period, cost_usd: u.costUsd })),
      )}::jsonb) as x(user_id text, period text, cost_usd float8)
      where exists (select 1 from users u where u.id = x.user_id)
      on conflict (user_id, period) do update set
        cost_usd = usage_periods.cost_usd + excluded.cost_usd, updated_at = now())`);
  }
  if (batch.deliveries.length > 0) {
    parts.push(sql`outbox as (
      insert into deliveries (id, event_id, subscription_id, workflow_id, execution_id, event_type, envelope, next_attempt_at)
      select x.id, x.event_id, x.subscription_id, x.workflow_id, x.execution_id, ${COMPLETION_EVENT}, x.envelope, now()
      from jsonb_to_recordset(${toJsonText(
        batch.deliveries.map((d) => ({
          id: d.id,
          event_id: d.eventId,
          subscription_id: d.subscriptionId,
          workflow_id: d.workflowId,
          execution_id: d.executionId,
          envelope: d.envelope,
        })),
      )}::jsonb) as x(id text, event_id text, subscription_id text, workflow_id text, execution_id text, envelope text)
      where exists (select 1 from webhook_subscriptions s where s.id = x.subscription_id)${
        // A completion left out above (its log was closed meanwhile, or its workflow deleted) announces nothing: the
        // close sent its own webhooks, and a second event for one execution would contradict the first.
        batch.completions.length > 0 ? sql` and x.execution_id in (select execution_id from done)` : sql``
      }
      returning id, created_at)`);
    // One job per delivery row that was written.
    const attempts = batch.deliveries.map((d) => ({ kind: DELIVERY_JOB, payload: { deliveryId: d.id }, after: d.id }));
    parts.push(sql`attempts as (${insertFollowingJobs(attempts, sql`select id from outbox`)})`);
  }
  if (batch.followUps.length > 0 && batch.completions.length > 0) {
    const followUps = batch.followUps.map((j) => ({ id: j.id, kind: j.kind, payload: j.payload, runAt: j.runAt, after: j.executionId }));
    parts.push(sql`follow_ups as (${insertFollowingJobs(followUps, sql`select execution_id from done`)})`);
  }
  if (batch.idempotency.length > 0) {
    parts.push(sql`answered as (
      update idempotency_keys k set status = 'done', response_status = x.status, response_headers = x.headers,
        response_body = x.body
      from jsonb_to_recordset(${toJsonText(
        batch.idempotency.map((i) => ({
          workflow_id: i.workflowId,
          key: i.key,
          status: i.response.status,
          headers: i.response.headers,
          body: i.response.body ?? null,
        })),
      )}::jsonb) as x(workflow_id text, key text, status int, headers jsonb, body jsonb)
      where k.workflow_id = x.workflow_id and k.key = x.key)`);
  }
  const freed = batch.freedSlots ?? [];
  if (freed.length > 0) {
    // A run's flow control slot goes with its log, in the same commit: no round trip of its own.
    parts.push(sql`freed as (
      delete from flow_slots where execution_id in (select jsonb_array_elements_text(${toJsonText(freed)}::jsonb))
      returning flow_key)`);
  }
  // Data-modifying WITH items run whether or not they are referenced; the wake-up goes out only with new jobs.
  const relaxed = durable ? sql`` : sql`, ${RELAXED_COMMIT_TAKEN} as relaxed`;
  // A freed slot may let a queued run of its key go: the workers hear of it at commit — only when one is queued (a sync
  // run's every completion would otherwise wake every worker for nothing). `woke_slots` says whether they were.
  const slotsWake =
    freed.length > 0
      ? sql`, (select count(*)::int from (select pg_notify(${JOBS_CHANNEL}, '') from jobs j
          where j.status = 'queued' and j.flow_key in (select flow_key from freed) limit 1) w) as woke_slots`
      : sql``;
  const wake =
    batch.deliveries.length > 0
      ? sql`${wakeWorkersIfQueued('attempts')} as woke`
      : sql`1 as done`;
  return sql`with ${sql.join(parts, sql`, `)} select ${wake}${slotsWake}${relaxed}`;
}
