// The agent block's `memory` (README "Agents", docs/workflows.md "Agent memory"): the conversation of earlier runs
// under a key, loaded before this run's user prompt, and this run's messages appended once the agent has its answer.
// The messages live in the database; the block reaches them through BlockServices.memory, lent per run by the host.
import { z } from 'zod';
import type { ConversationTurn } from '../../llm/types.js';
import type { AgentMemory, MemoryMessage } from '../types.js';

/** Most messages one run may load. */
export const MAX_MEMORY_MESSAGES = 200;
/** Longest key: a conversation or session id, not a document. */
export const MAX_MEMORY_KEY_LENGTH = 256;

export const memorySchema = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z
    .strictObject({
      /** Usually a reference: `<chat.conversationId>`, `<api.sessionId>`. A number is taken as its digits. */
      key: z.preprocess(
        (value) => (value === undefined || value === null ? '' : typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
        z
          .string('must be text (a conversation or session id)')
          .trim()
          .min(1, 'is empty: the conversation needs a key (for example <chat.conversationId>), and this run gave none')
          .max(MAX_MEMORY_KEY_LENGTH, `must be at most ${MAX_MEMORY_KEY_LENGTH} characters`)
          .refine((key) => !key.includes('\u0000') && key.isWellFormed(), 'must not contain NUL characters or unpaired surrogates'),
      ),
      /** How many of the latest messages the model is given. */
      lastMessages: z.preprocess(
        (value) => (value === '' || value === null ? undefined : value),
        z.coerce
          .number()
          .int('must be a whole number')
          .min(1, 'must be at least 1')
          .max(MAX_MEMORY_MESSAGES, `must be at most ${MAX_MEMORY_MESSAGES}`)
          .default(20),
      ),
    })
    .optional(),
);

export type MemoryConfig = NonNullable<z.infer<typeof memorySchema>>;

/** Stored messages as the turns a provider is sent; consecutive tool results answer one assistant turn together. */
export function memoryTurns(messages: MemoryMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const result = { callId: message.toolCallId, name: message.toolName, content: message.content, isError: message.isError };
      const last = turns[turns.length - 1];
      if (last?.role === 'tool') last.results.push(result);
      else turns.push({ role: 'tool', results: [result] });
    } else if (message.role === 'assistant') {
      // An empty answer is left out: neither provider takes an assistant message with nothing in it.
      if (message.content === '' && !message.toolCalls?.length) continue;
      turns.push({ role: 'assistant', content: message.content, toolCalls: message.toolCalls ?? [] });
    } else {
      turns.push({ role: 'user', content: message.content });
    }
  }
  return turns;
}

/** This run's messages as stored: its user prompt, then every turn of the loop up to the answer. */
export function runMessages(userPrompt: string, turns: ConversationTurn[]): MemoryMessage[] {
  const messages: MemoryMessage[] = userPrompt ? [{ role: 'user', content: userPrompt }] : [];
  for (const turn of turns) {
    if (turn.role === 'tool') {
      for (const result of turn.results) {
        messages.push({ role: 'tool', content: result.content, toolCallId: result.callId, toolName: result.name, isError: result.isError });
      }
    } else if (turn.role === 'assistant') {
      messages.push({ role: 'assistant', content: turn.content, ...(turn.toolCalls.length > 0 ? { toolCalls: turn.toolCalls } : {}) });
    } else {
      messages.push({ role: 'user', content: turn.content });
    }
  }
  return messages;
}

/** The memory a run's agent uses; refused when the host lent none (a block run outside a workflow run). */
export function requireMemory(memory: AgentMemory | undefined): AgentMemory {
  if (!memory) throw new Error('Agent memory is not available here');
  return memory;
}
