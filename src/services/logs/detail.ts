// `GET /api/v1/logs/{id}` and `GET /api/v1/logs/executions/{executionId}`. A log of a workspace the caller cannot
// reach, and a run still in flight, are both "not found": the answer never hints that the id exists.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { executions, logExecutionId, stateSnapshots, workflows } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { canAccessWorkspace } from '../access.js';
import type { Principal } from '../api-keys.js';
import { toFullCost, type FullCost } from '../cost.js';
import type { FileStorage } from '../files/storage.js';
import { isExecution } from '../../db/execution-lookup.js';
import { logRowColumns } from './columns.js';
import { restoreValues } from './offloaded-values.js';
import { completedOnly } from './filters.js';
import { toExecutionData, toLogEntry, type ExecutionData, type LogEntry, type WorkflowSummary } from './views.js';

export interface LogDetail extends Omit<LogEntry, 'cost'> {
  /** `success`, `error`, or `cancelled` (a cancel request or a caller that went away stopped it). */
  status: string;
  /** The run whose workflow block started this one (a sub-workflow), else null. */
  parentExecutionId: string | null;
  workflow: WorkflowSummary;
  executionData: ExecutionData;
  cost: FullCost;
  /** X-Request-Id of the request that started the run (null for schedules and older logs). */
  requestId: string | null;
  /** Why the run failed or was stopped (`Execution cancelled`, a block's error, an interruption); null on success. */
  error: string | null;
  /** For a run that paused for an approval: how often, how long it waited, and what was decided. */
  approvals: ApprovalsView | null;
  /** Set on a re-run: the execution it re-ran, and the block it ran from (null when it ran whole). */
  rerunOf: string | null;
  rerunFromBlock: string | null;
  /** How long the run waited before it started (queued, or for a flow control slot); null when it did not. */
  queuedMs: number | null;
  /** Set when the workflow's flow control held the run back: why (`concurrency` or `singleton`). */
  flowControl: { reason: string } | null;
  /** The re-runs of this execution, oldest first (at most MAX_RERUNS_LISTED; `GET /api/v1/logs?rerunOf=` has all). */
  reruns: Array<{ executionId: string; status: string; startedAt: string }>;
}

const MAX_RERUNS_LISTED = 100;

export interface ApprovalsView {
  pauses: number;
  /** Time spent waiting for decisions (not counted in totalDurationMs). */
  pausedMs: number;
  /** When the run first started; the log is listed at the time it last resumed. */
  firstStartedAt: string;
  /** By approval block id. */
  decisions: Record<string, { approved: boolean; data: unknown; decidedBy: string | null; decidedAt: string }>;
}

/** The pause column as the detail shows it (a run closed mid-resume still holds its whole pause state there). */
function approvalsView(pause: Record<string, unknown> | null): ApprovalsView | null {
  if (!pause) return null;
  return {
    pauses: Number(pause.pauses ?? pause.number ?? 1),
    pausedMs: Math.round(Number(pause.pausedMs ?? 0)),
    firstStartedAt: String(pause.firstStartedAt ?? ''),
    decisions: (pause.decisions ?? {}) as ApprovalsView['decisions'],
  };
}

export interface WorkflowStateSnapshot {
  blocks: Record<string, unknown>;
  edges: unknown[];
  loops: Record<string, unknown>;
  parallels: Record<string, unknown>;
}

export interface ExecutionDetail {
  executionId: string;
  workflowId: string;
  workflowState: WorkflowStateSnapshot;
  executionMetadata: {
    trigger: string;
    deploymentVersion: number | null;
    startedAt: string;
    endedAt: string;
    totalDurationMs: number;
    cost: FullCost;
    /** X-Request-Id of the request that started the run (null for schedules and older logs). */
    requestId: string | null;
  };
}

/** The detail and the workspace it belongs to (for the `limits` of that workspace's owner). */
export interface Located<T> {
  workspaceId: string;
  value: T;
}

/**
 * `db` is where logs are read (a replica with DATABASE_READ_URL), `primary` the primary: what must reflect the
 * latest writes — who may still see the workspace, the re-runs just asked for — is read there, never behind a lag.
 * `logger` hears of values missing or damaged in file storage (offloaded-values.ts).
 */
export async function getLogDetail(
  db: Db,
  principal: Principal,
  logId: string,
  storage: FileStorage,
  primary: Db,
  logger?: Logger,
): Promise<Located<LogDetail>> {
  const [row] = await db
    .select({ log: logRowColumns, workflow: { id: workflows.id, name: workflows.name, description: workflows.description } })
    .from(executions)
    .innerJoin(workflows, eq(workflows.id, executions.workflowId))
    .where(and(eq(executions.id, logId), completedOnly))
    .limit(1);
  // A member removed a moment ago has lost access now, not once a replica has caught up.
  if (!row || !(await canAccessWorkspace(primary, principal, row.log.workspaceId))) throw notFound('Log');
  const { log } = row;
  // Listed once finished or still going, from the primary: someone who just asked for a re-run looks for it here.
  // Values kept in file storage are fetched meanwhile (offloaded-values.ts).
  const [values, reruns] = await Promise.all([
    restoreValues(storage, log, { logger }),
    primary
    .select({ executionId: logExecutionId, status: executions.status, startedAt: executions.startedAt })
    .from(executions)
    .where(eq(executions.rerunOf, log.executionId))
    .orderBy(asc(executions.startedAt))
    .limit(MAX_RERUNS_LISTED),
  ]);
  return {
    workspaceId: log.workspaceId,
    value: {
      ...toLogEntry(log),
      status: log.status,
      parentExecutionId: log.parentExecutionId,
      workflow: row.workflow,
      // The detail of one log always carries both: there is no list-sized response to keep small.
      executionData: toExecutionData(values, { traceSpans: true, finalOutput: true }),
      cost: toFullCost(log.costTotal, log.cost),
      requestId: log.requestId,
      error: log.error,
      approvals: approvalsView(log.pause),
      rerunOf: log.rerunOf,
      rerunFromBlock: log.rerunFromBlock,
      queuedMs: log.queuedMs,
      flowControl: log.flowControl ? { reason: String(log.flowControl.reason) } : null,
      reruns: reruns.map((r) => ({ ...r, startedAt: r.startedAt.toISOString() })),
    },
  };
}

/** A log without its trace, final output and pause state, which an execution's detail does not carry. */
const { traceSpans: _trace, finalOutput: _final, pause: _pause, ...executionMetadataColumns } = logRowColumns;

/** `primary`: as for getLogDetail, the access check's. */
export async function getExecutionDetail(
  db: Db,
  principal: Principal,
  executionId: string,
  primary: Db,
): Promise<Located<ExecutionDetail>> {
  const [row] = await db
    .select({ log: executionMetadataColumns, state: stateSnapshots.state })
    .from(executions)
    .innerJoin(stateSnapshots, eq(stateSnapshots.hash, executions.snapshotHash))
    .where(and(isExecution(executionId), completedOnly))
    .limit(1);
  if (!row || !(await canAccessWorkspace(primary, principal, row.log.workspaceId))) throw notFound('Execution');
  const entry = toLogEntry(row.log);
  return {
    workspaceId: row.log.workspaceId,
    value: {
      executionId: entry.executionId,
      workflowId: entry.workflowId,
      workflowState: snapshotView(row.state),
      executionMetadata: {
        trigger: entry.trigger,
        deploymentVersion: entry.deploymentVersion,
        startedAt: entry.startedAt,
        endedAt: entry.endedAt,
        totalDurationMs: entry.totalDurationMs,
        cost: toFullCost(row.log.costTotal, row.log.cost),
        requestId: row.log.requestId,
      },
    },
  };
}

/** The four keys of a workflow state (docs/workflows.md 1), each present even if the stored snapshot left one out. */
function snapshotView(state: unknown): WorkflowStateSnapshot {
  const s = (state ?? {}) as Partial<Record<keyof WorkflowStateSnapshot, unknown>>;
  const record = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  return {
    blocks: record(s.blocks),
    edges: Array.isArray(s.edges) ? s.edges : [],
    loops: record(s.loops),
    parallels: record(s.parallels),
  };
}
