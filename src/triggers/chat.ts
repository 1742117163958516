// The chat trigger (README "Other triggers"): `POST /api/chat/{workflowId}` runs the active deployment's chat_trigger
// with `<chat.message>` and `<chat.conversationId>` (generated as conv_… when the caller starts a conversation), logged
// with trigger `chat`. Callers: an API key with access to the workflow's workspace, or anyone when the workflow's
// chat is public (`chatPublic`). Streams like the execute endpoint unless `stream: false`.
import { z } from 'zod';
import { AppError, forbidden, notFound, unauthorized } from '../errors.js';
import { newExecutionId, randomBase62 } from '../ids.js';
import type { WorkflowState } from '../workflow/index.js';
import { canRunInWorkspace } from '../services/access.js';
import {
  activeDeployment,
  admitRun,
  type ExecutionOutcome,
  loadDeployedWorkflow,
  type PreparedRun,
  debouncedSyncCall,
  holdFlowSlot,
  holdThrottleStart,
  prepareRun,
  type RunOrigin,
  runPrepared,
} from '../runs/index.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { createChunkRouter, defaultSelection, parseSelectedOutputs, type ChunkRecord, type OutputSelection } from './output-selection.js';

export const chatBody = z.strictObject({
  message: z.string().min(1, 'must not be empty').max(100_000),
  conversationId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1–128 letters, digits, _ or -').optional(),
  /** Default true: chat clients read the answer as it is produced. */
  stream: z.boolean().optional(),
  selectedOutputs: z.array(z.string().max(300)).max(100).optional(),
});
export type ChatBody = z.infer<typeof chatBody>;

export const CONVERSATION_ID_HEADER = 'X-Conversation-Id';

export interface ChatCall {
  run: PreparedRun;
  stream: boolean;
  selection: OutputSelection;
  conversationId: string;
}

const hasChatTrigger = (state: WorkflowState) =>
  Object.values(state.blocks).some((block) => block.type === 'chat_trigger' && block.enabled !== false);

/** `caller` is undefined for an anonymous caller, who may only use a public chat. */
export async function prepareChatCall(
  app: AppContext,
  request: { caller: Principal | undefined; workflowId: string; readBody(): Promise<ChatBody>; origin?: RunOrigin },
): Promise<ChatCall> {
  const deployed = await loadDeployedWorkflow(app, request.workflowId);
  if (!request.caller) {
    // Anonymous callers cannot tell a private chat from a missing workflow.
    if (!deployed?.workflow.chatPublic) throw unauthorized('Missing API key: send it in the X-API-Key header (this chat is not public)');
  } else {
    if (!deployed) throw notFound('Workflow');
    if (!(await canRunInWorkspace(app, request.caller, deployed.workflow.workspaceId))) {
      throw forbidden('This API key has no access to the workspace of that workflow');
    }
  }
  const target = activeDeployment(deployed, 'chat with it');
  if (!hasChatTrigger(target.state)) throw notFound('Chat trigger in the active deployment of this workflow');

  // A chat waits for the answer to its own message, which a debounce burst would replace (like a sync call).
  if (target.state.flowControl?.debounce) {
    app.metrics.flowRefused(target.workflow.id, 'DEBOUNCED');
    throw debouncedSyncCall();
  }
  const { headers } = await admitRun(app, target.owner, { rateBucket: 'sync' });
  const body = await request.readBody();
  const selection = body.selectedOutputs ? parseSelectedOutputs(target.state, body.selectedOutputs) : defaultSelection(target.state);
  const conversationId = body.conversationId ?? `conv_${randomBase62(20)}`;
  const run = prepareRun({
    target,
    trigger: 'chat',
    input: { message: body.message, conversationId },
    files: [],
    executionId: newExecutionId(),
    admissionHeaders: { ...headers, [CONVERSATION_ID_HEADER]: conversationId },
    origin: request.origin,
  });
  // Flow control before any stream starts, so a refusal is a plain JSON answer: the slot, then the throttle's start.
  const caller = request.caller && { userId: request.caller.userId, keyWorkspaceId: request.caller.keyWorkspaceId };
  const held = await holdThrottleStart(app, await holdFlowSlot(app, run, caller));
  return { run: held, stream: body.stream !== false, selection, conversationId };
}

export function runChatCall(
  app: AppContext,
  call: ChatCall,
  options: { signal?: AbortSignal; onChunk?: (record: ChunkRecord) => void },
): Promise<ExecutionOutcome> {
  const { onChunk } = options;
  return runPrepared(app, call.run, {
    signal: options.signal,
    // A chat stream carries text only: no progress events are asked for, so every record is a chunk.
    onEvent: onChunk && createChunkRouter(call.selection, (record) => ('chunk' in record ? onChunk(record) : undefined)),
  });
}
