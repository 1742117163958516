// Completion webhooks, outbox side: the deliveries an execution's completion causes, written in the same commit as
// its log (so a crash can never lose or invent one). Runs recorded by the run recorder take them from
// completionDeliveries (subscriptions come from the cache); the rarer transactional closes (interrupted runs) use
// enqueueCompletionDeliveries inside their own transaction.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookSubscriptions } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { AppContext } from '../app-context.js';
import { cached, topics } from '../cache/app-caches.js';
import { limitsObject, workspaceOwner } from '../limits.js';
import type { LogRow } from '../logs/columns.js';
import type { OutboxDelivery } from './constants.js';
import { createDeliveries } from './create-deliveries.js';
import { encodeEnvelope } from './delivery-body.js';
import { levelOf, needsOwnerLimits, type IncludeFlags, type OwnerLimits } from './payload.js';
import type { SubscriptionRow } from './subscriptions.js';

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

/**
 * One event per execution: every matching subscription gets the same event id and timestamp. A delivery stores only
 * what its subscription asked for (delivery-body.ts builds the body from the log when it is sent), so the run's
 * payload is stored once, in its log, however many subscriptions hear of it.
 */
async function buildDeliveries(
  db: Db,
  app: AppContext,
  execution: LogRow,
  subscriptions: SubscriptionRow[],
): Promise<OutboxDelivery[]> {
  const matching = subscriptions.filter(
    (s) => s.active && s.levelFilter.includes(levelOf(execution)) && s.triggerFilter.includes(execution.trigger),
  );
  if (matching.length === 0) return [];
  const eventId = newId('evt');
  const timestamp = Date.now();
  let owner: OwnerLimits | undefined;
  if (matching.some(needsOwnerLimits)) {
    owner = await limitsObject(db, app.config, await workspaceOwner(db, execution.workspaceId));
  }
  return matching.map((subscription) => {
    const include: IncludeFlags = {
      includeFinalOutput: subscription.includeFinalOutput,
      includeTraceSpans: subscription.includeTraceSpans,
      includeRateLimits: subscription.includeRateLimits,
      includeUsageData: subscription.includeUsageData,
    };
    return {
      id: newId('dlv'),
      eventId,
      subscriptionId: subscription.id,
      workflowId: execution.workflowId,
      executionId: execution.executionId,
      envelope: encodeEnvelope({ timestamp, include, ...(needsOwnerLimits(include) ? { owner } : {}) }),
    };
  });
}

/** Deliveries for a completed execution, for the run recorder to write with its log. */
export async function completionDeliveries(app: AppContext, execution: LogRow): Promise<OutboxDelivery[]> {
  return buildDeliveries(app.db, app, execution, await activeSubscriptions(app, execution.workflowId));
}

/** Writes the deliveries of an execution closed inside the caller's transaction `tx`. */
export async function enqueueCompletionDeliveries(tx: Db, app: AppContext, execution: LogRow): Promise<void> {
  const deliveries = await buildDeliveries(tx, app, execution, await loadActiveSubscriptions(tx, execution.workflowId));
  await createDeliveries(tx, deliveries);
}
