// Runs that will never finish because whoever ran them is gone are closed as error logs — with their completion
// webhooks and their idempotency answers, like any finished execution — and never started again:
// - by the runner heartbeat, when the process running them stopped beating (runners.ts);
// - by a job claimed again after its worker died mid-run (async executions, schedule ticks).
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { executions, idempotencyKeys } from '../db/schema.js';
import { logRowColumns } from '../services/logs/columns.js';
import type { AppContext } from '../services/app-context.js';
import { enqueueCompletionDeliveries } from '../services/completion-webhooks/outbox.js';
import { isExecution } from '../db/execution-lookup.js';
import { EXECUTION_ID_HEADER } from './answers.js';

export const INTERRUPTED_BY_CRASH = 'Interrupted: the server running this execution stopped before it finished';
export const INTERRUPTED_MESSAGE =
  'The worker running this execution stopped before it finished; it was not started again, so none of its steps ran twice';

/** Closes the `running` executions `which` selects, in the caller's transaction; returns how many. */
export async function closeInterruptedRuns(tx: Db, app: AppContext, which: SQL, message: string): Promise<number> {
  const closed = await tx
    .update(executions)
    .set({
      status: 'error',
      level: 'error',
      endedAt: sql`now()`,
      totalDurationMs: sql`greatest(0, (extract(epoch from now() - ${executions.startedAt}) * 1000)::int)`,
      error: message,
      runnerId: null,
    })
    .where(and(sql`${executions.status} = 'running'`, which))
    .returning(logRowColumns);
  for (const row of closed) {
    await enqueueCompletionDeliveries(tx, app, row);
    await answerInterruptedIdempotencyKey(tx, row.executionId, message);
  }
  return closed.length;
}

/** A repeat of a call whose run was interrupted gets that failure, not a 409 until the key expires. */
async function answerInterruptedIdempotencyKey(tx: Db, executionId: string, message: string): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({
      status: 'done',
      responseStatus: 500,
      responseHeaders: { [EXECUTION_ID_HEADER]: executionId },
      responseBody: { success: false, executionId, error: message, code: 'EXECUTION_FAILED' },
    })
    .where(and(eq(idempotencyKeys.executionId, executionId), eq(idempotencyKeys.status, 'running')));
}

/**
 * For a job claimed again: 'absent' when its run never started (safe to start it now), else 'finished' — closing the
 * run first if its worker died mid-run. Safe to repeat.
 */
export async function settleEarlierAttempt(app: AppContext, executionId: string): Promise<'absent' | 'finished'> {
  const [row] = await app.db.select({ status: executions.status }).from(executions).where(isExecution(executionId)).limit(1);
  if (!row) return 'absent';
  if (row.status === 'running') {
    await app.db.transaction((tx) => closeInterruptedRuns(tx, app, isExecution(executionId), INTERRUPTED_MESSAGE));
  }
  return 'finished';
}
