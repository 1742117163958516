// Async mode of the execute endpoint (docs/api.md 4.6, `X-Execution-Mode: async`): the run is a durable job (kind
// `execution.run`) that a worker picks up, so it survives a restart; `GET /api/jobs/{taskId}` reports on it.
// "Runs once": the execution id is fixed at enqueue time, and a job claimed again (its worker died) first looks for
// that execution and never starts the workflow a second time.
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { executions, jobs, stateSnapshots } from '../db/schema.js';
import { CANCELLED_MESSAGE } from '../engine/index.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob, type JobSpec } from '../jobs/enqueue.js';
import type { ClaimedJob, JobHandler, JobResult, JobRunContext } from '../jobs/types.js';
import { runTimeLimitMs, TRIGGER_TYPES, type TriggerType } from '../workflow/index.js';
import { canAccessWorkspace } from '../services/access.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { workspaceOwner } from '../services/limits.js';
import type { FileStorage } from '../services/files/storage.js';
import { logRowColumns, type LogRow } from '../services/logs/columns.js';
import { restoreFinalOutput } from '../services/logs/offloaded-values.js';
import { formatTraceparent, parseTraceparent } from '../observability/tracing.js';
import { isExecution } from '../db/execution-lookup.js';
import { runExecution } from './run-execution.js';
import type { ExecutionOutcome, RunExecutionInput } from './types.js';
import type { RunOrigin } from './run-observer.js';
import { loadDeploymentVersion, type RunTarget } from './deployed-workflow.js';
import { loadOriginalRun, rerunOf, valuesLostError } from './rerun-source.js';
import { settleEarlierAttempt } from './interrupted.js';
import { freeSlotQuietly, loggedWithSlot, takeSlot, type RunFlow } from './flow-slots.js';
import { takeStart, type RunThrottle } from './flow-throttle.js';
import { enqueueDebounced, type RunDebounce } from './flow-debounce.js';

export const EXECUTION_JOB = 'execution.run';

export interface AsyncExecutionRequest {
  workflowId: string;
  workspaceId: string;
  /** null only for a re-run of a manual run of the draft (it runs the snapshot that ran). */
  deploymentVersion: number | null;
  input: Record<string, unknown>;
  trigger: TriggerType;
  triggerBlockId?: string;
  /** UserFile objects already stored for this run, recorded on its log. */
  files?: unknown[];
  /** Fixed by the caller before files were stored under it: one execution id from request to log. */
  executionId: string;
  /** The request that queued the run: its id goes on the log, its span parents the run's span in the worker. */
  origin?: RunOrigin;
  /** A re-run: the worker reads the original's trace and replays from it (rerun-source.ts). */
  rerun?: QueuedRerun;
  /** Flow control (flow-slots.ts): the slot the run takes when it starts; `waits` when its key was full at queueing. */
  flow?: RunFlow & { waits: boolean };
  /** Higher first among the workspace's queued runs. */
  priority?: number;
  /** Throttle (flow-throttle.ts): the run takes a start of its key when it starts, or waits until one frees. */
  throttle?: RunThrottle;
  /** Debounce (flow-debounce.ts): the run joins its key's queued burst, if there is one. */
  debounce?: RunDebounce;
  /** Not due before this (a throttled webhook call: when its key's next start frees). */
  notBefore?: Date;
  /** The throttle already held the run back (the log's reason; counted as a wait once). */
  throttled?: boolean;
}

/** A queued re-run: the execution it repeats, from which block, and the state it runs (by snapshot hash). */
export interface QueuedRerun {
  of: string;
  fromBlock: string | null;
  snapshotHash: string;
}

export interface QueuedExecution {
  taskId: string;
  executionId: string;
  /** ISO 8601. */
  createdAt: string;
  /** A debounced call folded into its key's queued run (the ids are that run's). */
  collapsed?: boolean;
}

const jobPayload = z.object({
  workflowId: z.string(),
  workspaceId: z.string(),
  deploymentVersion: z.number().int().nullable(),
  input: z.record(z.string(), z.unknown()),
  trigger: z.enum(TRIGGER_TYPES),
  triggerBlockId: z.string().optional(),
  files: z.array(z.unknown()).optional(),
  executionId: z.string(),
  requestId: z.string().optional(),
  /** W3C traceparent of the request's span. */
  traceparent: z.string().optional(),
  rerun: z.object({ of: z.string(), fromBlock: z.string().nullable(), snapshotHash: z.string() }).optional(),
  flow: z
    .object({
      workflowId: z.string(),
      flowKey: z.string(),
      limit: z.number().int(),
      mode: z.enum(['queue', 'reject', 'cancel-running', 'skip']),
      maxWaitMs: z.number(),
      reason: z.enum(['concurrency', 'singleton']),
      waits: z.boolean(),
    })
    .optional(),
  priority: z.number().int().optional(),
  throttle: z.object({ workflowId: z.string(), throttleKey: z.string(), limit: z.number().int(), periodMs: z.number().int() }).optional(),
  /** Set once the throttle held the run back (the log's reason). */
  throttled: z.boolean().optional(),
  /** A debounced run: it waited for its burst to end (the log's reason). */
  debounced: z.boolean().optional(),
});
type ExecutionJobPayload = z.infer<typeof jobPayload>;

/** What the job keeps as its result and the status endpoint shows. */
interface ExecutionJobResult {
  executionId: string;
  success: boolean;
  /** Stopped by a cancel request (or a stopping worker): the task reports `cancelled`. */
  cancelled?: boolean;
  /** Paused for an approval: the job is done, the run goes on when resumed (the status reads its log then). */
  paused?: boolean;
  output: unknown;
  error?: string;
  duration: number | null;
  startTime: string | null;
  endTime: string | null;
}

/**
 * Cancels a queued job before any worker took it: the job ends `cancelled` and its run is logged as cancelled without
 * running a step. False when no such queued job exists (taken meanwhile, finished, or never queued).
 */
export async function cancelQueuedExecution(
  app: AppContext,
  request: { executionId: string; mayReach: (workspaceId: string) => Promise<boolean> },
): Promise<boolean> {
  const [job] = await app.db
    .select({ id: jobs.id, payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.kind, EXECUTION_JOB), eq(jobs.status, 'queued'), sql`${jobs.payload} ->> 'executionId' = ${request.executionId}`))
    .limit(1);
  const parsed = job ? jobPayload.safeParse(job.payload) : undefined;
  if (!job || !parsed?.success || !(await request.mayReach(parsed.data.workspaceId))) return false;
  const payload = parsed.data;
  const result: ExecutionJobResult = {
    executionId: payload.executionId,
    success: false,
    cancelled: true,
    output: {},
    error: CANCELLED_MESSAGE,
    duration: 0,
    startTime: null,
    endTime: null,
  };
  const [taken] = await app.db
    .update(jobs)
    .set({ status: 'failed', result, lastError: CANCELLED_MESSAGE, completedAt: new Date() })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  if (!taken) return false;
  // Logged like every accepted run, with its webhooks: a run stopped before it started (the engine runs no step).
  const queued = await queuedTarget(app, payload);
  if (queued) {
    const cancelled = new AbortController();
    cancelled.abort();
    await runExecution(app, { ...queuedRun(payload, queued.target), rerun: queued.rerun, signal: cancelled.signal });
  }
  return true;
}

export async function enqueueAsyncExecution(app: AppContext, request: AsyncExecutionRequest): Promise<QueuedExecution> {
  const job = asyncExecutionJob(request);
  if (request.debounce) {
    const burst = await enqueueDebounced(app.db, job, request.debounce);
    if (burst.collapsed) app.metrics.flowDebounced(request.workflowId);
    return { taskId: burst.taskId, executionId: burst.executionId, createdAt: burst.createdAt.toISOString(), collapsed: burst.collapsed };
  }
  await enqueueJob(app.db, job);
  return { taskId: job.id, executionId: request.executionId, createdAt: job.createdAt.toISOString() };
}

/** The job an async execution is, for a caller that queues it in a transaction of its own (a bulk re-run). */
export function asyncExecutionJob(request: AsyncExecutionRequest): JobSpec & { id: string; createdAt: Date } {
  const createdAt = new Date();
  const { origin, debounce, notBefore, ...fields } = request;
  const payload: ExecutionJobPayload = {
    ...fields,
    ...(debounce ? { debounced: true } : {}),
    ...(origin?.requestId ? { requestId: origin.requestId } : {}),
    ...(origin?.trace ? { traceparent: formatTraceparent(origin.trace) } : {}),
  };
  return {
    id: newId('job'),
    kind: EXECUTION_JOB,
    payload,
    runAt: notBefore && notBefore > createdAt ? notBefore : createdAt,
    createdAt,
    tenant: request.workspaceId,
    ...(request.priority !== undefined ? { priority: request.priority } : {}),
    ...(request.flow ? { flow: { key: request.flow.flowKey, limit: request.flow.limit } } : {}),
  };
}

/**
 * What a job runs: the deployment version it names, or for a re-run the state that ran in the original (or the active
 * deployment's, by hash) with the replay built from the original's trace. undefined when that is gone.
 */
async function queuedTarget(
  app: AppContext,
  payload: ExecutionJobPayload,
): Promise<{ target: RunTarget; rerun?: RunExecutionInput['rerun']; lost?: AppError } | undefined> {
  if (!payload.rerun) {
    if (payload.deploymentVersion === null) return undefined;
    const target = await loadDeploymentVersion(app, payload.workflowId, payload.deploymentVersion);
    return target && { target };
  }
  const original = await loadOriginalRun(app.db, app.files.storage, payload.rerun.of, app.logger);
  if (!original) return undefined;
  // A deployment version is read as any queued run reads it; a manual run's draft only exists as its snapshot.
  let target: RunTarget | undefined;
  if (payload.deploymentVersion !== null) {
    target = await loadDeploymentVersion(app, payload.workflowId, payload.deploymentVersion);
  } else {
    const hash = payload.rerun.snapshotHash;
    const [snapshot] = await app.db.select({ state: stateSnapshots.state }).from(stateSnapshots).where(eq(stateSnapshots.hash, hash));
    target = snapshot && {
      workflow: { id: payload.workflowId, workspaceId: payload.workspaceId },
      state: snapshot.state,
      stateHash: hash,
      deploymentVersion: null,
      owner: await workspaceOwner(app.db, payload.workspaceId),
    };
  }
  if (!target) return undefined;
  // Checked again (prepareRerun did when it was queued): a value may have gone from file storage since.
  if (payload.rerun.fromBlock !== null && original.valuesLost.length > 0) {
    return { target, lost: valuesLostError(original, 're-run from a block', 're-run it whole') };
  }
  return {
    target,
    rerun: rerunOf(original, target.state, payload.rerun.fromBlock),
  };
}

/** The run a job stands for: what was fixed when it was queued, run from the deployment version it names. */
function queuedRun(payload: ExecutionJobPayload, target: RunTarget): RunExecutionInput {
  return {
    ...target,
    trigger: payload.trigger,
    triggerBlockId: payload.triggerBlockId,
    input: payload.input,
    executionId: payload.executionId,
    files: payload.files,
    origin: { requestId: payload.requestId, trace: parseTraceparent(payload.traceparent) },
  };
}

/**
 * `storage`: where the log's final output is when it was too large for the row (offloaded-values.ts); `logger` hears
 * of one missing or damaged there.
 */
async function resultFromRow(storage: FileStorage, row: LogRow, logger: Logger): Promise<ExecutionJobResult> {
  return {
    executionId: row.executionId,
    success: row.status === 'success',
    ...(row.status === 'cancelled' ? { cancelled: true } : {}),
    ...(PAUSED_STATUSES.includes(row.status) ? { paused: true } : {}),
    output: (await restoreFinalOutput(storage, row, logger)) ?? {},
    ...(row.error ? { error: row.error } : {}),
    duration: row.totalDurationMs,
    startTime: row.startedAt.toISOString(),
    endTime: row.endedAt?.toISOString() ?? null,
  };
}

/** The run's row while it waits for an approval or is about to go on after one. */
const PAUSED_STATUSES = ['paused', 'resuming'];

function finished(result: ExecutionJobResult): JobResult {
  return result.success || result.paused
    ? { outcome: { type: 'complete', result } }
    : { outcome: { type: 'fail', error: result.error ?? 'The workflow failed', result } };
}

async function runExecutionJob(app: AppContext, job: ClaimedJob, context: JobRunContext): Promise<JobResult> {
  const parsed = jobPayload.safeParse(job.payload);
  if (!parsed.success) return { outcome: { type: 'fail', error: 'Malformed job payload' } };
  const payload = parsed.data;

  if (job.attempts > 1 && (await settleEarlierAttempt(app, payload.executionId)) === 'finished') {
    // Its run started before (and was closed as interrupted if its worker died mid-run): report it, never run it twice.
    const [row] = await app.db.select(logRowColumns).from(executions).where(isExecution(payload.executionId)).limit(1);
    if (row) return finished(await resultFromRow(app.files.storage, row, app.logger));
  }

  const queued = await queuedTarget(app, payload);
  if (!queued) {
    return { outcome: { type: 'fail', error: 'The workflow or its deployment was deleted before the run started' } };
  }
  if (queued.lost) return { outcome: { type: 'fail', error: queued.lost.message } };

  // Under flow control the run starts only with a slot of its key. The claim passes over a full key, but another
  // process may have taken the last slot meanwhile: then the job goes back in its place until a slot frees.
  const flow = payload.flow;
  if (flow && !(await takeSlot(app.db, flow, payload.executionId))) return { outcome: { type: 'release', keepPlace: true } };
  // Then a start of its throttle (flow-throttle.ts), counted only for a run that can start now: without one, the slot
  // goes back and the job is due again when the key's next start frees.
  let throttleStart: Date | undefined;
  if (payload.throttle) {
    const start = await takeStart(app.db, payload.throttle, payload.executionId);
    if (!start.taken) {
      if (flow) await freeSlotQuietly(app, payload.executionId);
      if (!payload.throttled) app.metrics.flowWaited(payload.workflowId, 'throttle');
      return { outcome: { type: 'release', runAt: start.freeAt, payloadPatch: { throttled: true } } };
    }
    throttleStart = new Date(start.at);
  }
  const queuedMs = job.createdAt ? Math.max(0, context.clock.now() - job.createdAt.getTime()) : 0;
  if (flow?.waits) app.metrics.flowWaited(flow.workflowId, flow.reason);
  // One reason on the log: the one that held it back longest by design (a burst's wait, then the throttle's).
  const reason = payload.debounced ? 'debounce' : payload.throttled ? 'throttle' : flow?.waits ? flow.reason : undefined;
  let outcome: ExecutionOutcome | undefined;
  try {
    outcome = await runExecution(app, {
      ...queuedRun(payload, queued.target),
      rerun: queued.rerun,
      signal: context.signal,
      // Nobody waits on the answer: the workflow's own time limit, and its long waits park the run (pause.ts).
      timeoutMs: runTimeLimitMs(queued.target.state.flowControl, app.config.executionTimeoutMs, false),
      canPark: true,
      markBeforeStart: true,
      ...(throttleStart ? { startedAt: throttleStart } : {}),
      flowWait: { queuedMs, ...(reason ? { reason } : {}) },
      ...(flow ? { holdsFlowSlot: true } : {}),
    });
  } finally {
    // Freed with the log; a run whose log could not be stored frees it here.
    if (flow && !loggedWithSlot(outcome)) await freeSlotQuietly(app, payload.executionId);
  }
  const { result } = outcome;
  return finished({
    executionId: outcome.executionId,
    success: result.success,
    ...(result.stopReason === 'cancelled' ? { cancelled: true } : {}),
    ...(result.stopReason === 'paused' ? { paused: true } : {}),
    output: result.output,
    ...(result.error ? { error: result.error } : {}),
    duration: Math.round(result.durationMs),
    startTime: result.startedAt,
    endTime: result.endedAt,
  });
}

export function createExecutionJobHandler(app: AppContext): JobHandler {
  return {
    run: (job, context) => runExecutionJob(app, job, context),
    // Runs can be long; half the worker's slots stay free for deliveries.
    concurrency: Math.max(1, Math.ceil(app.config.worker.concurrency / 2)),
    keepFinished: true,
    maxClaims: 3,
    // One workspace's burst of async calls must not hold back everyone else's (docs/guarantees.md 4).
    fairBetweenTenants: true,
  };
}

export type AsyncJobStatus = 'queued' | 'processing' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface JobStatusView {
  success: true;
  taskId: string;
  status: AsyncJobStatus;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  output?: unknown;
  error?: string;
  metadata: {
    workflowId: string;
    executionId: string;
    duration?: number;
    startTime?: string;
    endTime?: string;
  };
}

const STATUS: Record<string, AsyncJobStatus> = {
  queued: 'queued',
  running: 'processing',
  completed: 'completed',
  failed: 'failed',
};

/** `GET /api/jobs/{taskId}` (docs/api.md 4.6). Another workspace's task is indistinguishable from none. */
export async function getJobStatus(app: AppContext, principal: Principal, taskId: string): Promise<JobStatusView> {
  const { db } = app;
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, taskId), eq(jobs.kind, EXECUTION_JOB)))
    .limit(1);
  const payload = row ? jobPayload.safeParse(row.payload) : undefined;
  if (!row || !payload?.success || !(await canAccessWorkspace(db, principal, payload.data.workspaceId))) {
    throw notFound('Task');
  }
  let result = row.result as ExecutionJobResult | null;
  let resumed = false;
  if (result?.paused) {
    // The job ended when its run paused; what became of the run since is on its log.
    const [execution] = await db.select(logRowColumns).from(executions).where(isExecution(result.executionId)).limit(1);
    if (execution) result = await resultFromRow(app.files.storage, execution, app.logger);
    if (execution?.status === 'running') resumed = true;
  }
  const status: AsyncJobStatus = resumed
    ? 'processing'
    : result?.paused
      ? 'paused'
      : result?.cancelled
        ? 'cancelled'
        : row.status === 'completed' && result && !result.success
          ? 'failed'
          : (STATUS[row.status] ?? 'queued');
  const view: JobStatusView = {
    success: true,
    taskId: row.id,
    status,
    createdAt: row.createdAt.toISOString(),
    metadata: { workflowId: payload.data.workflowId, executionId: payload.data.executionId },
  };
  // A job handed back by a stopping worker is queued again; its earlier start is not news to the caller.
  if (status !== 'queued' && row.startedAt) view.startedAt = row.startedAt.toISOString();
  if (row.completedAt && (status === 'completed' || status === 'failed' || status === 'cancelled')) view.completedAt = row.completedAt.toISOString();
  if (result) {
    view.output = result.output;
    if (result.duration !== null) view.metadata.duration = result.duration;
    if (result.startTime) view.metadata.startTime = result.startTime;
    if (result.endTime) view.metadata.endTime = result.endTime;
  }
  if (status === 'failed' || status === 'cancelled') view.error = result?.error ?? row.lastError ?? 'The run failed';
  return view;
}
