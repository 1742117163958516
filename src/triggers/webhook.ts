// The webhook trigger (README "Other triggers"): `POST /api/webhooks/trigger/{path}` runs the active deployment whose
// `webhook_trigger` owns the path, synchronously, logged with trigger `webhook`. No API key: the path is the
// address and, when the trigger has a secret, the HMAC signature (X-Sluice-Signature) is the authentication.
// Answers 200 {success, executionId}, or the response block's response when one ran.
import { webhookTriggerConfigSchema } from '../blocks/webhook-trigger.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import {
  activeDeployment,
  admitRun,
  EXECUTION_ID_HEADER,
  loadDeployedWorkflow,
  type PreparedRun,
  holdFlowSlot,
  prepareRun,
  type RunOrigin,
  runPrepared,
  type StoredResponse,
  syncAnswer,
} from '../runs/index.js';
import type { AppContext } from '../services/app-context.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../services/webhook-signature.js';
import { findWebhookPath } from './webhook-paths.js';
import { parseWebhookBody, webhookHeaders, webhookQuery } from './webhook-request.js';
import { webhookSecret } from './webhook-secret.js';

export interface WebhookCallRequest {
  path: string;
  url: string;
  headers: Headers;
  readBody(): Promise<Buffer>;
  origin?: RunOrigin;
}

// Unknown, undeployed and deleted paths look the same, so a caller learns nothing about workflows behind them.
const noSuchPath = (path: string) => notFound(`Webhook path "${path}"`);

export async function prepareWebhookCall(app: AppContext, request: WebhookCallRequest): Promise<PreparedRun> {
  const { path } = request;
  // Only a path a trigger could have registered is looked up (a NUL byte, say, would not even reach the query).
  if (!webhookTriggerConfigSchema.shape.path.safeParse(path).success) throw noSuchPath(path);
  const registered = await findWebhookPath(app, path);
  const deployed = registered && (await loadDeployedWorkflow(app, registered.workflowId));
  const block = deployed?.deployment?.state.blocks[registered!.blockId];
  if (!registered || !deployed?.deployment || !block) throw noSuchPath(path);
  const target = activeDeployment(deployed, 'call its webhook');

  const raw = await request.readBody();
  const secret = await webhookSecret(app, target.workflow.workspaceId, block.config.secret);
  if (secret !== undefined) {
    const check = verifyWebhookSignature(secret, request.headers.get(WEBHOOK_SIGNATURE_HEADER) ?? undefined, raw);
    if (!check.ok) throw new AppError('UNAUTHORIZED', 401, check.reason);
  }
  // After the signature: forged calls must not use up the owner's rate limit.
  const { headers } = await admitRun(app, target.owner, { rateBucket: 'sync' });
  const input = {
    body: await parseWebhookBody(raw, request.headers.get('content-type') ?? undefined),
    headers: webhookHeaders(request.headers),
    query: webhookQuery(request.url),
  };
  const run = prepareRun({
    target,
    trigger: 'webhook',
    triggerBlockId: registered.blockId,
    input,
    files: [],
    executionId: newId('exec'),
    admissionHeaders: headers,
    origin: request.origin,
  });
  // The sender waits for the answer: like an API call's sync run, it takes its slot (or is refused) before it runs.
  return holdFlowSlot(app, run);
}

/** Runs the call; a webhook sender only needs the acknowledgement (the output is in the log). */
export async function runWebhookCall(app: AppContext, run: PreparedRun, signal?: AbortSignal): Promise<StoredResponse> {
  const outcome = await runPrepared(app, run, { signal });
  if (outcome.result.success && !outcome.result.response) {
    return { status: 200, headers: { [EXECUTION_ID_HEADER]: outcome.executionId }, body: { success: true, executionId: outcome.executionId } };
  }
  return syncAnswer(outcome);
}
