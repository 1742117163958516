// The one interface every language-model provider implements. A provider makes a single streamed attempt; the
// retry loop, time-outs and cancellation around it live in call-model.ts so they behave the same for every provider.

export type ProviderName = 'openai' | 'anthropic';

export interface TokenCounts {
  prompt: number;
  completion: number;
  total: number;
}

/** Ask the model to answer with JSON matching this schema (already unwrapped from any provider envelope). */
export interface JsonResponseFormat {
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  systemPrompt?: string;
  userPrompt: string;
  temperature?: number;
  maxTokens?: number;
  responseFormat?: JsonResponseFormat;
  /** Tools the model may call. */
  tools?: ToolSpec[];
  /** The agent loop's earlier steps, after the user prompt: the model's tool calls and their results. */
  history?: ConversationTurn[];
  /** The conversation of earlier runs (agent memory), before the user prompt; it starts with a user turn. */
  earlier?: ConversationTurn[];
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call as the model asked for it. `arguments` is the raw JSON text; the loop parses and checks it. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

export interface ToolResultMessage {
  callId: string;
  name: string;
  /** What the model reads: the result as text (JSON for non-strings), or the error message. */
  content: string;
  isError: boolean;
}

export type ConversationTurn =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; results: ToolResultMessage[] };

export interface ProviderConnection {
  /** Always set: local servers that need no key get a placeholder, since both SDKs insist on one. */
  apiKey: string;
  baseUrl: string;
  allowPrivateNetwork: boolean;
}

export interface AttemptHooks {
  /** Aborts the upstream request: cancellation of the run or the idle time-out. */
  signal: AbortSignal;
  /** Called for every stream event, token or not, so the idle time-out measures silence, not generation time. */
  onActivity(): void;
  /** Called with each piece of generated text as it arrives. */
  onToken(text: string): void;
}

export interface ChatResult {
  content: string;
  /** The model name the provider reported, when it reported one. */
  reportedModel?: string;
  /** Undefined when the provider sent no usage (some OpenAI-compatible servers ignore include_usage). */
  usage?: TokenCounts;
  finishReason?: string;
  /** The tool calls the model asked for, assembled from the stream (empty or absent for a final answer). */
  toolCalls?: ToolCallRequest[];
}

export interface LlmProvider {
  /** How errors name the provider: `OpenAI request failed: …`. */
  label: string;
  streamChat(connection: ProviderConnection, request: ChatRequest, hooks: AttemptHooks): Promise<ChatResult>;
}
