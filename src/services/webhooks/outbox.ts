// Completion webhooks, outbox side: called inside the transaction that completes an execution, so the
// delivery rows commit (or not) together with the log, and a crash can never lose or invent one.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookSubscriptions, type executions } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { AppContext } from '../app-context.js';
import { limitsObject, workspaceOwner } from '../limits.js';
import { createDeliveries } from './create-deliveries.js';
import { completedExecution, completionPayload, needsOwnerLimits, type OwnerLimits } from './payload.js';

export async function enqueueCompletionDeliveries(
  tx: Db,
  app: AppContext,
  execution: typeof executions.$inferSelect,
): Promise<void> {
  const subscriptions = await tx
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.workflowId, execution.workflowId), eq(webhookSubscriptions.active, true)));
  const completed = completedExecution(execution);
  const matching = subscriptions.filter(
    (s) => s.levelFilter.includes(completed.level) && s.triggerFilter.includes(completed.trigger),
  );
  if (matching.length === 0) return;

  // One event per execution: every subscription gets the same id and timestamp.
  const eventId = newId('evt');
  const timestamp = Date.now();
  let owner: OwnerLimits | undefined;
  if (matching.some(needsOwnerLimits)) {
    owner = await limitsObject(tx, app.config, await workspaceOwner(tx, execution.workspaceId));
  }
  await createDeliveries(
    tx,
    matching.map((subscription) => ({
      eventId,
      subscriptionId: subscription.id,
      workflowId: execution.workflowId,
      executionId: execution.executionId,
      body: JSON.stringify(completionPayload({ eventId, timestamp, execution: completed, include: subscription, owner })),
    })),
  );
}
