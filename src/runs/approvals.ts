// Human approval (README "Human approval"): an approval block pauses its run until someone decides. The paused
// state is durable and belongs to no process: the run ends (status `paused`), and what resuming it needs is stored
// on its row — the outcomes of the blocks that already ran and the decisions made so far. Resuming runs the
// workflow again from the start, replaying those blocks from their recorded outcomes (the engine's `replay`), so no
// API call, model call or wait happens twice, and the approval block now returns the decision.
//
// Lifecycle of the row: running → paused → (resume request or time-out) resuming → running → success/error/…
// (or paused again at the next approval block). Cancelling a paused run ends it as cancelled.
// A run parked in a long wait block (pause kind `wait`, pause.ts) takes the same path, resumed by its due time only:
// no request decides it, and a run past its time limit by then ends as timed out instead of going on.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { executions, logExecutionId, stateSnapshots } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { ClaimedJob, JobHandler, JobResult } from '../jobs/types.js';
import { timedOutMessage } from '../engine/index.js';
import { runTimeLimitMs, TRIGGER_TYPES, type FlowReason, type WorkflowState } from '../workflow/index.js';
import { assertWorkspaceAccess, canRunInWorkspace, requireRunRole } from '../services/access.js';
import { enqueueCompletionDeliveries } from '../services/completion-webhooks/outbox.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { workspaceOwner } from '../services/limits.js';
import { logRowColumns } from '../services/logs/columns.js';
import { isExecution } from '../db/execution-lookup.js';
import { pauseSchema, RESUME_JOB, timeLimitUsedMs, type Decision } from './pause.js';
import { RUNNER_ID } from './runner-id.js';
import { freeSlotQuietly, loggedWithSlot, runFlowOf, takeSlot } from './flow-slots.js';
import { retryingMovedRows } from './moved-rows.js';
import type { ExecutionOutcome, RunExecution } from './types.js';

// ---- asking to resume ----------------------------------------------------------------------------------------

export const resumeBody = z.strictObject({
  approved: z.boolean(),
  /** Passed on as `<approvalblock.data>`. */
  data: z.record(z.string(), z.unknown()).optional(),
});

export interface ResumeAnswer {
  executionId: string;
  status: 'resuming';
}

async function pausedRow(db: Db, executionId: string) {
  const [row] = await db
    .select({ id: executions.id, status: executions.status, workspaceId: executions.workspaceId, pause: executions.pause })
    .from(executions)
    .where(isExecution(executionId))
    .limit(1);
  return row;
}

/** `POST /api/v1/executions/{id}/resume`: records the decision and hands the run to a worker. */
export async function resumeExecution(
  app: AppContext,
  principal: Principal,
  executionId: string,
  body: z.infer<typeof resumeBody>,
): Promise<ResumeAnswer> {
  const row = await pausedRow(app.db, executionId);
  if (!row || !(await canRunInWorkspace(app, principal, row.workspaceId))) throw notFound('Execution');
  await requireRunRole(app, principal, row.workspaceId, 'editor', 'approve or reject runs');
  const decision: Decision = { approved: body.approved, data: body.data ?? {}, decidedBy: principal.userId, decidedAt: new Date().toISOString() };
  // The decision and the job that acts on it commit together: no crash can leave a decided run with nobody to resume it.
  // A cancel that moved the row meanwhile (moved-rows.ts) reads as a decision made first: 409 below.
  const accepted = await retryingMovedRows(() =>
    app.db.transaction(async (tx) => {
      if (!(await markResuming(tx, executionId, decision))) return false;
      await enqueueJob(tx, { kind: RESUME_JOB, payload: { executionId } });
      return true;
    }),
  );
  if (!accepted) {
    throw new AppError(
      'EXECUTION_NOT_PAUSED',
      409,
      'The execution is not waiting for an approval (it was decided already, waits in a wait block, or has finished)',
    );
  }
  return { executionId, status: 'resuming' };
}

/**
 * paused → resuming with the decision; false when someone else decided first. `only` guards a time-out's pause; a
 * request (no `only`) never resumes a parked wait: its due time does.
 */
async function markResuming(db: Db, executionId: string, decision: Decision, only?: number): Promise<boolean> {
  const rows = await db
    .update(executions)
    .set({ status: 'resuming', pause: sql`jsonb_set(${executions.pause}, '{pending}', ${JSON.stringify(decision)}::jsonb)` })
    .where(
      and(
        isExecution(executionId),
        eq(executions.status, 'paused'),
        only === undefined
          ? sql`(${executions.pause} ->> 'kind') is distinct from 'wait'`
          : sql`(${executions.pause} ->> 'number')::int = ${only}`,
      ),
    )
    .returning({ id: executions.id });
  return rows.length > 0;
}

/**
 * Ends a paused run as cancelled (a cancel request), with its completion webhooks; false when it was not waiting.
 * Like a resumed run, it is listed at the time it left its pause, so pollers past its first start still see it.
 */
export async function cancelPaused(app: AppContext, executionId: string): Promise<boolean> {
  const error = sql`case when ${executions.pause} ->> 'kind' = 'wait' then ${CANCELLED_WHILE_PARKED} else ${CANCELLED_WHILE_PAUSED} end`;
  return closePaused(app, executionId, { status: 'cancelled', error, from: ['paused', 'resuming'] });
}

/**
 * Ends a paused run with its completion webhooks, listed at the time it left its pause (so pollers past its first
 * start still see it). `from`: the statuses it may be in.
 */
async function closePaused(
  app: AppContext,
  executionId: string,
  end: { status: 'cancelled' | 'error'; error: SQL | string; from: Array<'paused' | 'resuming' | 'running'> },
): Promise<boolean> {
  // Two closes (or a close and the resume job) at once: the loser's update fails when the winner moved the row to
  // another month's partition; run again, it finds the row closed or running and closes nothing (moved-rows.ts).
  return retryingMovedRows(() =>
    app.db.transaction(async (tx) => {
      const closed = await tx
        .update(executions)
        .set({
          status: end.status,
          level: 'error',
          startedAt: sql`now()`,
          endedAt: sql`now()`,
          totalDurationMs: sql`coalesce((${executions.pause} ->> 'activeMs')::int, 0)`,
          error: end.error,
          runnerId: null,
          pause: sql`jsonb_build_object('pauses', (${executions.pause} ->> 'number')::int, 'firstStartedAt', ${executions.pause} -> 'firstStartedAt', 'decisions', ${executions.pause} -> 'decisions', 'pausedMs', coalesce((${executions.pause} ->> 'pausedMs')::float8, 0) + greatest(0, extract(epoch from now() - (${executions.pause} ->> 'requestedAt')::timestamptz) * 1000))`,
        })
        .where(and(isExecution(executionId), inArray(executions.status, end.from)))
        .returning(logRowColumns);
      for (const row of closed) await enqueueCompletionDeliveries(tx, app, row);
      return closed.length > 0;
    }),
  );
}

/**
 * A decided run whose resume job is gone (it failed for good: the database kept failing it before the run restarted)
 * waits again for a decision instead of staying `resuming` forever: nothing of it ran since the pause, so deciding it
 * once more is safe. Returns how many runs were reopened.
 */
export async function reopenStrandedResumes(db: Db): Promise<number> {
  // A run cancelled meanwhile moved its row (moved-rows.ts): run again, it is no longer `resuming` and stays closed.
  const reopened = await retryingMovedRows(() =>
    db
      .update(executions)
      .set({ status: 'paused', pause: sql`${executions.pause} - 'pending'` })
      .where(
        and(
          eq(executions.status, 'resuming'),
          sql`not exists (select 1 from jobs j where j.kind = ${RESUME_JOB} and j.status in ('queued', 'running')
            and j.payload ->> 'executionId' = ${logExecutionId})`,
        ),
      )
      .returning({ id: executions.id }),
  );
  return reopened.length;
}

export const CANCELLED_WHILE_PAUSED = 'Execution cancelled while it waited for an approval';
export const CANCELLED_WHILE_PARKED = 'Execution cancelled while it waited in a wait block';

// ---- the resume job ------------------------------------------------------------------------------------------

const resumeJobPayload = z.object({
  executionId: z.string(),
  timeoutOf: z.number().int().optional(),
  /** Set once the run found its flow control key full (epoch ms): it waits in the queue for a slot since then. */
  flowWaitSince: z.number().optional(),
});

/**
 * Runs a resumed execution on a worker: any process may, as the state it needs is in the row. Under flow control the
 * resumed run takes a slot of its key again (its pause freed the one it held: a parked run holds nothing), waiting in
 * the queue in its place while the key is full — never refused, whatever `onLimit` says: the run was admitted when it
 * first started. The job then carries the key, so the claim passes over it until a slot frees (jobs/claim.ts).
 */
async function runResumeJob(app: AppContext, run: RunExecution, job: ClaimedJob): Promise<JobResult> {
  const parsed = resumeJobPayload.safeParse(job.payload);
  if (!parsed.success) return { outcome: { type: 'fail', error: 'Malformed resume job payload' } };
  const { executionId, timeoutOf, flowWaitSince } = parsed.data;
  const skipped = (reason: string): JobResult => ({ outcome: { type: 'complete', result: { skipped: reason } } });

  const [waiting] = await app.db
    .select({ status: executions.status, workflowId: executions.workflowId, snapshotHash: executions.snapshotHash, pause: executions.pause })
    .from(executions)
    .where(isExecution(executionId))
    .limit(1);
  const waitingPause = waiting?.pause ? pauseSchema.safeParse(waiting.pause) : undefined;
  if (timeoutOf !== undefined) {
    if (waiting?.status !== 'paused' || !waitingPause?.success || waitingPause.data.number !== timeoutOf) return skipped('decided before its time-out');
  } else if (waiting?.status !== 'resuming' || !waitingPause?.success) {
    return skipped('not waiting to resume');
  }
  const [snapshot] = await app.db.select({ state: stateSnapshots.state }).from(stateSnapshots).where(eq(stateSnapshots.hash, waiting.snapshotHash));
  const flow = runFlowOf(waiting.workflowId, snapshot.state, waitingPause.data.input);
  if (flow && !(await takeSlot(app.db, flow, executionId))) {
    if (flowWaitSince === undefined) app.metrics.flowWaited(flow.workflowId, flow.reason);
    return {
      outcome: {
        type: 'release',
        keepPlace: true,
        flow: { key: flow.flowKey, limit: flow.limit },
        payloadPatch: { flowWaitSince: flowWaitSince ?? Date.now() },
      },
    };
  }
  let outcome: ExecutionOutcome | undefined;
  try {
    const flowWait = flow && flowWaitSince !== undefined ? { queuedMs: Math.max(0, Date.now() - flowWaitSince), reason: flow.reason } : undefined;
    const resumed = await resumeHolding(app, run, { executionId, timeoutOf, state: snapshot.state, holdsFlowSlot: flow !== undefined, flowWait });
    outcome = resumed.outcome;
    return resumed.result;
  } finally {
    // Freed with the run's log; a resume that did not run (decided meanwhile, out of time) or whose log could not be
    // stored frees it here.
    if (flow && !loggedWithSlot(outcome)) await freeSlotQuietly(app, executionId);
  }
}

/** The resume itself, once the run may go (it holds its slot, if it needs one). */
async function resumeHolding(
  app: AppContext,
  run: RunExecution,
  resume: { executionId: string; timeoutOf?: number; state: WorkflowState; holdsFlowSlot: boolean; flowWait?: { queuedMs: number; reason: FlowReason } },
): Promise<{ result: JobResult; outcome?: ExecutionOutcome }> {
  const { executionId, timeoutOf } = resume;
  const skipped = (reason: string) => ({ result: { outcome: { type: 'complete', result: { skipped: reason } } } satisfies JobResult });
  if (timeoutOf !== undefined) {
    const row = await pausedRow(app.db, executionId);
    const pause = row?.pause ? pauseSchema.safeParse(row.pause) : undefined;
    if (!pause?.success || pause.data.number !== timeoutOf) return skipped('decided before its time-out');
    const decision: Decision = {
      approved: pause.data.defaultDecision === 'approve',
      data: {},
      decidedBy: null,
      decidedAt: new Date().toISOString(),
    };
    if (!(await retryingMovedRows(() => markResuming(app.db, executionId, decision, timeoutOf)))) return skipped('decided before its time-out');
  }

  // resuming → running, from now: the resumed run is a run in flight like any other (marker, horizon, orphan sweep).
  // A cancel that moved the row first (moved-rows.ts) leaves it cancelled: run again, this matches nothing.
  const [row] = await retryingMovedRows(() =>
    app.db
      .update(executions)
      .set({ status: 'running', startedAt: new Date(), runnerId: RUNNER_ID })
      .where(and(isExecution(executionId), eq(executions.status, 'resuming')))
      .returning(),
  );
  if (!row) return skipped('not waiting to resume');
  const pause = pauseSchema.parse(row.pause);
  const trigger = z.enum(TRIGGER_TYPES).parse(row.trigger);
  const resumption = { logId: row.id, startedAt: row.startedAt, pause, decision: pause.pending! };
  // Nobody waits on a resumed run: it has the workflow's whole time limit, of which its run time and its waits count.
  const timeLimitMs = runTimeLimitMs(resume.state.flowControl, app.config.executionTimeoutMs, false);
  const leftMs = timeLimitMs - timeLimitUsedMs(resumption);
  if (leftMs <= 0) {
    const error = `${timedOutMessage(timeLimitMs)} (its time limit counts the time it waited in wait blocks)`;
    await closePaused(app, executionId, { status: 'error', error, from: ['running'] });
    return { result: { outcome: { type: 'complete', result: { executionId, status: 'error' } } } };
  }
  const outcome = await run(app, {
    workflow: { id: row.workflowId, workspaceId: row.workspaceId },
    state: resume.state,
    stateHash: row.snapshotHash,
    deploymentVersion: row.deploymentVersion,
    trigger,
    triggerBlockId: pause.triggerBlockId,
    input: pause.input,
    executionId,
    files: row.files ?? undefined,
    owner: await workspaceOwner(app.db, row.workspaceId),
    timeoutMs: leftMs,
    timeLimitMs,
    canPark: true,
    resumption,
    // A re-run that paused goes on as one: its calls keep carrying the original's idempotency keys.
    ...(row.rerunOf ? { rerun: { executionId: row.rerunOf, fromBlock: row.rerunFromBlock } } : {}),
    ...(resume.holdsFlowSlot ? { holdsFlowSlot: true } : {}),
    ...(resume.flowWait ? { flowWait: resume.flowWait } : {}),
  });
  return { result: { outcome: { type: 'complete', result: { executionId, status: outcomeStatus(outcome) } } }, outcome };
}

const outcomeStatus = (outcome: ExecutionOutcome) =>
  outcome.result.success ? 'success' : outcome.result.stopReason === 'paused' ? 'paused' : 'error';

/**
 * The resume job's handler. It is handed the function that runs an execution (app/worker.ts passes runExecution)
 * rather than importing it: running an execution is what may pause it, so run-execution.ts depends on pause.ts, and
 * this side of approvals must not depend back on it.
 */
export function createResumeJobHandler(app: AppContext, run: RunExecution): JobHandler {
  return { run: (job) => runResumeJob(app, run, job), maxClaims: 3 };
}

// ---- listing ---------------------------------------------------------------------------------------------------

export interface PausedRunView {
  executionId: string;
  workflowId: string;
  /** `approval`: waits for a decision (POST …/resume); `wait`: parked in a wait block until `resumeAt`. */
  kind: 'approval' | 'wait';
  blockId: string;
  message: string | null;
  pausedAt: string;
  timeoutAt: string | null;
  defaultDecision: 'approve' | 'reject' | null;
  /** When a parked wait goes on (null for an approval). */
  resumeAt: string | null;
  /** Set when an agent's tool call waits (blockId is the agent): the tool and the arguments the model gave. */
  toolCall?: { id: string; name: string; arguments: unknown };
}

/** `GET /api/v1/executions?workspaceId=…&status=paused`: the runs of a workspace waiting for a decision or a due time. */
export async function listPausedRuns(app: AppContext, principal: Principal, workspaceId: string): Promise<PausedRunView[]> {
  await assertWorkspaceAccess(app.db, principal, workspaceId);
  const rows = await app.db
    .select({ executionId: logExecutionId, workflowId: executions.workflowId, pause: executions.pause })
    .from(executions)
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.status, 'paused')))
    .orderBy(executions.startedAt)
    .limit(500);
  return rows.flatMap((row) => {
    const pause = pauseSchema.safeParse(row.pause);
    if (!pause.success) return [];
    const parked = pause.data.kind === 'wait';
    return [
      {
        executionId: row.executionId,
        workflowId: row.workflowId,
        kind: parked ? 'wait' : 'approval',
        blockId: pause.data.blockId,
        message: pause.data.message,
        pausedAt: pause.data.requestedAt,
        timeoutAt: pause.data.timeoutAt,
        defaultDecision: pause.data.defaultDecision,
        resumeAt: parked ? pause.data.timeoutAt : null,
        ...(pause.data.toolCall ? { toolCall: { id: pause.data.toolCall.id, name: pause.data.toolCall.name, arguments: pause.data.toolCall.arguments } } : {}),
      },
    ];
  });
}
