// What deploy, activate, undeploy and delete call, inside their own transactions, so a workflow's inbound paths
// and schedules always match its active deployment: both commit with the change of version, or neither does.
import type { Db } from '../db/client.js';
import type { WorkflowState } from '../workflow/index.js';
import { replaceSchedules, removeSchedules } from './deployment-schedules.js';
import { checkQueueTriggerFields } from './queue-trigger-fields.js';
import { queueTriggers } from './trigger-blocks.js';
import { removeWebhookPaths, replaceWebhookPaths } from './webhook-paths.js';

export async function registerTriggers(
  tx: Db,
  input: { workflowId: string; workspaceId: string; state: WorkflowState; deploymentVersion: number },
): Promise<void> {
  await replaceWebhookPaths(tx, input.workflowId, input.state);
  await replaceSchedules(tx, input);
  // Queue triggers need no registration (workers read the active deployments); a bad one is refused here.
  queueTriggers(input.state);
  await checkQueueTriggerFields(tx, input.workspaceId, input.state, { credentialRequired: true });
}

export async function unregisterTriggers(tx: Db, workflowId: string): Promise<void> {
  await removeWebhookPaths(tx, workflowId);
  await removeSchedules(tx, workflowId);
}
