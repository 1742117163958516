// The `workflow.execution.completed` payload (docs/guarantees.md 3.1), `deploymentVersion` included. The optional parts
// appear only when the subscription asks for them; key order is fixed so bodies read the same every time.
import { toFullCost } from '../cost.js';
import { readTrace } from '../logs/stored-trace.js';
import type { LogRow } from '../logs/columns.js';
import { COMPLETION_EVENT } from './constants.js';
import type { SubscriptionRow } from './subscriptions.js';

export type IncludeFlags = Pick<SubscriptionRow, 'includeFinalOutput' | 'includeTraceSpans' | 'includeRateLimits' | 'includeUsageData'>;

/** What the payload says about one completed execution (shared by every subscription of the event). */
export interface CompletedExecution {
  logId: string;
  workflowId: string;
  executionId: string;
  status: string;
  level: string;
  trigger: string;
  /** Null for a manual run of the draft (and for the test event, which ran nothing). */
  deploymentVersion: number | null;
  /** Blocks that reported an error in a run that still succeeded (workflow/block-errors.ts). */
  blockErrorCount: number;
  startedAt: string;
  endedAt: string;
  totalDurationMs: number;
  cost: unknown;
  files: unknown;
  finalOutput: unknown;
  traceSpans: unknown;
}

/** The workflow owner's limits (the `limits` object of the logs API), for includeRateLimits / includeUsageData. */
export interface OwnerLimits {
  workflowExecutionRateLimit: unknown;
  usage: unknown;
}

export interface CompletionPayload {
  id: string;
  type: typeof COMPLETION_EVENT;
  timestamp: number;
  data: Record<string, unknown>;
  links: { log: string; execution: string };
}

/** The level a completion is announced with (what subscriptions filter on). */
export const levelOf = (row: Pick<LogRow, 'level' | 'status'>) => row.level ?? (row.status === 'success' ? 'info' : 'error');

export function completedExecution(row: LogRow): CompletedExecution {
  const endedAt = row.endedAt ?? new Date();
  return {
    logId: row.id,
    workflowId: row.workflowId,
    executionId: row.executionId,
    // The payload status is only `success` or `error`: a cancelled run is an error there (the log says `cancelled`).
    status: row.status === 'success' ? 'success' : 'error',
    level: levelOf(row),
    trigger: row.trigger,
    deploymentVersion: row.deploymentVersion,
    blockErrorCount: row.blockErrorCount,
    startedAt: row.startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    totalDurationMs: row.totalDurationMs ?? endedAt.getTime() - row.startedAt.getTime(),
    // The same shape as the log detail's cost (docs/api.md 6.3).
    cost: toFullCost(row.costTotal, row.cost),
    files: row.files ?? null,
    finalOutput: row.finalOutput ?? {},
    // Read back from the log (delivery-body.ts): the stored trace, decoded to the spans the engine made.
    traceSpans: readTrace(row.traceSpans ?? [], row.finalOutput).spans,
  };
}

export function completionPayload(input: {
  eventId: string;
  timestamp: number;
  execution: CompletedExecution;
  include: IncludeFlags;
  owner?: OwnerLimits;
}): CompletionPayload {
  const { execution: e, include } = input;
  const data: Record<string, unknown> = {
    workflowId: e.workflowId,
    executionId: e.executionId,
    status: e.status,
    level: e.level,
    trigger: e.trigger,
    startedAt: e.startedAt,
    endedAt: e.endedAt,
    totalDurationMs: e.totalDurationMs,
    cost: e.cost,
    files: e.files,
    // Our addition (extra fields are allowed): which deployment ran, so receivers can tell releases apart.
    deploymentVersion: e.deploymentVersion,
    // Also ours: a run that succeeded although blocks reported errors (an API block's 500) is not a clean success.
    blockErrorCount: e.blockErrorCount,
  };
  if (include.includeFinalOutput) data.finalOutput = e.finalOutput;
  if (include.includeTraceSpans) data.traceSpans = e.traceSpans;
  if (include.includeRateLimits) data.rateLimits = input.owner?.workflowExecutionRateLimit ?? null;
  if (include.includeUsageData) data.usage = input.owner?.usage ?? null;
  return {
    id: input.eventId,
    type: COMPLETION_EVENT,
    timestamp: input.timestamp,
    data,
    links: { log: `/v1/logs/${e.logId}`, execution: `/v1/logs/executions/${e.executionId}` },
  };
}

export const needsOwnerLimits = (include: IncludeFlags) => include.includeRateLimits || include.includeUsageData;
