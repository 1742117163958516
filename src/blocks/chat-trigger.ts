// The chat trigger: `POST /api/chat/{workflowId}` with {message, conversationId?}.
import { z } from 'zod';
import { chatTriggerForm } from './forms.js';
import { triggerBlock } from './define-block.js';

export const chatTriggerConfigSchema = z.object({});
export type ChatTriggerConfig = z.infer<typeof chatTriggerConfigSchema>;

export const chatTriggerBlock = triggerBlock<ChatTriggerConfig>('chat', chatTriggerForm, chatTriggerConfigSchema, async (ctx) => {
  const { message, conversationId } = ctx.trigger.input;
  return {
    output: {
      message: typeof message === 'string' ? message : '',
      conversationId: typeof conversationId === 'string' ? conversationId : null,
    },
  };
});
