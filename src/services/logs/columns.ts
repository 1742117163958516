// The columns of a logs page, shared by the page query (list.ts) and the model window (model-window.ts).
import { getTableColumns, sql } from 'drizzle-orm';
import { executions, logExecutionId } from '../../db/schema.js';
import { PACKED_TRACE_FORMAT } from './packed-trace.js';
import type { LogsQuery } from './params.js';

/**
 * An execution row as the services read it: its trace is `traceSpans`, in the form `storedTrace` gives, and its
 * execution id is `logExecutionId`'s (a paired log keeps none in its column).
 */
export type LogRow = Omit<typeof executions.$inferSelect, 'tracePacked' | 'executionId'> & { executionId: string };

/**
 * A log's trace column as packed-trace.ts and stored-trace.ts read it, whichever way the row keeps it: a row with
 * `trace_packed` answers `{ format: 4, z: base64 of its bytes, offloaded? }`, the form that column replaced (the
 * base64 is made here, on the few reads, instead of being stored); an older row answers its `trace_spans`.
 */
export const storedTrace = sql<unknown[] | null>`case when ${executions.tracePacked} is null then ${executions.traceSpans}
  else jsonb_build_object('format', ${sql.raw(String(PACKED_TRACE_FORMAT))}::int, 'z', translate(encode(${executions.tracePacked}, 'base64'), chr(10), ''))
    || coalesce(${executions.traceSpans}, '{}'::jsonb) end`;

const { tracePacked: _packed, ...rowColumns } = getTableColumns(executions);
/** A whole log row, selected (or returned by an update) as a LogRow. */
export const logRowColumns = { ...rowColumns, executionId: logExecutionId, traceSpans: storedTrace };

/** Large columns are read only when the response carries them. Computed ones are named, as a subquery needs. */
export function pageColumns(q: LogsQuery) {
  const full = q.details === 'full';
  const withData = q.includeFinalOutput || q.includeTraceSpans;
  return {
    id: executions.id,
    workflowId: executions.workflowId,
    executionId: logExecutionId.as('execution_id'),
    deploymentVersion: executions.deploymentVersion,
    level: executions.level,
    trigger: executions.trigger,
    startedAt: executions.startedAt,
    endedAt: executions.endedAt,
    totalDurationMs: executions.totalDurationMs,
    costTotal: executions.costTotal,
    files: executions.files,
    blockErrorCount: executions.blockErrorCount,
    cost: full ? executions.cost : sql<unknown>`null`.as('cost'),
    // A log keeps its final output in the packed trace (packed-trace.ts `final`), and the trace refers into it: the
    // two are read together. The trace also says which values are in file storage (offloaded-values.ts): of a row
    // that keeps its final output in its column (written before), the final output alone needs only that.
    traceSpans: q.includeTraceSpans
      ? storedTrace.as('trace_spans')
      : q.includeFinalOutput
        ? sql<unknown>`case when ${executions.finalOutput} is null then ${storedTrace}
            else jsonb_build_object('offloaded', ${executions.traceSpans} -> 'offloaded') end`.as('trace_spans')
        : sql<unknown>`null`.as('trace_spans'),
    finalOutput: withData ? executions.finalOutput : sql<unknown>`null`.as('final_output'),
  };
}
