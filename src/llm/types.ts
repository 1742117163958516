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
}

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
}

export interface LlmProvider {
  /** How errors name the provider: `OpenAI request failed: …`. */
  label: string;
  streamChat(connection: ProviderConnection, request: ChatRequest, hooks: AttemptHooks): Promise<ChatResult>;
}
