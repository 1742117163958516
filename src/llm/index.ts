// Language-model providers behind one interface, with cost accounting. Used by the agent block.
import { anthropicProvider, ANTHROPIC_DEFAULT_BASE_URL } from './anthropic-provider.js';
import { openAiProvider, OPENAI_DEFAULT_BASE_URL } from './openai-provider.js';
import type { LlmProvider, ProviderName } from './types.js';

export { callModel, type CallModelOptions, type CallModelResult } from './call-model.js';
export { LlmError } from './errors.js';
export { compileSchema, normalizeResponseFormat, parseJsonAnswer } from './json-output.js';
export { priceUsage, type ModelCost, type PricedCost } from './pricing.js';
export { parseModelPricingOverride } from '../model-pricing-override.js';
export type { ChatRequest, ChatResult, JsonResponseFormat, LlmProvider, ProviderConnection, ProviderName, TokenCounts } from './types.js';

export interface ProviderSetup {
  provider: LlmProvider;
  defaultBaseUrl: string;
  /** Provider environment variables (read through BlockServices.providerEnv, never process.env). */
  apiKeyVariable: string;
  baseUrlVariable: string;
}

export const PROVIDERS: Record<ProviderName, ProviderSetup> = {
  openai: {
    provider: openAiProvider,
    defaultBaseUrl: OPENAI_DEFAULT_BASE_URL,
    apiKeyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
  },
  anthropic: {
    provider: anthropicProvider,
    defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
    apiKeyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
  },
};
