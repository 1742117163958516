// The columns of a logs page, shared by the page query (list.ts) and the model window (model-window.ts).
import { sql } from 'drizzle-orm';
import { executions } from '../../db/schema.js';
import type { LogsQuery } from './params.js';

/** Large columns are read only when the response carries them. Computed ones are named, as a subquery needs. */
export function pageColumns(q: LogsQuery) {
  const full = q.details === 'full';
  const withData = q.includeFinalOutput || q.includeTraceSpans;
  return {
    id: executions.id,
    workflowId: executions.workflowId,
    executionId: executions.executionId,
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
    traceSpans: q.includeTraceSpans ? executions.traceSpans : sql<unknown>`null`.as('trace_spans'),
    // The stored trace refers into the final output (stored-trace.ts), so it comes with the trace too.
    finalOutput: withData ? executions.finalOutput : sql<unknown>`null`.as('final_output'),
    // Whether values of the log are in file storage, and the final output among them (offloaded-values.ts).
    offloaded: withData ? sql<unknown>`${executions.traceSpans} -> 'offloaded'`.as('offloaded') : sql<unknown>`null`.as('offloaded'),
  };
}
