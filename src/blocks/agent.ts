// The agent block: one language-model call whose answer streams to the client token by token while it is generated,
// and whose token usage and cost are reported in the output (the trace lifts them into the execution's cost).
import { z } from 'zod';
import {
  callModel,
  compileSchema,
  normalizeResponseFormat,
  parseJsonAnswer,
  priceUsage,
  PROVIDERS,
  type ProviderConnection,
  type TokenCounts,
} from '../llm/index.js';
import { assertUrlAllowed, NetworkPolicyError } from '../net/index.js';
import { agentForm } from './forms.js';
import { defineBlock } from './define-block.js';
import type { BlockServices } from './types.js';

/** Sent as the key to servers that need none (Ollama, vLLM, …): both SDKs refuse to run without one. */
const PLACEHOLDER_API_KEY = 'sluice-no-key';

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** A prompt that is exactly one reference keeps the referenced value's type; the model gets it as text. */
const promptText = z.preprocess(
  (value) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)),
  z.string(),
);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());

export const agentConfigSchema = z
  .object({
    provider: z
      .preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(['openai', 'anthropic']))
      .default('openai'),
    model: z.string().trim().min(1, 'is required'),
    systemPrompt: promptText.default(''),
    userPrompt: promptText.default(''),
    temperature: z.preprocess(blankToUndefined, z.coerce.number().min(0).max(2).optional()),
    maxTokens: z.preprocess(blankToUndefined, z.coerce.number().int().positive().max(1_000_000).optional()),
    /** A JSON Schema: the answer is parsed as JSON and checked against it; `content` is then the parsed value. */
    responseFormat: z.preprocess(blankToUndefined, z.unknown().optional()),
    apiKey: optionalText,
    baseUrl: optionalText,
    /** Longest silence from the provider, before the answer starts and between tokens. */
    timeoutMs: z.coerce.number().int().positive().max(600_000).default(120_000),
    /** Further attempts after a 429, 5xx or connection failure, only while nothing has been streamed yet. */
    retries: z.coerce.number().int().min(0).max(5).default(2),
    // Kept as saved so the editor's tool entries survive; the agent loop (issue 25) gives them their meaning.
    tools: z.array(z.looseObject({ type: z.enum(['workflow', 'http', 'function', 'mcp']) })).optional(),
    maxSteps: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(50).optional()),
    maxCostUsd: z.preprocess(blankToUndefined, z.coerce.number().positive().optional()),
  })
  .refine((config) => config.systemPrompt !== '' || config.userPrompt !== '', {
    message: 'systemPrompt or userPrompt must not be empty',
    path: ['userPrompt'],
  });

export type AgentConfig = z.infer<typeof agentConfigSchema>;

function resolveConnection(config: AgentConfig, services: BlockServices): ProviderConnection {
  const setup = PROVIDERS[config.provider];
  const label = setup.provider.label;
  const baseUrl = (config.baseUrl || services.providerEnv(setup.baseUrlVariable) || setup.defaultBaseUrl).replace(/\/+$/, '');
  try {
    assertUrlAllowed(baseUrl, { allowPrivateNetwork: services.allowPrivateNetwork });
  } catch (error) {
    throw new Error(`${label} base URL refused: ${error instanceof NetworkPolicyError ? error.message : String(error)}`);
  }
  let apiKey = config.apiKey || services.providerEnv(setup.apiKeyVariable);
  if (!apiKey) {
    // The provider's own service always wants a key: say so now instead of relaying its 401.
    if (baseUrl === setup.defaultBaseUrl) {
      throw new Error(
        `${label} API key missing: set the block's apiKey (for example {{${setup.apiKeyVariable}}}) or the ${setup.apiKeyVariable} environment variable`,
      );
    }
    apiKey = PLACEHOLDER_API_KEY;
  }
  return { apiKey, baseUrl, allowPrivateNetwork: services.allowPrivateNetwork };
}

function prepareResponseFormat(raw: unknown) {
  if (raw === undefined) return undefined;
  const format = normalizeResponseFormat(raw);
  if (typeof format === 'string') throw new Error(format);
  const schema = compileSchema(format);
  if (typeof schema === 'string') throw new Error(schema);
  return { format, schema };
}

const NO_TOKENS: TokenCounts = { prompt: 0, completion: 0, total: 0 };

export const agentBlock = defineBlock<AgentConfig>(agentForm, {
  configSchema: agentConfigSchema,
  async run(ctx) {
    const { config } = ctx;
    const setup = PROVIDERS[config.provider];
    // Everything that can be refused without the network is refused before the model is paid for.
    const connection = resolveConnection(config, ctx.services);
    const structured = prepareResponseFormat(config.responseFormat);

    const result = await callModel({
      provider: setup.provider,
      connection,
      request: {
        model: config.model,
        systemPrompt: config.systemPrompt || undefined,
        userPrompt: config.userPrompt,
        temperature: config.temperature,
        maxTokens: config.maxTokens,
        responseFormat: structured?.format,
      },
      signal: ctx.signal,
      onToken: (text) => ctx.emitChunk(text),
      timeoutMs: config.timeoutMs,
      retries: config.retries,
    });

    const tokens = result.usage ?? NO_TOKENS;
    const names = [config.model, ...(result.reportedModel ? [result.reportedModel] : [])];
    const priced = priceUsage(names, tokens, ctx.services.providerEnv('SLUICE_MODEL_PRICING'));
    const output: Record<string, unknown> = {
      content: result.content,
      // The configured name, not the provider's dated variant: it is what users filter logs by.
      model: config.model,
      tokens,
      cost: priced.cost,
    };
    if (!priced.known) output.pricing = 'unknown model';
    if (!result.usage) output.usage = 'not reported by the provider';

    if (structured) {
      const answer = parseJsonAnswer(result.content, structured.schema);
      // The call was made and paid for either way, so a mismatch keeps tokens and cost in the (failed) output.
      if (!answer.ok) return { output: { ...output, error: answer.error } };
      output.content = answer.value;
    }
    return { output };
  },
});
