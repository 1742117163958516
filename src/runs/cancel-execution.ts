// `POST /api/v1/executions/{executionId}/cancel` (README "Cancelling a run"): stops a queued or running execution,
// wherever it runs, or one paused for an approval. A finished one is 409; one the caller cannot reach, or that does not exist, is 404 (no hint).
import { eq, sql } from 'drizzle-orm';
import { executions } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import { canRunInWorkspace, requireRunRole } from '../services/access.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { CHANGES_CHANNEL } from '../db/change-feed.js';
import { isExecution } from '../db/execution-lookup.js';
import { cancelQueuedExecution } from './async-executions.js';
import { cancelPaused } from './approvals.js';

/** How long the request waits for the run to end after asking every process to stop it. */
const SETTLE_WAIT_MS = 5_000;
/** With no sign of the run anywhere (no marker, no log) after this long, nobody was running it. */
const UNKNOWN_AFTER_MS = 1_500;
const POLL_MS = 25;

export interface CancelAnswer {
  executionId: string;
  /** `cancelled` once its log says so; `cancelling` when the run has not finished stopping within the wait. */
  status: 'cancelled' | 'cancelling';
}

async function logStatus(app: AppContext, executionId: string) {
  const [row] = await app.db
    .select({ status: executions.status, workspaceId: executions.workspaceId })
    .from(executions)
    .where(isExecution(executionId))
    .limit(1);
  return row;
}

export async function cancelExecution(app: AppContext, principal: Principal, executionId: string): Promise<CancelAnswer> {
  // Out of reach reads as unknown (false → 404); in reach but a viewer is refused (403).
  const mayReach = async (workspaceId: string) => {
    if (!(await canRunInWorkspace(app, principal, workspaceId))) return false;
    await requireRunRole(app, principal, workspaceId, 'editor', 'cancel runs');
    return true;
  };
  const finished = () => new AppError('EXECUTION_NOT_RUNNING', 409, 'The execution has already finished; there is nothing to cancel');

  const before = await logStatus(app, executionId);
  if (before && !(await mayReach(before.workspaceId))) throw notFound('Execution');
  if (before && (before.status === 'paused' || before.status === 'resuming')) {
    if (await cancelPaused(app, executionId)) return { executionId, status: 'cancelled' };
  }
  if (before && before.status !== 'running' && before.status !== 'resuming') throw finished();
  if (!before && (await cancelQueuedExecution(app, { executionId, mayReach }))) return { executionId, status: 'cancelled' };

  // Running somewhere (or about to): every process hears the request; the one running it checks access and stops it.
  const topic = app.cancellations.topicFor({ executionId, userId: principal.userId, keyWorkspaceId: principal.keyWorkspaceId });
  await app.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${topic})`);
  const started = Date.now();
  let seen = Boolean(before);
  while (Date.now() - started < SETTLE_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const now = await logStatus(app, executionId);
    if (now && !(await mayReach(now.workspaceId))) throw notFound('Execution');
    if (now?.status === 'cancelled') return { executionId, status: 'cancelled' };
    if (now?.status === 'paused' && (await cancelPaused(app, executionId))) return { executionId, status: 'cancelled' };
    if (now && !['running', 'resuming', 'paused'].includes(now.status)) throw finished();
    seen ||= Boolean(now);
    if (!seen && Date.now() - started > UNKNOWN_AFTER_MS) throw notFound('Running execution');
  }
  return { executionId, status: 'cancelling' };
}
