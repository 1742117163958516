// Inbound webhook paths of active deployments (README "Other triggers"). A path belongs to one workflow at a time: the
// primary key of `webhook_trigger_paths` decides between concurrent deploys, and the loser's deploy fails with 409.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { webhookTriggerPaths } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { cached, topics } from '../services/cache/app-caches.js';
import { webhookTriggers } from './trigger-blocks.js';

/** Makes the workflow's registered paths exactly those of `state`. Run inside the deploy/activate transaction. */
export async function replaceWebhookPaths(tx: Db, workflowId: string, state: WorkflowState): Promise<void> {
  const wanted = webhookTriggers(state);
  await removeWebhookPaths(tx, workflowId);
  for (const { blockId, config } of wanted) {
    // DO NOTHING rather than a unique violation, which would abort the surrounding transaction on PostgreSQL.
    // Against a concurrent deploy of the same path it waits for that one to commit, then sees the conflict.
    const inserted = await tx
      .insert(webhookTriggerPaths)
      .values({ path: config.path, workflowId, blockId })
      .onConflictDoNothing()
      .returning({ path: webhookTriggerPaths.path });
    if (inserted.length === 0) {
      // The other workflow may sit in a workspace the caller cannot see, so it is not named.
      throw new AppError(
        'WEBHOOK_PATH_TAKEN',
        409,
        `The webhook path "${config.path}" is already used by another deployed workflow; choose another path and deploy again`,
        [{ path: `state.blocks.${blockId}.config.path`, message: 'already in use' }],
      );
    }
  }
}

export async function removeWebhookPaths(tx: Db, workflowId: string): Promise<void> {
  await tx.delete(webhookTriggerPaths).where(eq(webhookTriggerPaths.workflowId, workflowId));
}

/** The workflow and trigger block behind an inbound path; undefined when no active deployment holds it. */
export function findWebhookPath(app: AppContext, path: string): Promise<{ workflowId: string; blockId: string } | undefined> {
  return cached(app.caches, 'webhookPaths', path, async () => {
    const [row] = await app.db
      .select({ workflowId: webhookTriggerPaths.workflowId, blockId: webhookTriggerPaths.blockId })
      .from(webhookTriggerPaths)
      .where(eq(webhookTriggerPaths.path, path))
      .limit(1);
    return { value: row, topics: [topics.webhookPath(path)] };
  });
}
