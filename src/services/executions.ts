// Running a workflow as a logged execution: the row is written as `running` when the run starts and completed
// in one transaction with the owner's usage and the completion webhook deliveries (outbox).
import { eq } from 'drizzle-orm';
import { hostname } from 'node:os';
import { withRelaxedCommit } from '../db/relaxed.js';
import { executions, stateSnapshots } from '../db/schema.js';
import { withoutNul } from '../db/without-nul.js';
import { runWorkflow, type EngineEvent, type ExecutionResult } from '../engine/index.js';
import { newId } from '../ids.js';
import type { TriggerType, WorkflowState } from '../workflow/index.js';
import type { AppContext } from './app-context.js';
import { contentHash } from './crypto.js';
import { summarizeCost, type ExecutionCost } from './cost.js';
import { loadEnvForRun } from './env-vars.js';
import { addUsage, workspaceOwner } from './limits.js';
import { enqueueCompletionDeliveries } from './webhooks/outbox.js';

export type ExecutionRow = typeof executions.$inferSelect;

/** Identifies this process in `executions.runner_id`, so orphaned runs can be told apart after a crash. */
export const RUNNER_ID = `${hostname()}:${process.pid}:${newId('exec').slice(5, 13)}`;

/**
 * Snapshots are content-addressed and immutable, so once this process has written one to a database it never
 * needs to again. Kept per database handle; bounded (a process seeing many distinct states re-inserts, a no-op).
 */
const knownSnapshots = new WeakMap<object, Set<string>>();
function snapshotsOf(db: object): Set<string> {
  let known = knownSnapshots.get(db);
  if (!known || known.size >= 10_000) knownSnapshots.set(db, (known = new Set()));
  return known;
}

export interface RunExecutionInput {
  workflow: { id: string; workspaceId: string };
  state: WorkflowState;
  deploymentVersion: number | null;
  trigger: TriggerType;
  input: Record<string, unknown>;
  /** Which trigger block starts the run when a state has several of one kind. */
  triggerBlockId?: string;
  /** Pre-assigned (async jobs, idempotency); generated otherwise. */
  executionId?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  onEvent?: (event: EngineEvent) => void;
  /** UserFile objects uploaded for this run, recorded on the log. */
  files?: unknown[];
  /** The workspace owner (usage is charged to them); looked up when not given. */
  owner?: { id: string; plan: string };
}

export interface ExecutionOutcome {
  executionId: string;
  logId: string;
  result: ExecutionResult;
  cost: ExecutionCost;
  timedOut: boolean;
}

export async function runExecution(app: AppContext, input: RunExecutionInput): Promise<ExecutionOutcome> {
  const { db } = app;
  const executionId = input.executionId ?? newId('exec');
  const logId = newId('log');
  const snapshotHash = contentHash(input.state);
  const startedAt = new Date();
  await withRelaxedCommit(db, async (tx) => {
    if (!snapshotsOf(db).has(snapshotHash)) {
      await tx.insert(stateSnapshots).values({ hash: snapshotHash, state: input.state }).onConflictDoNothing();
    }
    await tx.insert(executions).values({
    id: logId,
    executionId,
    workspaceId: input.workflow.workspaceId,
    workflowId: input.workflow.id,
    deploymentVersion: input.deploymentVersion,
    snapshotHash,
    trigger: input.trigger,
    status: 'running',
    startedAt,
    runnerId: RUNNER_ID,
    files: input.files && input.files.length > 0 ? input.files : null,
    });
  });
  snapshotsOf(db).add(snapshotHash);

  let result: ExecutionResult;
  try {
    const env = await loadEnvForRun(db, app.cipher, input.workflow.workspaceId);
    result = await runWorkflow({
      executionId,
      workflowId: input.workflow.id,
      state: input.state,
      // Same characters as will be logged, so what a block saw is what the log shows.
      trigger: { type: input.trigger, input: withoutNul(input.input) as Record<string, unknown>, blockId: input.triggerBlockId },
      env,
      services: app.blockServices,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      onEvent: input.onEvent,
    });
  } catch (err) {
    // The engine turns block failures into results; reaching here is a fault of ours. Log it, keep the row honest.
    app.logger.error({ err, executionId }, 'engine fault');
    const now = new Date().toISOString();
    result = {
      success: false,
      output: {},
      error: 'Internal error while running the workflow',
      traceSpans: [],
      blockOutputs: {},
      startedAt: startedAt.toISOString(),
      endedAt: now,
      durationMs: Date.now() - startedAt.getTime(),
    };
  }

  const cost = summarizeCost(result.traceSpans, app.config.baseCostUsd);
  const owner = input.owner ?? (await workspaceOwner(db, input.workflow.workspaceId));
  await db.transaction(async (tx) => {
    const [completed] = await tx
      .update(executions)
      .set({
        status: result.success ? 'success' : 'error',
        level: result.success ? 'info' : 'error',
        endedAt: new Date(result.endedAt),
        totalDurationMs: Math.round(result.durationMs),
        costTotal: cost.total,
        cost,
        models: Object.keys(cost.models),
        finalOutput: withoutNul(result.output),
        traceSpans: withoutNul(result.traceSpans),
        error: result.error === undefined ? null : (withoutNul(result.error) as string),
      })
      .where(eq(executions.id, logId))
      .returning();
    await addUsage(tx, owner.id, cost.total);
    await enqueueCompletionDeliveries(tx, app, completed);
  });

  return {
    executionId,
    logId,
    result,
    cost,
    timedOut: !result.success && /timed out/i.test(result.error ?? ''),
  };
}
