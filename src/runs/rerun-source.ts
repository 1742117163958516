// The execution a re-run repeats, as its log keeps it: the state that ran (its snapshot), the trace a re-run replays
// from, and the trigger input, read back from the trigger block's recorded output. Read where the re-run is asked for
// and again by the worker that runs an async one, so a queued re-run needs nothing but ids.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { executions, logExecutionId, stateSnapshots } from '../db/schema.js';
import { blockRegistry } from '../blocks/registry.js';
import type { TraceSpan } from '../engine/index.js';
import { TRIGGER_TYPES, type TriggerType, type WorkflowState } from '../workflow/index.js';
import type { FileStorage } from '../services/files/storage.js';
import { storedTrace } from '../services/logs/columns.js';
import { restoreValues } from '../services/logs/offloaded-values.js';
import { readTrace, type KeptTrace } from '../services/logs/stored-trace.js';
import { isExecution } from '../db/execution-lookup.js';
import { planRerun } from './rerun-plan.js';
import type { RerunOf } from './types.js';

export interface OriginalRun {
  executionId: string;
  workspaceId: string;
  workflowId: string;
  status: string;
  trigger: TriggerType;
  deploymentVersion: number | null;
  snapshotHash: string;
  /** The state that ran; null when its snapshot is gone. */
  state: WorkflowState | null;
  /** null when the log kept no trace (a minimal log, or one trimmed since). */
  traceSpans: TraceSpan[] | null;
  /** `summary`: the workflow's `trace` setting kept only timings and statuses (runs/trace-detail.ts). */
  traceKept: KeptTrace;
  /** Set when the original was itself a re-run: the execution it re-ran. */
  rerunOf: string | null;
  /**
   * Storage keys of the log's values that file storage no longer gives back (missing or damaged): `traceSpans` holds
   * their markers, which a re-run must not take for the values.
   */
  valuesLost: string[];
}

/**
 * `storage`: where the log's large values are (offloaded-values.ts), fetched back for the replay; `logger` hears of
 * one missing or damaged there.
 */
export async function loadOriginalRun(db: Db, storage: FileStorage, executionId: string, logger: Logger): Promise<OriginalRun | undefined> {
  const [row] = await db
    .select({
      executionId: logExecutionId,
      workspaceId: executions.workspaceId,
      workflowId: executions.workflowId,
      status: executions.status,
      trigger: executions.trigger,
      deploymentVersion: executions.deploymentVersion,
      snapshotHash: executions.snapshotHash,
      traceSpans: storedTrace,
      finalOutput: executions.finalOutput,
      rerunOf: executions.rerunOf,
      state: stateSnapshots.state,
    })
    .from(executions)
    .leftJoin(stateSnapshots, eq(stateSnapshots.hash, executions.snapshotHash))
    .where(isExecution(executionId))
    .limit(1);
  if (!row) return undefined;
  const trigger = (TRIGGER_TYPES as readonly string[]).includes(row.trigger) ? (row.trigger as TriggerType) : 'api';
  const { traceSpans: kept, finalOutput: keptFinal, ...rest } = row;
  const valuesLost: string[] = [];
  const { traceSpans: stored, finalOutput } = await restoreValues(
    storage,
    { traceSpans: kept, finalOutput: keptFinal },
    { logger, lost: (key) => valuesLost.push(key) },
  );
  const trace = readTrace(stored, finalOutput);
  const traceSpans = trace.spans.length > 0 ? (trace.spans as TraceSpan[]) : null;
  return { ...rest, trigger, traceSpans, traceKept: trace.detail, state: row.state ?? null, valuesLost };
}

/** The trigger block that started the original run and the input it was given, as its span recorded them. */
export function originalTrigger(original: OriginalRun): { blockId?: string; input: Record<string, unknown> } {
  const span = (original.traceSpans ?? []).find((s) => blockRegistry[s.type]?.trigger !== undefined);
  if (!span) return { input: {} };
  const output = isRecord(span.output) ? span.output : {};
  // The API trigger lays the body out field by field and keeps it whole under `input`; the others show it as it came.
  const input = span.type === 'api_trigger' && isRecord(output.input) ? output.input : output;
  return { blockId: span.blockId, input };
}

/**
 * A re-run that would take values of the original's log that file storage no longer gives back (deleted, damaged).
 * Refused whenever any is lost, not only one the re-run reads: a value stored once may stand for others (a trigger's
 * input repeated in the final output is kept once, as part of it), so which values a lost file takes with it is not
 * known from the file.
 */
export function valuesLostError(original: OriginalRun, what: string, instead: string): AppError {
  const [first, ...more] = original.valuesLost;
  const which = more.length > 0 ? `${first} and ${more.length} more` : first;
  return new AppError(
    'EXECUTION_SNAPSHOT_GONE',
    410,
    `This execution cannot be ${what}: values its log kept in file storage are missing or damaged there (${which}); ${instead}`,
  );
}

/**
 * What a re-run of `original` is given (the replay is built here, from the trace, in whichever process runs it). A
 * re-run of a re-run keeps the first execution's idempotency keys: to an upstream they are all repeats of its calls.
 */
export function rerunOf(original: OriginalRun, state: WorkflowState, fromBlock: string | null): RerunOf {
  const keys = original.rerunOf ? { idempotencyRoot: original.rerunOf } : {};
  if (fromBlock === null || !original.traceSpans) return { executionId: original.executionId, fromBlock, ...keys };
  return { executionId: original.executionId, fromBlock, ...keys, replay: planRerun(state, original.traceSpans, fromBlock).replay };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
