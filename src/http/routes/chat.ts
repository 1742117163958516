// POST /api/chat/{workflowId} {message, conversationId?} — the chat trigger (SPEC §8). Runs the active deployment
// with `<chat.message>` and `<chat.conversationId>` (one is generated when the caller starts a conversation) and
// streams like the execute endpoint unless `stream: false`; logged with trigger `chat`. Auth: an API key with
// access to the workflow's workspace, or none at all when the workflow's chat is public (`chatPublic`).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { AppError, forbidden, notFound, unauthorized } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { canAccessWorkspace } from '../../services/access.js';
import type { Principal } from '../../services/api-keys.js';
import { runExecution } from '../../services/executions.js';
import { createChunkRouter, defaultSelection, parseSelectedOutputs } from '../../services/output-selection.js';
import { admitRun } from '../../services/admission.js';
import { loadDeployedWorkflow } from '../../services/triggers/deployed-workflow.js';
import type { WorkflowState } from '../../workflow/index.js';
import { requireApiKey } from '../auth.js';
import { readJsonBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { responseFor, sendResponse } from '../execution-response.js';
import { id } from '../schemas.js';
import { doneRecord, streamRun } from '../sse.js';
import { parseWith } from '../validation.js';

export const chatBody = z.strictObject({
  message: z.string().min(1, 'must not be empty').max(100_000),
  conversationId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1–128 letters, digits, _ or -').optional(),
  /** Default true: chat clients read the answer as it is produced. */
  stream: z.boolean().optional(),
  selectedOutputs: z.array(z.string().max(300)).max(100).optional(),
});

/**
 * The caller, or undefined for an anonymous caller (who may only use a public chat). A presented key that is bad
 * is always an error; a missing, expired or CSRF-less session cookie just makes the caller anonymous, so a public
 * chat embedded in another page still works for a visitor who happens to be signed in to Sluice.
 */
async function callerOf(c: Context<AppEnv>): Promise<Principal | undefined> {
  try {
    await requireApiKey(c, async () => undefined);
    return c.get('principal');
  } catch (err) {
    const presentedKey = c.req.header('x-api-key') !== undefined;
    if (err instanceof AppError && (err.httpStatus === 401 || err.httpStatus === 403) && !presentedKey) return undefined;
    throw err;
  }
}

const hasChatTrigger = (state: WorkflowState) =>
  Object.values(state.blocks).some((block) => block.type === 'chat_trigger' && block.enabled !== false);

export const chatRoutes = new Hono<AppEnv>().post('/:workflowId', async (c) => {
  const app = c.get('app');
  const workflowId = parseWith(id, c.req.param('workflowId'), 'workflow id', 'workflowId');
  const caller = await callerOf(c);
  const deployed = await loadDeployedWorkflow(app.db, workflowId);
  if (!caller) {
    // Anonymous callers cannot tell a private chat from a missing workflow.
    if (!deployed?.workflow.chatPublic) throw unauthorized('Missing API key: send it in the X-API-Key header (this chat is not public)');
  } else {
    if (!deployed) throw notFound('Workflow');
    if (!(await canAccessWorkspace(app.db, caller, deployed.workflow.workspaceId))) {
      throw forbidden('This API key has no access to the workspace of that workflow');
    }
  }
  const { workflow, deployment, owner } = deployed;
  if (!deployment) throw new AppError('WORKFLOW_NOT_DEPLOYED', 409, 'The workflow is not deployed; deploy it to chat with it');
  if (!hasChatTrigger(deployment.state)) throw notFound('Chat trigger in the active deployment of this workflow');

  const { headers } = await admitRun(app, owner, { rateBucket: 'sync' });
  const body = parseWith(chatBody, await readJsonBodyLimited(c, app.config.maxRequestBytes), 'request body');
  const selection = body.selectedOutputs ? parseSelectedOutputs(deployment.state, body.selectedOutputs) : defaultSelection(deployment.state);
  const conversationId = body.conversationId ?? `conv_${randomBase62(20)}`;
  headers['X-Conversation-Id'] = conversationId;
  const timeoutMs = app.config.executionTimeoutMs;
  const run = (signal: AbortSignal, onEvent?: Parameters<typeof runExecution>[1]['onEvent']) =>
    runExecution(app, {
      workflow: { id: workflow.id, workspaceId: workflow.workspaceId },
      state: deployment.state,
      deploymentVersion: deployment.version,
      trigger: 'chat',
      input: { message: body.message, conversationId },
      timeoutMs,
      owner,
      signal,
      onEvent,
    });

  if (body.stream === false) {
    const outcome = await run(c.req.raw.signal);
    return sendResponse(c, responseFor(outcome, timeoutMs, { conversationId }), headers);
  }
  return streamRun(c, { headers, keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
    const outcome = await run(signal, createChunkRouter(selection, send));
    return doneRecord(outcome.result, { executionId: outcome.executionId, conversationId });
  });
});
