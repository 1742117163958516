// Rows of `executions` in the shapes of docs/api.md 6: the log entry (list item) and the workflow summary; the full
// cost of the log detail is made beside the cost it shows (../cost.ts). Timestamps are ISO 8601 with milliseconds,
// as stored.
import { readTrace } from './stored-trace.js';
import type { LogRow } from './columns.js';

/** The columns a log entry is made of. */
export type LogEntryRow = Pick<
  LogRow,
  | 'id'
  | 'workflowId'
  | 'executionId'
  | 'deploymentVersion'
  | 'level'
  | 'trigger'
  | 'startedAt'
  | 'endedAt'
  | 'totalDurationMs'
  | 'costTotal'
  | 'files'
  | 'blockErrorCount'
>;

export interface LogEntry {
  id: string;
  workflowId: string;
  executionId: string;
  /** The deployment version that ran; null for a manual run of the draft. */
  deploymentVersion: number | null;
  level: string;
  trigger: string;
  startedAt: string;
  endedAt: string;
  totalDurationMs: number;
  cost: { total: number };
  files: unknown;
  /** Blocks that reported an error in a run that still succeeded; 0 for any other run (workflow/block-errors.ts). */
  blockErrorCount: number;
}

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
}

export interface ExecutionData {
  traceSpans?: unknown[];
  finalOutput?: unknown;
}

export function toLogEntry(row: LogEntryRow): LogEntry {
  return {
    id: row.id,
    workflowId: row.workflowId,
    executionId: row.executionId,
    deploymentVersion: row.deploymentVersion,
    // Completed rows always have these; the fallbacks only keep the shape honest if one ever does not.
    level: row.level ?? 'error',
    trigger: row.trigger,
    startedAt: row.startedAt.toISOString(),
    endedAt: (row.endedAt ?? row.startedAt).toISOString(),
    totalDurationMs: row.totalDurationMs ?? 0,
    cost: { total: row.costTotal },
    files: row.files ?? null,
    blockErrorCount: row.blockErrorCount,
  };
}

export function toExecutionData(
  row: { traceSpans: unknown; finalOutput: unknown },
  include: { traceSpans: boolean; finalOutput: boolean },
): ExecutionData {
  const data: ExecutionData = {};
  // The stored trace refers into the final output (stored-trace.ts): a row read with its trace carries it too.
  if (include.traceSpans) data.traceSpans = readTrace(row.traceSpans, row.finalOutput).spans;
  if (include.finalOutput) data.finalOutput = row.finalOutput ?? null;
  return data;
}
