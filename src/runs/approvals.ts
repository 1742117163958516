// Human approval (README "Human approval"): an approval block pauses its run until someone decides. The paused
// state is durable and belongs to no process: the run ends (status `paused`), and what resuming it needs is stored
// on its row — the outcomes of the blocks that already ran and the decisions made so far. Resuming runs the
// workflow again from the start, replaying those blocks from their recorded outcomes (the engine's `replay`), so no
// API call, model call or wait happens twice, and the approval block now returns the decision.
//
// Lifecycle of the row: running → paused → (resume request or time-out) resuming → running → success/error/…
// (or paused again at the next approval block). Cancelling a paused run ends it as cancelled.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ApprovalDecision, ApprovalRequest } from '../blocks/types.js';
import type { Db } from '../db/client.js';
import { executions, stateSnapshots } from '../db/schema.js';
import { RunStop, type EngineEvent, type IterationStep, type ReplayedBlock } from '../engine/index.js';
import { AppError, notFound } from '../errors.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { ClaimedJob, JobHandler, JobResult } from '../jobs/types.js';
import { TRIGGER_TYPES, type WorkflowState } from '../workflow/index.js';
import { assertWorkspaceAccess, canRunInWorkspace } from '../services/access.js';
import { enqueueCompletionDeliveries } from '../services/completion-webhooks/outbox.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { workspaceOwner } from '../services/limits.js';
import type { FollowUpJob } from './record-statement.js';
import { runExecution, type ExecutionOutcome } from './run-execution.js';
import { RUNNER_ID } from './runners.js';

export const RESUME_JOB = 'execution.resume';
export const PAUSED_MESSAGE = 'Paused: waiting for an approval';

const decisionSchema = z.object({
  approved: z.boolean(),
  data: z.unknown(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string(),
});

const replaySchema = z.object({
  key: z.string(),
  output: z.record(z.string(), z.unknown()),
  sourceHandle: z.string().optional(),
  continueOnError: z.boolean().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
});

/** What a paused run's row keeps (executions.pause). */
const pauseSchema = z.object({
  /** 1 for the run's first pause, 2 for its second, … (a time-out job belongs to one of them). */
  number: z.number().int().min(1),
  blockId: z.string(),
  message: z.string().nullable(),
  requestedAt: z.string(),
  timeoutAt: z.string().nullable(),
  defaultDecision: z.enum(['approve', 'reject']).nullable(),
  decisions: z.record(z.string(), decisionSchema),
  /** Set by a resume request (or the time-out) for the resuming run to take. */
  pending: decisionSchema.optional(),
  replay: z.array(replaySchema),
  input: z.record(z.string(), z.unknown()),
  triggerBlockId: z.string().optional(),
  firstStartedAt: z.string(),
  /** Paused time of the earlier pauses; the current one is added when it resumes. */
  pausedMs: z.number(),
  /** Usage charged so far (the final log's cost counts the whole run; the owner pays the rest then). */
  chargedUsd: z.number(),
  /** Time the run spent running (not waiting) so far: the final log's duration. */
  activeMs: z.number(),
});
export type PauseState = z.infer<typeof pauseSchema>;
export type Decision = z.infer<typeof decisionSchema>;

/** What a resumed run is given (run-execution.ts). */
export interface Resumption {
  logId: string;
  pause: PauseState;
  decision: Decision;
}

const replayKey = (blockId: string, path: IterationStep[]) =>
  path.length === 0 ? blockId : `${blockId}|${path.map((step) => `${step.containerId}#${step.index}`).join('/')}`;

const holdsApproval = new WeakMap<WorkflowState, boolean>();

/** Whether a state can pause at all (most cannot: their runs skip the tracking below). Cached per loaded state. */
export function canPause(state: WorkflowState): boolean {
  let known = holdsApproval.get(state);
  if (known === undefined) {
    known = Object.values(state.blocks).some((block) => block.type === 'approval');
    holdsApproval.set(state, known);
  }
  return known;
}

/**
 * One run's side of pausing: the approval service its blocks call, and the record of what finished before the pause
 * (what a resumed run replays). `stop` ends the run when an approval block asks to wait.
 */
export function createPauseTracker(input: {
  state: WorkflowState;
  resumption?: Resumption;
  stop(reason: RunStop): void;
}) {
  const decisions: Record<string, Decision> = input.resumption
    ? { ...input.resumption.pause.decisions, [input.resumption.pause.blockId]: input.resumption.decision }
    : {};
  const replayed = new Map((input.resumption?.pause.replay ?? []).map((record) => [record.key, record]));
  const finished: PauseState['replay'] = [];
  let request: (ApprovalRequest & { requestedAt: string }) | undefined;
  const startedAt = new Date().toISOString();

  return {
    replay: replayed.size > 0 ? (blockId: string, path: IterationStep[]): ReplayedBlock | undefined => replayed.get(replayKey(blockId, path)) : undefined,
    /** Records what finished, to be replayed on resume; what stops because of the pause runs again then. */
    onEvent(event: EngineEvent) {
      // After a pause was asked for, blocks still running are stopped (and run again on resume); one that finished
      // anyway did its work, and is replayed like the others.
      if (event.type !== 'block_finished' || (request && event.error !== undefined)) return;
      const done = event;
      finished.push({
        key: replayKey(done.blockId, done.iterationPath),
        output: done.output,
        ...(done.sourceHandle === undefined ? {} : { sourceHandle: done.sourceHandle }),
        ...(done.continueOnError ? { continueOnError: true } : {}),
        startedAt: done.startedAt,
        endedAt: done.endedAt,
      });
    },
    awaitApproval(asked: ApprovalRequest): Promise<ApprovalDecision> {
      if (input.state.blocks[asked.blockId]?.parentId) {
        return Promise.reject(new Error('An approval block cannot sit inside a loop or parallel: place it before or after'));
      }
      const decided = decisions[asked.blockId];
      if (decided) return Promise.resolve(decided);
      request ??= { ...asked, requestedAt: new Date().toISOString() };
      input.stop(new RunStop('paused', PAUSED_MESSAGE));
      return new Promise(() => undefined); // the pause ends the run; this block is run again on resume
    },
    /** The row's pause state once the run has stopped to wait. */
    pauseState(run: { input: Record<string, unknown>; triggerBlockId?: string; chargedUsd: number; activeMs: number }): PauseState {
      const earlier = input.resumption?.pause;
      const requestedAt = request!.requestedAt;
      return {
        number: (earlier?.number ?? 0) + 1,
        blockId: request!.blockId,
        message: request!.message ?? null,
        requestedAt,
        timeoutAt: request!.timeoutMs ? new Date(Date.parse(requestedAt) + request!.timeoutMs).toISOString() : null,
        defaultDecision: request!.defaultDecision ?? null,
        decisions,
        replay: finished,
        input: run.input,
        ...(run.triggerBlockId ? { triggerBlockId: run.triggerBlockId } : {}),
        firstStartedAt: earlier?.firstStartedAt ?? startedAt,
        pausedMs: pausedSoFar(input.resumption),
        chargedUsd: run.chargedUsd,
        activeMs: run.activeMs,
      };
    },
    /** What the final log keeps of the pauses: their decisions and the time spent waiting. */
    summary(): PauseSummary | null {
      if (!input.resumption) return null;
      return {
        pauses: input.resumption.pause.number,
        pausedMs: pausedSoFar(input.resumption),
        firstStartedAt: input.resumption.pause.firstStartedAt,
        decisions,
      };
    },
  };
}

export type PauseTracker = ReturnType<typeof createPauseTracker>;

/** What the log of a run that paused keeps of its pauses (shown in the log detail). */
export type PauseSummary = {
  pauses: number;
  pausedMs: number;
  /** When the run first started (the log is listed at the time it last resumed). */
  firstStartedAt: string;
  /** By approval block id. */
  decisions: Record<string, Decision>;
};

function pausedSoFar(resumption: Resumption | undefined): number {
  if (!resumption) return 0;
  const waited = Date.parse(resumption.decision.decidedAt) - Date.parse(resumption.pause.requestedAt);
  return resumption.pause.pausedMs + Math.max(0, waited);
}

/**
 * A paused run waits for the time-out of its approval, when the block set one: its default decision then applies.
 * The job is written with the paused log (one per pause: its id names the pause, so it is never queued twice).
 */
export function approvalTimeoutJob(executionId: string, pause: PauseState): FollowUpJob[] {
  if (!pause.timeoutAt) return [];
  return [
    {
      executionId,
      id: `job_timeout_${executionId}_${pause.number}`,
      kind: RESUME_JOB,
      payload: { executionId, timeoutOf: pause.number },
      runAt: new Date(pause.timeoutAt),
    },
  ];
}

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
    .where(eq(executions.executionId, executionId))
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
  const decision: Decision = { approved: body.approved, data: body.data ?? {}, decidedBy: principal.userId, decidedAt: new Date().toISOString() };
  // The decision and the job that acts on it commit together: no crash can leave a decided run with nobody to resume it.
  const accepted = await app.db.transaction(async (tx) => {
    if (!(await markResuming(tx, executionId, decision))) return false;
    await enqueueJob(tx, { kind: RESUME_JOB, payload: { executionId } });
    return true;
  });
  if (!accepted) {
    throw new AppError('EXECUTION_NOT_PAUSED', 409, 'The execution is not waiting for an approval (it was decided already, or has finished)');
  }
  return { executionId, status: 'resuming' };
}

/** paused → resuming with the decision; false when someone else decided first. `only` guards a time-out's pause. */
async function markResuming(db: Db, executionId: string, decision: Decision, only?: number): Promise<boolean> {
  const rows = await db
    .update(executions)
    .set({ status: 'resuming', pause: sql`jsonb_set(${executions.pause}, '{pending}', ${JSON.stringify(decision)}::jsonb)` })
    .where(
      and(
        eq(executions.executionId, executionId),
        eq(executions.status, 'paused'),
        only === undefined ? sql`true` : sql`(${executions.pause} ->> 'number')::int = ${only}`,
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
  return app.db.transaction(async (tx) => {
    const closed = await tx
      .update(executions)
      .set({
        status: 'cancelled',
        level: 'error',
        startedAt: sql`now()`,
        endedAt: sql`now()`,
        totalDurationMs: sql`coalesce((${executions.pause} ->> 'activeMs')::int, 0)`,
        error: CANCELLED_WHILE_PAUSED,
        pause: sql`jsonb_build_object('pauses', (${executions.pause} ->> 'number')::int, 'firstStartedAt', ${executions.pause} -> 'firstStartedAt', 'decisions', ${executions.pause} -> 'decisions', 'pausedMs', coalesce((${executions.pause} ->> 'pausedMs')::float8, 0) + greatest(0, extract(epoch from now() - (${executions.pause} ->> 'requestedAt')::timestamptz) * 1000))`,
      })
      .where(and(eq(executions.executionId, executionId), inArray(executions.status, ['paused', 'resuming'])))
      .returning();
    for (const row of closed) await enqueueCompletionDeliveries(tx, app, row);
    return closed.length > 0;
  });
}

/**
 * A decided run whose resume job is gone (it failed for good: the database kept failing it before the run restarted)
 * waits again for a decision instead of staying `resuming` forever: nothing of it ran since the pause, so deciding it
 * once more is safe. Returns how many runs were reopened.
 */
export async function reopenStrandedResumes(db: Db): Promise<number> {
  const reopened = await db
    .update(executions)
    .set({ status: 'paused', pause: sql`${executions.pause} - 'pending'` })
    .where(
      and(
        eq(executions.status, 'resuming'),
        sql`not exists (select 1 from jobs j where j.kind = ${RESUME_JOB} and j.status in ('queued', 'running')
          and j.payload ->> 'executionId' = ${executions.executionId})`,
      ),
    )
    .returning({ id: executions.id });
  return reopened.length;
}

export const CANCELLED_WHILE_PAUSED = 'Execution cancelled while it waited for an approval';

// ---- the resume job ------------------------------------------------------------------------------------------

const resumeJobPayload = z.object({ executionId: z.string(), timeoutOf: z.number().int().optional() });

/** Runs a resumed execution on a worker: any process may, as the state it needs is in the row. */
async function runResumeJob(app: AppContext, job: ClaimedJob): Promise<JobResult> {
  const parsed = resumeJobPayload.safeParse(job.payload);
  if (!parsed.success) return { outcome: { type: 'fail', error: 'Malformed resume job payload' } };
  const { executionId, timeoutOf } = parsed.data;
  const skipped = (reason: string): JobResult => ({ outcome: { type: 'complete', result: { skipped: reason } } });

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
    if (!(await markResuming(app.db, executionId, decision, timeoutOf))) return skipped('decided before its time-out');
  }

  // resuming → running, from now: the resumed run is a run in flight like any other (marker, horizon, orphan sweep).
  const [row] = await app.db
    .update(executions)
    .set({ status: 'running', startedAt: sql`now()`, runnerId: RUNNER_ID })
    .where(and(eq(executions.executionId, executionId), eq(executions.status, 'resuming')))
    .returning();
  if (!row) return skipped('not waiting to resume');
  const pause = pauseSchema.parse(row.pause);
  const [snapshot] = await app.db.select({ state: stateSnapshots.state }).from(stateSnapshots).where(eq(stateSnapshots.hash, row.snapshotHash));
  const trigger = z.enum(TRIGGER_TYPES).parse(row.trigger);
  const outcome = await runExecution(app, {
    workflow: { id: row.workflowId, workspaceId: row.workspaceId },
    state: snapshot.state,
    stateHash: row.snapshotHash,
    deploymentVersion: row.deploymentVersion,
    trigger,
    triggerBlockId: pause.triggerBlockId,
    input: pause.input,
    executionId,
    files: row.files ?? undefined,
    owner: await workspaceOwner(app.db, row.workspaceId),
    timeoutMs: app.config.executionTimeoutMs,
    resumption: { logId: row.id, pause, decision: pause.pending! },
  });
  return { outcome: { type: 'complete', result: { executionId, status: outcomeStatus(outcome) } } };
}

const outcomeStatus = (outcome: ExecutionOutcome) =>
  outcome.result.success ? 'success' : outcome.result.stopReason === 'paused' ? 'paused' : 'error';

export function createResumeJobHandler(app: AppContext): JobHandler {
  return { run: (job) => runResumeJob(app, job), maxClaims: 3 };
}

// ---- listing ---------------------------------------------------------------------------------------------------

export interface PausedRunView {
  executionId: string;
  workflowId: string;
  blockId: string;
  message: string | null;
  pausedAt: string;
  timeoutAt: string | null;
  defaultDecision: 'approve' | 'reject' | null;
}

/** `GET /api/v1/executions?workspaceId=…&status=paused`: the runs of a workspace waiting for a decision. */
export async function listPausedRuns(app: AppContext, principal: Principal, workspaceId: string): Promise<PausedRunView[]> {
  await assertWorkspaceAccess(app.db, principal, workspaceId);
  const rows = await app.db
    .select({ executionId: executions.executionId, workflowId: executions.workflowId, pause: executions.pause })
    .from(executions)
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.status, 'paused')))
    .orderBy(executions.startedAt)
    .limit(500);
  return rows.flatMap((row) => {
    const pause = pauseSchema.safeParse(row.pause);
    if (!pause.success) return [];
    return [
      {
        executionId: row.executionId,
        workflowId: row.workflowId,
        blockId: pause.data.blockId,
        message: pause.data.message,
        pausedAt: pause.data.requestedAt,
        timeoutAt: pause.data.timeoutAt,
        defaultDecision: pause.data.defaultDecision,
      },
    ];
  });
}
