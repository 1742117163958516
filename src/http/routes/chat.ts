// POST /api/chat/{workflowId} {message, conversationId?, stream?, selectedOutputs?} — the chat trigger (README "Other
// triggers", triggers/chat.ts). The route works out who is calling and shapes the answer.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AppError } from '../../errors.js';
import type { Principal } from '../../services/api-keys.js';
import { doneRecord, syncAnswer } from '../../runs/index.js';
import { chatBody, prepareChatCall, runChatCall } from '../../triggers/chat.js';
import { requireApiKey } from '../auth.js';
import { readJsonBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { clientGoneSignal } from '../node-bindings.js';
import { operation } from '../operation.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';
import { streamRun } from '../sse.js';
import { parseId, parseWith } from '../validation.js';

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

const chat = operation({
  method: 'post',
  path: '/{workflowId}',
  summary: 'Chat with a deployed workflow (streams by default); no credentials needed when the chat is public',
  body: chatBody,
  auth: 'chat',
  run: 'chat',
  response: 'ChatResult',
  events:
    'unless stream: false, a StreamChunk (#/components/schemas/StreamChunk) per streamed piece of the selectedOutputs, ' +
    'then a ChatStreamDone (#/components/schemas/ChatStreamDone)',
  more: {
    202: { description: 'The run paused at an approval block (stream: false)', schema: 'ExecutionPaused' },
    500: { description: 'The run failed (stream: false)', schema: 'ChatFailure' },
  },
  // A key (or session) without access to the workflow's workspace.
  errors: [403],
  conflict:
    'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), the run was cancelled (EXECUTION_CANCELLED), a singleton run is in flight (ALREADY_RUNNING), or the workflow is debounced (DEBOUNCED)',
});

export const chatRoutes = new OpenAPIHono<AppEnv>().openapi(chat, async (c) => {
  const app = c.get('app');
  const workflowId = parseId(c.req.param('workflowId'), 'workflow id', 'workflowId');
  const call = await prepareChatCall(app, {
    caller: await callerOf(c),
    workflowId,
    readBody: async () => parseWith(chatBody, (await readJsonBodyLimited(c, app.config.maxRequestBytes)).value, 'request body'),
    origin: runOrigin(c),
  });
  const { conversationId } = call;
  if (!call.stream) {
    const outcome = await runChatCall(app, call, { signal: clientGoneSignal(c) });
    return sendResponse(c, syncAnswer(outcome, { conversationId }), call.run.headers);
  }
  return streamRun(c, { headers: call.run.headers, keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
    const outcome = await runChatCall(app, call, { signal, onChunk: send });
    return doneRecord(outcome, { executionId: outcome.executionId, conversationId });
  });
});
