// The chat trigger: `POST /api/chat/{workflowId}` with {message, conversationId?}.
import { z } from 'zod';
import type { BlockDefinition } from './types.js';

export const chatTriggerConfigSchema = z.object({});
export type ChatTriggerConfig = z.infer<typeof chatTriggerConfigSchema>;

export const chatTriggerBlock: BlockDefinition<ChatTriggerConfig> = {
  type: 'chat_trigger',
  trigger: 'chat',
  configSchema: chatTriggerConfigSchema,
  // Has no effect outside the run: after a pause it runs again rather than being replayed.
  replay: 'rerun',
  async run(ctx) {
    const { message, conversationId } = ctx.trigger.input;
    return {
      output: {
        message: typeof message === 'string' ? message : '',
        conversationId: typeof conversationId === 'string' ? conversationId : null,
      },
    };
  },
};
