// The webhook trigger (README "Other triggers"): `POST /api/webhooks/trigger/{path}` runs the active deployment whose
// `webhook_trigger` owns the path, synchronously, logged with trigger `webhook`. No API key: the path is the
// address and, when the trigger has a secret, the HMAC signature (X-Sluice-Signature) is the authentication.
// Answers 200 {success, executionId}, or the response block's response when one ran.
// Throttle and debounce (docs/api.md 4.11): a webhook whose workflow has no response block only needs to know its call
// was taken, so a call over the throttle's rate, and every call of a debounced workflow, is queued as an async run and
// answered 202 with its execution id (the same one for every call of a debounce burst). A webhook answered by a
// response block waits for its run's output: over the rate it is 429 THROTTLED, and under debounce 409 DEBOUNCED,
// like the execute endpoint's sync calls.
import { webhookTriggerConfigSchema } from '../blocks/webhook-trigger.js';
import { AppError, notFound } from '../errors.js';
import { newExecutionId } from '../ids.js';
import {
  activeDeployment,
  admitQueuedRun,
  admitRun,
  debouncedSyncCall,
  debounceOf,
  enqueuePrepared,
  EXECUTION_ID_HEADER,
  loadDeployedWorkflow,
  type PreparedRun,
  holdFlowSlot,
  prepareRun,
  type RunOrigin,
  runPrepared,
  type StoredResponse,
  syncAnswer,
  holdThrottleStart,
  takeThrottleStart,
} from '../runs/index.js';
import type { WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../services/webhook-signature.js';
import { acceptedAnswer, type AsyncAccepted } from './api.js';
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

/** A call to run now (it holds its slot and start), or to queue (throttled without a response block; debounced). */
export type WebhookCall = { mode: 'now'; run: PreparedRun } | { mode: 'queued'; run: PreparedRun; notBefore?: Date };

// Unknown, undeployed and deleted paths look the same, so a caller learns nothing about workflows behind them.
const noSuchPath = (path: string) => notFound(`Webhook path "${path}"`);

export async function prepareWebhookCall(app: AppContext, request: WebhookCallRequest): Promise<WebhookCall> {
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
    executionId: newExecutionId(),
    admissionHeaders: headers,
    origin: request.origin,
  });
  const workflowId = target.workflow.id;
  const answeredByRun = hasResponseBlock(target.state);
  const debounce = debounceOf(workflowId, target.state, input);
  if (debounce) {
    if (answeredByRun) {
      app.metrics.flowRefused(workflowId, 'DEBOUNCED');
      throw debouncedSyncCall();
    }
    // Every call joins its key's burst (one queued job): refused only as an async call would be (reject, skip).
    const flowWaits = run.flow ? (await admitQueuedRun(app, run.flow, { userId: target.owner.id, keyWorkspaceId: null })).waits : false;
    return { mode: 'queued', run: { ...run, debounce, flowWaits } };
  }
  // The sender waits for the answer: like an API call's sync run, it takes its slot (or is refused) before it runs,
  // then a start of its throttle.
  const held = await holdFlowSlot(app, run);
  if (answeredByRun) return { mode: 'now', run: await holdThrottleStart(app, held) };
  const start = await takeThrottleStart(app, held);
  if ('run' in start) return { mode: 'now', run: start.run };
  // Over the rate: queued, due when the key's next start frees; the worker takes its slot and start then
  // (async-executions.ts). Its slot went back with the refused start.
  app.metrics.flowWaited(workflowId, 'throttle');
  const queued: PreparedRun = { ...held, flowWaits: false };
  delete queued.flowWait;
  return { mode: 'queued', run: queued, notBefore: new Date(start.freeAt) };
}

/** Whether the workflow answers its webhook with a response block's output (the sender waits for the run). */
function hasResponseBlock(state: WorkflowState): boolean {
  return Object.values(state.blocks).some((block) => block.type === 'response' && block.enabled !== false);
}

/** Queues a call that does not run now (throttle, debounce): 202, naming the run (a burst's, when it joined one). */
export async function queueWebhookCall(app: AppContext, call: Extract<WebhookCall, { mode: 'queued' }>): Promise<AsyncAccepted> {
  return acceptedAnswer(app, await enqueuePrepared(app, call.run, call.notBefore ? { notBefore: call.notBefore, throttled: true } : {}));
}


/** Runs the call; a webhook sender only needs the acknowledgement (the output is in the log). */
export async function runWebhookCall(app: AppContext, run: PreparedRun, signal?: AbortSignal): Promise<StoredResponse> {
  const outcome = await runPrepared(app, run, { signal });
  if (outcome.result.success && !outcome.result.response) {
    return { status: 200, headers: { [EXECUTION_ID_HEADER]: outcome.executionId }, body: { success: true, executionId: outcome.executionId } };
  }
  return syncAnswer(outcome);
}
