// Bulk re-runs (docs/api.md "Bulk re-runs"): `POST /api/v1/executions/rerun` re-runs, asynchronously, the executions
// of a workspace that the logs API's filters select; `GET /api/v1/executions/rerun/{batchId}` follows them.
// - The filters are the logs list's own (services/logs/params.ts, filters.ts), so a filter selects here exactly what
//   it lists there. With `fromFailedBlock`, only failed runs are eligible and each is retried from its failed block.
// - Each matched execution is re-run at most once per batch: one query picks them, de-duplicated by execution id.
// - The batch row and every re-run's job commit in one transaction: a crash leaves the whole batch queued or none of
//   it, and a repeat with the same Idempotency-Key answers that batch instead of queuing another.
// - The request is admitted once (rate limit of async runs, usage limit), as one execute call would be; each re-run
//   is then an ordinary async execution job, so the queue's per-workspace turns apply to them as to any other.
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { executions, logExecutionId, jobs, rerunBatches } from '../db/schema.js';
import { AppError, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJobs, type JobSpec } from '../jobs/enqueue.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import { canAccessWorkspace, canRunInWorkspace, requireRunRole } from '../services/access.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { workspaceOwner } from '../services/limits.js';
import { logFilters } from '../services/logs/filters.js';
import { logsQuerySchema } from '../services/logs/params.js';
import { admitRun, checkIdempotencyKey, EXECUTION_JOB, preparedJob, type RunOrigin } from '../runs/index.js';
import { isAnyExecution } from '../db/execution-lookup.js';
import { prepareRerun } from './rerun.js';

export const MAX_BATCH_SIZE = 1000;
export const DEFAULT_BATCH_SIZE = 100;

/** The logs list's parameters that page or shape a list rather than select runs: not filters. */
const NOT_FILTERS = ['workspaceId', 'limit', 'cursor', 'order', 'details', 'includeTraceSpans', 'includeFinalOutput'];
export const BATCH_FILTERS = Object.keys(logsQuerySchema.shape).filter((name) => !NOT_FILTERS.includes(name));

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

export const rerunBatchBody = z.strictObject({
  workspaceId: z.string().min(1).max(64),
  filter: z
    .record(z.string(), filterValue)
    .optional()
    .describe(
      `The logs API's filters (GET /api/v1/logs), as its query parameters: ${BATCH_FILTERS.join(', ')}. ` +
        'Lists may be arrays or comma-separated text',
    ),
  fromFailedBlock: z
    .boolean()
    .optional()
    .describe('true: only failed runs are eligible, each retried from the block that failed; false (default): each runs again whole'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_BATCH_SIZE)
    .optional()
    .describe(`At most this many executions, newest first (1–${MAX_BATCH_SIZE}, default ${DEFAULT_BATCH_SIZE})`),
});
export type RerunBatchBody = z.infer<typeof rerunBatchBody>;

interface BatchItem {
  originalExecutionId: string;
  /** null when the execution could not be re-run (reason says why). */
  executionId: string | null;
  reason?: string;
}

export interface RerunBatchAccepted {
  batchId: string;
  total: number;
  queued: number;
}

export type BatchItemStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';

export interface RerunBatchProgress extends RerunBatchAccepted {
  running: number;
  succeeded: number;
  failed: number;
  skipped: number;
  /** Every re-run of the batch has finished (or was skipped). */
  done: boolean;
  executions: Array<{ originalExecutionId: string; executionId: string | null; status: BatchItemStatus; reason?: string }>;
}

export interface StartedBatch {
  answer: RerunBatchAccepted;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  headers: Record<string, string>;
}

/** Selects, admits and queues the re-runs of one bulk request. */
export async function startRerunBatch(
  app: AppContext,
  request: { principal: Principal; body: RerunBatchBody; bodyBytes: Uint8Array; idempotencyKey?: string; origin?: RunOrigin },
): Promise<StartedBatch> {
  const { body } = request;
  if (!(await canRunInWorkspace(app, request.principal, body.workspaceId))) throw forbidden();
  await requireRunRole(app, request.principal, body.workspaceId, 'editor', 're-run executions');
  const query = parseFilter(body.workspaceId, body.filter ?? {});
  const hash = createHash('sha256').update(request.bodyBytes).digest('hex');
  const key = request.idempotencyKey;
  if (key !== undefined) {
    checkIdempotencyKey(key);
    const earlier = await batchByKey(app, body.workspaceId, key, hash);
    if (earlier) return { answer: earlier, replayed: true, headers: {} };
  }

  const { headers } = await admitRun(app, await workspaceOwner(app.db, body.workspaceId), { rateBucket: 'async' });
  const where = logFilters(query);
  if (body.fromFailedBlock) where.push(eq(executions.status, 'error'));
  const matched = await app.db
    .select({ executionId: logExecutionId })
    .from(executions)
    .where(and(...where))
    .orderBy(desc(executions.startedAt), desc(executions.id))
    .limit(body.limit ?? DEFAULT_BATCH_SIZE);

  const items: BatchItem[] = [];
  const jobs: JobSpec[] = [];
  for (const originalExecutionId of new Set(matched.map((row) => row.executionId))) {
    try {
      const call = await prepareRerun(app, {
        principal: request.principal,
        executionId: originalExecutionId,
        body: { mode: 'async' },
        retry: body.fromFailedBlock === true,
        origin: request.origin,
        admitted: true,
      });
      if (call.mode !== 'async') continue;
      jobs.push(preparedJob(call.run));
      items.push({ originalExecutionId, executionId: call.run.executionId });
    } catch (err) {
      // One run that cannot be re-run (its workflow deleted, its version gone) does not hold back the others.
      if (!(err instanceof AppError) || err.httpStatus >= 500) throw err;
      items.push({ originalExecutionId, executionId: null, reason: err.message });
    }
  }

  const batchId = newId('rrb');
  try {
    await app.db.transaction(async (tx) => {
      await tx.insert(rerunBatches).values({ id: batchId, workspaceId: body.workspaceId, idempotencyKey: key ?? null, requestHash: hash, items });
      await enqueueJobs(tx, jobs);
    });
  } catch (err) {
    // Another request with the same key committed first: its batch is the answer, ours was never queued.
    const earlier = key !== undefined ? await batchByKey(app, body.workspaceId, key, hash) : undefined;
    if (earlier) return { answer: earlier, replayed: true, headers };
    throw err;
  }
  nudgeLocalWorkers();
  return { answer: { batchId, total: items.length, queued: jobs.length }, replayed: false, headers };
}

/** The filters, read exactly as GET /api/v1/logs reads its query string; problems are named `filter.<name>`. */
function parseFilter(workspaceId: string, filter: Record<string, z.infer<typeof filterValue>>) {
  const unknown = Object.keys(filter).filter((name) => !BATCH_FILTERS.includes(name));
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      400,
      `Unknown filter ${unknown.map((name) => `"${name}"`).join(', ')}; the filters are those of GET /api/v1/logs: ${BATCH_FILTERS.join(', ')}`,
      unknown.map((name) => ({ path: `filter.${name}`, message: 'is not a logs filter' })),
    );
  }
  const asText = Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  );
  const parsed = logsQuerySchema.safeParse({ ...asText, workspaceId });
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: ['filter', ...issue.path].join('.'), message: issue.message }));
    throw new AppError('VALIDATION_ERROR', 400, `Invalid filter: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  }
  return parsed.data;
}

async function batchByKey(app: AppContext, workspaceId: string, key: string, hash: string): Promise<RerunBatchAccepted | undefined> {
  const [row] = await app.db
    .select()
    .from(rerunBatches)
    .where(and(eq(rerunBatches.workspaceId, workspaceId), eq(rerunBatches.idempotencyKey, key)))
    .limit(1);
  if (!row) return undefined;
  if (row.requestHash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      422,
      'This Idempotency-Key was already used with a different request body; use a new key for a new request',
    );
  }
  return { batchId: row.id, total: row.items.length, queued: row.items.filter((item) => item.executionId !== null).length };
}

/** Where each re-run of a batch stands, read from the re-runs' logs (no log yet: still queued). */
export async function rerunBatchProgress(app: AppContext, principal: Principal, batchId: string): Promise<RerunBatchProgress> {
  const [row] = await app.db.select().from(rerunBatches).where(eq(rerunBatches.id, batchId)).limit(1);
  if (!row || !(await canAccessWorkspace(app.db, principal, row.workspaceId))) throw notFound('Re-run batch');
  const ids = row.items.flatMap((item) => (item.executionId ? [item.executionId] : []));
  const statuses = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await app.db
      .select({ executionId: logExecutionId, status: executions.status })
      .from(executions)
      .where(isAnyExecution(ids.slice(i, i + 500)));
    for (const r of rows) statuses.set(r.executionId, r.status);
  }
  const unlogged = await unloggedOutcomes(app, ids.filter((executionId) => !statuses.has(executionId)));
  const list = row.items.map((item) => {
    const ended = item.executionId === null ? undefined : unlogged.get(item.executionId);
    const status: BatchItemStatus =
      item.executionId === null ? 'skipped' : ended ? 'failed' : statusOf(statuses.get(item.executionId));
    const reason = item.reason ?? ended;
    return { originalExecutionId: item.originalExecutionId, executionId: item.executionId, status, ...(reason ? { reason } : {}) };
  });
  const count = (status: BatchItemStatus) => list.filter((item) => item.status === status).length;
  return {
    batchId: row.id,
    total: list.length,
    queued: count('queued'),
    running: count('running'),
    succeeded: count('succeeded'),
    failed: count('failed'),
    skipped: count('skipped'),
    done: count('queued') + count('running') === 0,
    executions: list,
  };
}

/**
 * Why re-runs without a log will never get one: their job ended without starting the run (the workflow or its
 * deployment was deleted meanwhile) or is gone. Without this, such an item would count as queued forever.
 */
async function unloggedOutcomes(app: AppContext, executionIds: string[]): Promise<Map<string, string>> {
  const ended = new Map<string, string>();
  for (let i = 0; i < executionIds.length; i += 500) {
    const chunk = executionIds.slice(i, i + 500);
    const rows = await app.db
      .select({ executionId: sql<string>`${jobs.payload} ->> 'executionId'`, status: jobs.status, lastError: jobs.lastError })
      .from(jobs)
      .where(and(eq(jobs.kind, EXECUTION_JOB), inArray(sql`${jobs.payload} ->> 'executionId'`, chunk)));
    const byExecution = new Map(rows.map((r) => [r.executionId, r]));
    for (const executionId of chunk) {
      const job = byExecution.get(executionId);
      if (!job) ended.set(executionId, 'The re-run never started and its job is gone');
      else if (job.status === 'failed') ended.set(executionId, job.lastError ?? 'The re-run could not start');
      else if (job.status === 'completed') ended.set(executionId, "The re-run's log no longer exists (its workflow was deleted)");
    }
  }
  return ended;
}

/** A paused re-run waits for a person, not for the queue: it counts as running until decided. */
function statusOf(logged: string | undefined): BatchItemStatus {
  if (logged === undefined) return 'queued';
  if (logged === 'success') return 'succeeded';
  if (logged === 'error' || logged === 'cancelled') return 'failed';
  return 'running';
}

