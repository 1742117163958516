// POST /api/webhooks/trigger/{path} — inbound webhooks (SPEC §8). Runs the active deployment whose
// `webhook_trigger` owns the path, synchronously, logged with trigger `webhook`. No API key: the path is the
// address and, when the trigger has a secret, the HMAC signature (X-Sluice-Signature) is the authentication.
// Answers 200 {success, executionId}, or the response block's response when one ran.
import { Hono } from 'hono';
import { webhookTriggerConfigSchema } from '../../blocks/webhook-trigger.js';
import { AppError, notFound } from '../../errors.js';
import { runExecution } from '../../services/executions.js';
import { admitRun } from '../../services/admission.js';
import { loadDeployedWorkflow } from '../../services/triggers/deployed-workflow.js';
import { findWebhookPath } from '../../services/triggers/webhook-paths.js';
import { parseWebhookBody, webhookHeaders, webhookQuery } from '../../services/triggers/webhook-request.js';
import { webhookSecret } from '../../services/triggers/webhook-secret.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../../services/triggers/webhook-signature.js';
import { readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { responseFor, sendResponse } from '../execution-response.js';

// Unknown, undeployed and deleted paths look the same, so a caller learns nothing about workflows behind them.
const noSuchPath = (path: string) => notFound(`Webhook path "${path}"`);

export const webhookTriggerRoutes = new Hono<AppEnv>().post('/trigger/:path{.+}', async (c) => {
  const app = c.get('app');
  const path = c.req.param('path');
  // Only a path a trigger could have registered is looked up (a NUL byte, say, would not even reach the query).
  if (!webhookTriggerConfigSchema.shape.path.safeParse(path).success) throw noSuchPath(path);
  const target = await findWebhookPath(app.db, path);
  const deployed = target && (await loadDeployedWorkflow(app.db, target.workflowId));
  const block = deployed?.deployment?.state.blocks[target!.blockId];
  if (!target || !deployed?.deployment || !block) throw noSuchPath(path);
  const { workflow, deployment, owner } = deployed;

  const raw = await readBodyLimited(c, app.config.maxRequestBytes);
  const secret = await webhookSecret(app, workflow.workspaceId, block.config.secret);
  if (secret !== undefined) {
    const check = verifyWebhookSignature(secret, c.req.header(WEBHOOK_SIGNATURE_HEADER), raw);
    if (!check.ok) throw new AppError('UNAUTHORIZED', 401, check.reason);
  }
  // After the signature: forged calls must not use up the owner's rate limit.
  const { headers } = await admitRun(app, owner, { rateBucket: 'sync' });
  const input = {
    body: await parseWebhookBody(raw, c.req.header('content-type')),
    headers: webhookHeaders(c.req.raw.headers),
    query: webhookQuery(c.req.url),
  };

  const timeoutMs = app.config.executionTimeoutMs;
  const outcome = await runExecution(app, {
    workflow: { id: workflow.id, workspaceId: workflow.workspaceId },
    state: deployment.state,
    deploymentVersion: deployment.version,
    trigger: 'webhook',
    triggerBlockId: target.blockId,
    input,
    timeoutMs,
    owner,
    signal: c.req.raw.signal,
  });
  if (outcome.result.success && !outcome.result.response) {
    // A webhook sender only needs the acknowledgement; the output is in the log.
    return sendResponse(c, { status: 200, headers: {}, body: { success: true, executionId: outcome.executionId } }, headers);
  }
  return sendResponse(c, responseFor(outcome, timeoutMs), headers);
});
