// The WHERE clause of the logs list: the workspace, completed runs only, and every filter of docs/api.md 6.1. Each
// filter is written so that the workspace-leading indexes on (workspace_id, [workflow_id,] started_at[, id]) keep
// serving the ORDER BY (where an index ends at started_at, the id that breaks ties is sorted within equal start
// times); the rest are checked on the rows the index walk produces.
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { executions, workflows } from '../../db/schema.js';
import { isExecution } from '../../db/execution-lookup.js';
import type { LogOrder, LogPosition } from './cursor.js';
import type { LogsQuery } from './params.js';

/** An execution in flight (`running`) or waiting for an approval (`paused`, `resuming`) becomes a log only once it has finished. */
export const completedOnly = sql`${executions.status} not in ('running', 'paused', 'resuming')`;

/** Timestamps go to SQL as ISO text with an explicit cast, which both drivers pass through unchanged. */
const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export function logFilters(q: LogsQuery): SQL[] {
  return [completedOnly, ...knownAtStartFilters(q), ...knownAtCompletionFilters(q)];
}

/** The filters on what a run records when it completes (besides the status). */
export function knownAtCompletionFilters(q: LogsQuery): SQL[] {
  const where: SQL[] = [];
  if (q.level) where.push(eq(executions.level, q.level));
  // Durations are whole milliseconds, so a fractional bound is rounded inwards to the whole number that selects the
  // same rows; compared as integers (not the column cast to float8) an index on the duration stays usable.
  if (q.minDurationMs !== undefined) where.push(sql`${executions.totalDurationMs} >= ${Math.ceil(q.minDurationMs)}::bigint`);
  if (q.maxDurationMs !== undefined) where.push(sql`${executions.totalDurationMs} <= ${Math.floor(q.maxDurationMs)}::bigint`);
  if (q.minCost !== undefined) where.push(sql`${executions.costTotal} >= ${q.minCost}::float8`);
  if (q.maxCost !== undefined) where.push(sql`${executions.costTotal} <= ${q.maxCost}::float8`);
  if (q.model) where.push(sql`${executions.models} @> array[${q.model}]::text[]`);
  // Only a run that succeeded has a count above 0 (workflow/block-errors.ts), so `true` needs no status test.
  if (q.blockErrors !== undefined) where.push(q.blockErrors ? sql`${executions.blockErrorCount} > 0` : eq(executions.blockErrorCount, 0));
  return where;
}

/**
 * The filters on what is fixed when a run starts (workspace, workflow, folder, trigger, deployment version,
 * execution id, start time).
 * They also narrow the running rows that hold back an ascending walk (horizon.ts): a run this query could never
 * return cannot land behind its cursor. Level, duration, cost, models and block errors are only known at completion.
 */
export function knownAtStartFilters(q: LogsQuery): SQL[] {
  const where: SQL[] = [eq(executions.workspaceId, q.workspaceId)];
  if (q.workflowIds) where.push(inArray(executions.workflowId, q.workflowIds));
  if (q.folderIds) {
    // Direct members of the folders; the subquery is bounded by the workspace, so ids of another workspace's
    // folders match nothing.
    where.push(
      sql`${executions.workflowId} in (select ${workflows.id} from ${workflows} where ${and(
        eq(workflows.workspaceId, q.workspaceId),
        inArray(workflows.folderId, q.folderIds),
      )})`,
    );
  }
  if (q.triggers) where.push(inArray(executions.trigger, q.triggers));
  if (q.deploymentVersion !== undefined) {
    where.push(q.deploymentVersion === null ? isNull(executions.deploymentVersion) : eq(executions.deploymentVersion, q.deploymentVersion));
  }
  if (q.startDate) where.push(sql`${executions.startedAt} >= ${ts(q.startDate)}`);
  if (q.endDate) where.push(sql`${executions.startedAt} <= ${ts(q.endDate)}`);
  if (q.executionId) where.push(isExecution(q.executionId));
  if (q.parentExecutionId) where.push(eq(executions.parentExecutionId, q.parentExecutionId));
  if (q.rerunOf) where.push(eq(executions.rerunOf, q.rerunOf));
  return where;
}

/**
 * Strictly after the position in the walk's own order: the keyset condition of the next page. The start-time bound
 * it implies is spelled out too: the planner prunes partitions (db/executions-partitions.ts) by a plain comparison
 * of started_at, never by the row comparison, and otherwise plans and opens every month for each page.
 */
export function beyond(order: LogOrder, position: LogPosition): SQL {
  const row = sql`(${executions.startedAt}, ${executions.id})`;
  const at = sql`(${ts(position.startedAt)}, ${position.id}::text)`;
  return order === 'asc'
    ? and(sql`${row} > ${at}`, sql`${executions.startedAt} >= ${ts(position.startedAt)}`)!
    : and(sql`${row} < ${at}`, sql`${executions.startedAt} <= ${ts(position.startedAt)}`)!;
}

/** The walk's order: by start time, then id, as the keyset condition (beyond) reads it. */
export const keysetOrder = (order: LogOrder) =>
  order === 'asc' ? [asc(executions.startedAt), asc(executions.id)] : [desc(executions.startedAt), desc(executions.id)];

export function startedBefore(horizon: Date): SQL {
  return sql`${executions.startedAt} < ${ts(horizon)}`;
}
