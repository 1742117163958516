// Completion webhooks, outbox side: the deliveries an execution's completion causes, written in the same commit as
// its log (so a crash can never lose or invent one). Runs recorded by the run recorder take them from
// completionDeliveries (subscriptions come from the cache); the rarer transactional closes (interrupted runs) use
// enqueueCompletionDeliveries inside their own transaction.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookSubscriptions, type executions } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { AppContext } from '../app-context.js';
import { cached, topics } from '../cache/app-caches.js';
import { limitsObject, workspaceOwner } from '../limits.js';
import { restoreValues } from '../logs/offloaded-values.js';
import type { OutboxDelivery } from './constants.js';
import { createDeliveries } from './create-deliveries.js';
import { completedExecution, completionPayload, levelOf, needsOwnerLimits, type OwnerLimits } from './payload.js';
import type { SubscriptionRow } from './subscriptions.js';

type ExecutionRow = typeof executions.$inferSelect;

async function loadActiveSubscriptions(db: Db, workflowId: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.workflowId, workflowId), eq(webhookSubscriptions.active, true)));
}

/** The workflow's active subscriptions, from the cache. */
export function activeSubscriptions(app: AppContext, workflowId: string): Promise<SubscriptionRow[]> {
  return cached(app.caches, 'subscriptions', workflowId, async () => ({
    value: Object.freeze(await loadActiveSubscriptions(app.db, workflowId)) as SubscriptionRow[],
    topics: [topics.subscriptions(workflowId)],
  }));
}

/** One event per execution: every matching subscription gets the same event id and timestamp. */
async function buildDeliveries(
  db: Db,
  app: AppContext,
  execution: ExecutionRow,
  subscriptions: SubscriptionRow[],
): Promise<OutboxDelivery[]> {
  const matching = subscriptions.filter(
    (s) => s.active && s.levelFilter.includes(levelOf(execution)) && s.triggerFilter.includes(execution.trigger),
  );
  if (matching.length === 0) return [];
  // A row read back (a run closed by someone else) may keep large values in file storage: fetched for the body. A
  // run's own completion passes the log as the engine made it, with nothing to fetch.
  const completed = completedExecution(
    matching.some((s) => s.includeFinalOutput || s.includeTraceSpans) ? ({ ...execution, ...(await restoreValues(app.files.storage, execution, app.logger)) } as ExecutionRow) : execution,
  );
  const eventId = newId('evt');
  const timestamp = Date.now();
  let owner: OwnerLimits | undefined;
  if (matching.some(needsOwnerLimits)) {
    owner = await limitsObject(db, app.config, await workspaceOwner(db, execution.workspaceId));
  }
  return matching.map((subscription) => ({
    id: newId('dlv'),
    eventId,
    subscriptionId: subscription.id,
    workflowId: execution.workflowId,
    executionId: execution.executionId,
    body: JSON.stringify(completionPayload({ eventId, timestamp, execution: completed, include: subscription, owner })),
  }));
}

/** Deliveries for a completed execution, for the run recorder to write with its log. */
export async function completionDeliveries(app: AppContext, execution: ExecutionRow): Promise<OutboxDelivery[]> {
  return buildDeliveries(app.db, app, execution, await activeSubscriptions(app, execution.workflowId));
}

/** Writes the deliveries of an execution closed inside the caller's transaction `tx`. */
export async function enqueueCompletionDeliveries(tx: Db, app: AppContext, execution: ExecutionRow): Promise<void> {
  const deliveries = await buildDeliveries(tx, app, execution, await loadActiveSubscriptions(tx, execution.workflowId));
  await createDeliveries(tx, deliveries);
}
