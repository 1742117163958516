// Any OpenAI-compatible chat-completions API (OpenAI, Ollama, vLLM, LM Studio, OpenRouter, …) through the official SDK.
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { onFirstUse } from '../lazy-import.js';
import { toLlmError, truncatedStream } from './errors.js';
import { sdkClientOptions } from './sdk-client-options.js';
import type { ChatRequest, ChatResult, ConversationTurn, LlmProvider, ProviderConnection, TokenCounts, ToolCallRequest } from './types.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const LABEL = 'OpenAI';
const openAiSdk = onFirstUse(() => import('openai'));

function isOpenAiItself(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

function turnMessages(turns: ConversationTurn[]): ChatCompletionCreateParamsStreaming['messages'] {
  const messages: ChatCompletionCreateParamsStreaming['messages'] = [];
  for (const turn of turns) {
    if (turn.role === 'user') {
      messages.push({ role: 'user', content: turn.content });
    } else if (turn.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: turn.content || null,
        // An empty tool_calls array is refused by OpenAI: a final answer (from memory) has none.
        ...(turn.toolCalls.length > 0
          ? {
              tool_calls: turn.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      });
    } else {
      for (const result of turn.results) messages.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
    }
  }
  return messages;
}

function buildParams(request: ChatRequest, baseUrl: string): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionCreateParamsStreaming['messages'] = [];
  if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
  messages.push(...turnMessages(request.earlier ?? []));
  if (request.userPrompt) messages.push({ role: 'user', content: request.userPrompt });
  messages.push(...turnMessages(request.history ?? []));
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages,
    stream: true,
    // Without this the stream carries no token counts, and cost could not be computed.
    stream_options: { include_usage: true },
  };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.maxTokens !== undefined) {
    // OpenAI's reasoning models refuse max_tokens; many compatible servers only know max_tokens.
    if (isOpenAiItself(baseUrl)) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.responseFormat) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema },
    };
  }
  return params;
}

export const openAiProvider: LlmProvider = {
  label: LABEL,
  async streamChat(connection: ProviderConnection, request: ChatRequest, hooks): Promise<ChatResult> {
    const { default: OpenAI } = await openAiSdk();
    const client = new OpenAI({
      ...sdkClientOptions(connection),
    });
    let content = '';
    let reportedModel: string | undefined;
    let usage: TokenCounts | undefined;
    let finishReason: string | undefined;
    // Streamed tool calls arrive as pieces keyed by index: the id and name first, the arguments text in parts.
    const calls = new Map<number, ToolCallRequest>();
    try {
      const stream = await client.chat.completions.create(buildParams(request, connection.baseUrl), { signal: hooks.signal });
      for await (const chunk of stream) {
        hooks.onActivity();
        if (typeof chunk.model === 'string' && chunk.model) reportedModel = chunk.model;
        if (chunk.usage) {
          const prompt = chunk.usage.prompt_tokens ?? 0;
          const completion = chunk.usage.completion_tokens ?? 0;
          usage = { prompt, completion, total: chunk.usage.total_tokens ?? prompt + completion };
        }
        for (const choice of chunk.choices ?? []) {
          // Only one completion is requested; a server that sends more gets its first one used.
          if (choice.index !== 0 && choice.index !== undefined) continue;
          const text = choice.delta?.content;
          if (typeof text === 'string' && text !== '') {
            content += text;
            hooks.onToken(text);
          }
          for (const piece of choice.delta?.tool_calls ?? []) {
            const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
            if (piece.id) call.id = piece.id;
            if (piece.function?.name) call.name += piece.function.name;
            if (piece.function?.arguments) call.arguments += piece.function.arguments;
            calls.set(piece.index, call);
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
      }
    } catch (error) {
      throw toLlmError(LABEL, error, OpenAI);
    }
    // The SDK ends iteration quietly when aborted; the caller tells that apart. Otherwise a missing finish_reason means
    // the connection dropped mid-answer, and a partial answer must not pass as a whole one.
    if (!hooks.signal.aborted && finishReason === undefined) throw truncatedStream(LABEL);
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      // Some compatible servers leave out ids; the results must still be matched to their calls.
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return { content, reportedModel, usage, finishReason, toolCalls };
  },
};
