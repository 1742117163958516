// A job that runs a workflow and is claimed again after its worker died mid-run must not run it a second time:
// the orphaned log is closed as an error (with its completion webhooks, like any finished execution) instead.
import { and, eq } from 'drizzle-orm';
import { executions } from '../../db/schema.js';
import type { AppContext } from '../app-context.js';
import { enqueueCompletionDeliveries } from '../webhooks/outbox.js';

export const INTERRUPTED_MESSAGE =
  'The worker running this execution stopped before it finished; it was not started again, so none of its steps ran twice';

/** 'absent' when the run never started (safe to start it now). Safe to repeat. */
export async function settleEarlierAttempt(app: AppContext, executionId: string, now: Date): Promise<'absent' | 'finished'> {
  const [row] = await app.db.select().from(executions).where(eq(executions.executionId, executionId)).limit(1);
  if (!row) return 'absent';
  if (row.status !== 'running') return 'finished';
  await app.db.transaction(async (tx) => {
    const [closed] = await tx
      .update(executions)
      .set({
        status: 'error',
        level: 'error',
        endedAt: now,
        totalDurationMs: Math.max(0, now.getTime() - row.startedAt.getTime()),
        error: INTERRUPTED_MESSAGE,
      })
      .where(and(eq(executions.id, row.id), eq(executions.status, 'running')))
      .returning();
    if (closed) await enqueueCompletionDeliveries(tx, app, closed);
  });
  return 'finished';
}
