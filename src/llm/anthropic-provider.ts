// Anthropic's Messages API through @anthropic-ai/sdk, streamed.
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import { onFirstUse } from '../lazy-import.js';
import { toLlmError, truncatedStream } from './errors.js';
import { jsonInstruction } from './json-output.js';
import { sdkClientOptions } from './sdk-client-options.js';
import type { ChatRequest, ChatResult, ConversationTurn, LlmProvider, ProviderConnection, ToolCallRequest } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const LABEL = 'Anthropic';
const anthropicSdk = onFirstUse(() => import('@anthropic-ai/sdk'));
/** The Messages API requires max_tokens; this is used when the block leaves it unset. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

function buildParams(request: ChatRequest): MessageCreateParamsStreaming {
  // No response-format parameter is relied upon here: the schema goes into the system prompt, and the block validates
  // the answer against it either way.
  const system = [request.systemPrompt, request.responseFormat ? jsonInstruction(request.responseFormat) : undefined]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: [...turnMessages(request.earlier ?? []), { role: 'user', content: request.userPrompt }, ...turnMessages(request.history ?? [])],
    stream: true,
  };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as Anthropic.Messages.Tool.InputSchema,
    }));
  }
  if (system) params.system = system;
  // No temperature: the Messages API deprecated it and SDK 1.x no longer has the parameter, so it is not sent.
  return params;
}

function turnMessages(turns: ConversationTurn[]): MessageCreateParamsStreaming['messages'] {
  return turns.map((turn) => {
    if (turn.role === 'user') return { role: 'user' as const, content: turn.content };
    if (turn.role === 'assistant') {
      const content: Anthropic.Messages.ContentBlockParam[] = [];
      if (turn.content) content.push({ type: 'text', text: turn.content });
      for (const call of turn.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
      return { role: 'assistant' as const, content };
    }
    return {
      role: 'user' as const,
      content: turn.results.map((result) => ({
        type: 'tool_result' as const,
        tool_use_id: result.callId,
        content: result.content,
        ...(result.isError ? { is_error: true } : {}),
      })),
    };
  });
}

/** tool_use input must be an object; arguments the model sent that were not one are passed back as it sent them. */
function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { text };
  }
}

const count = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export const anthropicProvider: LlmProvider = {
  label: LABEL,
  async streamChat(connection: ProviderConnection, request: ChatRequest, hooks): Promise<ChatResult> {
    const { default: AnthropicClient } = await anthropicSdk();
    const client = new AnthropicClient({
      ...sdkClientOptions(connection),
      openTelemetry: false,
    });
    let content = '';
    let reportedModel: string | undefined;
    let promptTokens = 0;
    let completionTokens = 0;
    let sawUsage = false;
    let stopReason: string | undefined;
    let stopped = false;
    // tool_use blocks stream as a start (id, name) and input_json_delta pieces, keyed by content block index.
    const calls = new Map<number, ToolCallRequest>();
    try {
      const stream = await client.messages.create(buildParams(request), { signal: hooks.signal });
      for await (const event of stream) {
        hooks.onActivity();
        switch (event.type) {
          case 'message_start': {
            reportedModel = event.message.model || reportedModel;
            const usage = event.message.usage;
            if (usage) {
              sawUsage = true;
              // Cached prompt tokens are still prompt tokens; they are priced at the input rate (an upper bound).
              promptTokens =
                count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens);
              completionTokens = count(usage.output_tokens);
            }
            break;
          }
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') {
              calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta' && event.delta.text) {
              content += event.delta.text;
              hooks.onToken(event.delta.text);
            } else if (event.delta.type === 'input_json_delta') {
              const call = calls.get(event.index);
              if (call) call.arguments += event.delta.partial_json;
            }
            break;
          case 'message_delta':
            if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
            if (event.usage) {
              sawUsage = true;
              // message_delta counts are cumulative; input counts appear here only on some API versions.
              completionTokens = count(event.usage.output_tokens);
              if (typeof event.usage.input_tokens === 'number') {
                promptTokens =
                  count(event.usage.input_tokens) +
                  count(event.usage.cache_creation_input_tokens) +
                  count(event.usage.cache_read_input_tokens);
              }
            }
            break;
          case 'message_stop':
            stopped = true;
            break;
          default:
            break;
        }
      }
    } catch (error) {
      throw toLlmError(LABEL, error, AnthropicClient);
    }
    if (!hooks.signal.aborted && !stopped) throw truncatedStream(LABEL);
    const usage = sawUsage
      ? { prompt: promptTokens, completion: completionTokens, total: promptTokens + completionTokens }
      : undefined;
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return { content, reportedModel, usage, finishReason: stopReason, toolCalls };
  },
};
