// Async mode of the execute endpoint (SPEC §4, `X-Execution-Mode: async`): the run is a durable job (kind
// `execution.run`) that a worker picks up, so it survives a restart; `GET /api/jobs/{taskId}` reports on it.
// "Runs once": the execution id is fixed at enqueue time, and a job claimed again (its worker died) first looks for
// that execution and never starts the workflow a second time.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { deployments, executions, jobs, workflows } from '../db/schema.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { ClaimedJob, JobHandler, JobResult, JobRunContext } from '../jobs/types.js';
import { TRIGGER_TYPES, type TriggerType, type WorkflowState } from '../workflow/index.js';
import { canAccessWorkspace } from './access.js';
import type { Principal } from './api-keys.js';
import type { AppContext } from './app-context.js';
import { runExecution } from './executions.js';
import { INTERRUPTED_MESSAGE, settleEarlierAttempt } from './triggers/interrupted-run.js';

export const EXECUTION_JOB = 'execution.run';

export interface AsyncExecutionRequest {
  workflowId: string;
  workspaceId: string;
  deploymentVersion: number;
  input: Record<string, unknown>;
  trigger: TriggerType;
  /** UserFile objects already stored for this run, recorded on its log. */
  files?: unknown[];
}

export interface QueuedExecution {
  taskId: string;
  executionId: string;
  /** ISO 8601. */
  createdAt: string;
}

const jobPayload = z.object({
  workflowId: z.string(),
  workspaceId: z.string(),
  deploymentVersion: z.number().int(),
  input: z.record(z.string(), z.unknown()),
  trigger: z.enum(TRIGGER_TYPES),
  files: z.array(z.unknown()).optional(),
  executionId: z.string(),
});
type ExecutionJobPayload = z.infer<typeof jobPayload>;

/** What the job keeps as its result and the status endpoint shows. */
interface ExecutionJobResult {
  executionId: string;
  success: boolean;
  output: unknown;
  error?: string;
  duration: number | null;
  startTime: string | null;
  endTime: string | null;
}

export async function enqueueAsyncExecution(app: AppContext, request: AsyncExecutionRequest): Promise<QueuedExecution> {
  const taskId = newId('job');
  const executionId = newId('exec');
  const createdAt = new Date();
  const payload: ExecutionJobPayload = { ...request, executionId };
  await enqueueJob(app.db, { id: taskId, kind: EXECUTION_JOB, payload, runAt: createdAt, createdAt });
  return { taskId, executionId, createdAt: createdAt.toISOString() };
}

function resultFromRow(row: typeof executions.$inferSelect): ExecutionJobResult {
  return {
    executionId: row.executionId,
    success: row.status === 'success',
    output: row.finalOutput ?? {},
    ...(row.error ? { error: row.error } : {}),
    duration: row.totalDurationMs,
    startTime: row.startedAt.toISOString(),
    endTime: row.endedAt?.toISOString() ?? null,
  };
}

function finished(result: ExecutionJobResult): JobResult {
  return result.success
    ? { outcome: { type: 'complete', result } }
    : { outcome: { type: 'fail', error: result.error ?? 'The workflow failed', result } };
}

async function runExecutionJob(app: AppContext, job: ClaimedJob, context: JobRunContext): Promise<JobResult> {
  const parsed = jobPayload.safeParse(job.payload);
  if (!parsed.success) return { outcome: { type: 'fail', error: 'Malformed job payload' } };
  const payload = parsed.data;

  if (job.attempts > 1) {
    const [existing] = await app.db.select().from(executions).where(eq(executions.executionId, payload.executionId)).limit(1);
    if (existing && existing.status !== 'running') return finished(resultFromRow(existing));
    if (existing) {
      // Its worker died mid-run: close the log as an error (with its webhooks) rather than run the workflow twice.
      // Safe to repeat: should this worker die too, the next claim finds the log closed and reports it.
      const endedAt = new Date(context.clock.now());
      await settleEarlierAttempt(app, payload.executionId, endedAt);
      const error = INTERRUPTED_MESSAGE;
      return { outcome: { type: 'fail', error, result: { ...resultFromRow(existing), success: false, error, endTime: endedAt.toISOString() } } };
    }
  }

  const [workflow] = await app.db.select().from(workflows).where(eq(workflows.id, payload.workflowId)).limit(1);
  const [deployment] = workflow
    ? await app.db
        .select()
        .from(deployments)
        .where(and(eq(deployments.workflowId, workflow.id), eq(deployments.version, payload.deploymentVersion)))
        .limit(1)
    : [];
  if (!workflow || !deployment) {
    return { outcome: { type: 'fail', error: 'The workflow or its deployment was deleted before the run started' } };
  }

  const outcome = await runExecution(app, {
    workflow: { id: workflow.id, workspaceId: workflow.workspaceId },
    state: deployment.state as WorkflowState,
    deploymentVersion: deployment.version,
    trigger: payload.trigger,
    input: payload.input,
    executionId: payload.executionId,
    signal: context.signal,
    timeoutMs: app.config.executionTimeoutMs,
    files: payload.files,
  });
  const { result } = outcome;
  return finished({
    executionId: outcome.executionId,
    success: result.success,
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
  };
}

export type AsyncJobStatus = 'queued' | 'processing' | 'completed' | 'failed';

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

/** SPEC §4 `GET /api/jobs/{taskId}`. Another workspace's task is indistinguishable from none. */
export async function getJobStatus(db: Db, principal: Principal, taskId: string): Promise<JobStatusView> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, taskId), eq(jobs.kind, EXECUTION_JOB)))
    .limit(1);
  const payload = row ? jobPayload.safeParse(row.payload) : undefined;
  if (!row || !payload?.success || !(await canAccessWorkspace(db, principal, payload.data.workspaceId))) {
    throw notFound('Task');
  }
  const status = STATUS[row.status] ?? 'queued';
  const result = row.result as ExecutionJobResult | null;
  const view: JobStatusView = {
    success: true,
    taskId: row.id,
    status,
    createdAt: row.createdAt.toISOString(),
    metadata: { workflowId: payload.data.workflowId, executionId: payload.data.executionId },
  };
  // A job handed back by a stopping worker is queued again; its earlier start is not news to the caller.
  if (status !== 'queued' && row.startedAt) view.startedAt = row.startedAt.toISOString();
  if (row.completedAt && (status === 'completed' || status === 'failed')) view.completedAt = row.completedAt.toISOString();
  if (result) {
    view.output = result.output;
    if (result.duration !== null) view.metadata.duration = result.duration;
    if (result.startTime) view.metadata.startTime = result.startTime;
    if (result.endTime) view.metadata.endTime = result.endTime;
  }
  if (status === 'failed') view.error = result?.error ?? row.lastError ?? 'The run failed';
  return view;
}
