// The test event (docs/guarantees.md 3.6): sent through the same delivery path and signing as real events.
import { newExecutionId, newId } from '../../ids.js';
import type { AppContext } from '../app-context.js';
import { limitsObject, workspaceOwner } from '../limits.js';
import { createDeliveries } from './create-deliveries.js';
import { toDeliveryView, type DeliveryView } from './delivery-history.js';
import { completionPayload, needsOwnerLimits, type CompletedExecution, type OwnerLimits } from './payload.js';
import type { SubscriptionRow } from './subscriptions.js';

/**
 * A `workflow.execution.completed` event for an execution that did not happen, so a receiver can be checked end
 * to end. Its ids are fresh (they resolve to nothing in the logs API) and the delivery has no executionId, which
 * is also how the worker knows to mark it with `Service-test: true`.
 */
export async function sendTestEvent(app: AppContext, subscription: SubscriptionRow): Promise<DeliveryView> {
  const now = new Date();
  const execution: CompletedExecution = {
    logId: newId('log'),
    workflowId: subscription.workflowId,
    executionId: newExecutionId(),
    status: 'success',
    level: 'info',
    trigger: 'manual',
    deploymentVersion: null,
    blockErrorCount: 0,
    startedAt: now.toISOString(),
    endedAt: now.toISOString(),
    totalDurationMs: 0,
    cost: { total: 0, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} },
    files: null,
    finalOutput: { message: 'Test event from Sluice: your endpoint received it.' },
    traceSpans: [],
  };
  let owner: OwnerLimits | undefined;
  if (needsOwnerLimits(subscription)) {
    owner = await limitsObject(app.db, app.config, await workspaceOwner(app.db, subscription.workspaceId));
  }
  const eventId = newId('evt');
  const body = JSON.stringify(completionPayload({ eventId, timestamp: now.getTime(), execution, include: subscription, owner }));
  const [created] = await app.db.transaction((tx) =>
    createDeliveries(
      tx,
      [{ eventId, subscriptionId: subscription.id, workflowId: subscription.workflowId, executionId: null, body }],
      { manual: true },
    ),
  );
  return toDeliveryView(created, body);
}
