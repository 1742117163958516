// The agent block: a language model that may call tools (src/llm/agent-loop.ts). Its final answer streams to the
// client token by token; token usage and cost of every model call are summed in the output (the trace lifts them into
// the execution's cost), and each model call and tool call gets a span of its own under the block's.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  compileSchema,
  normalizeResponseFormat,
  parseJsonAnswer,
  priceUsage,
  PROVIDERS,
  type ProviderConnection,
} from '../llm/index.js';
import { runAgentLoop, type AgentCheckpoint, type ApprovalAsk, type ModelCallRecord, type ToolCallRecord } from '../llm/agent-loop.js';
import type { AgentTool } from '../llm/tools.js';
import { assertUrlAllowed, NetworkPolicyError } from '../net/index.js';
import { agentKeepsReference, needsApproval, toolApproval, toolsSchema } from './agent-tools/config.js';
import { functionTool } from './agent-tools/function.js';
import { httpTool } from './agent-tools/http.js';
import { openMcpTools } from './agent-tools/mcp.js';
import { memorySchema, memoryTurns, requireMemory, runMessages } from './agent-tools/memory.js';
import { workflowTool } from './agent-tools/workflow.js';
import { agentForm } from './forms.js';
import { defineBlock } from './define-block.js';
import type { BlockRunContext, BlockServices } from './types.js';

export const MAX_AGENT_STEPS = 50;

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
    /** Tools the model may call (README "Agents"); the loop runs until an answer without tool calls. */
    tools: z.preprocess((value) => (value === '' || value === null ? undefined : value), toolsSchema),
    /** Most model calls one run of the block makes. */
    maxSteps: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(MAX_AGENT_STEPS, `must be at most ${MAX_AGENT_STEPS}`).default(10)),
    /** The loop stops, failing the block, once its model calls have cost this much without a final answer. */
    maxCostUsd: z.preprocess(blankToUndefined, z.coerce.number().positive().optional()),
    /** Keep the conversation per key across runs: `{ key: "<chat.conversationId>", lastMessages: 20 }`. */
    memory: memorySchema,
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

/** A model call's own span carries no usage of its own: the block's span carries the sum, and a span's usage counts once. */
function modelCallSpan(ctx: { blockId: string; blockName: string }, call: ModelCallRecord, model: string): object {
  return span(ctx, `${ctx.blockName} · model call ${call.step}`, 'model_call', call.startedAtMs, call.endedAtMs, { step: call.step }, {
    model: call.reportedModel ?? model,
    tokens: call.tokens,
    cost: call.cost,
    toolCalls: call.toolCalls,
  });
}

function toolCallSpan(ctx: { blockId: string; blockName: string }, call: ToolCallRecord): object {
  // A workflow tool's child run is logged and charged on its own; as type "workflow" its spans are not priced again here.
  const type = call.childSpans ? 'workflow' : 'tool_call';
  const made = span(ctx, `${ctx.blockName} · ${call.name}`, type, call.startedAtMs, call.endedAtMs, { id: call.id, arguments: call.arguments }, {
    result: call.result,
    ...(call.executionId !== undefined ? { executionId: call.executionId } : {}),
    ...(call.approval ? { approval: call.approval } : {}),
  }, call.error);
  return call.childSpans && call.childSpans.length > 0 ? { ...made, children: call.childSpans } : made;
}

function span(
  ctx: { blockId: string },
  name: string,
  type: string,
  startedAtMs: number,
  endedAtMs: number,
  input: unknown,
  output: unknown,
  error?: string,
): Record<string, unknown> {
  return {
    id: randomUUID(),
    blockId: ctx.blockId,
    name,
    type,
    status: error === undefined ? 'success' : 'error',
    startTime: new Date(startedAtMs).toISOString(),
    endTime: new Date(endedAtMs).toISOString(),
    duration: endedAtMs - startedAtMs,
    input,
    output,
    ...(error !== undefined ? { error } : {}),
  };
}

async function openTools(
  config: AgentConfig,
  ctx: BlockRunContext<AgentConfig>,
  signal: AbortSignal,
  opened: Array<{ close(): Promise<void> }>,
) {
  const tools: AgentTool[] = [];
  for (const entry of config.tools) {
    switch (entry.type) {
      case 'http':
        tools.push(httpTool(entry, ctx.services));
        break;
      case 'function':
        tools.push(functionTool(entry, ctx.services, ctx));
        break;
      case 'workflow':
        tools.push(await workflowTool(entry, ctx.services));
        break;
      case 'mcp': {
        const server = await openMcpTools(
          {
            url: entry.url,
            ...(entry.headers ? { headers: entry.headers } : {}),
            ...(entry.include ? { include: entry.include } : {}),
            ...toolApproval(entry),
          },
          ctx.services,
          signal,
        );
        opened.push(server);
        tools.push(...server.tools);
        break;
      }
    }
  }
  return tools;
}

const NO_COST = { input: 0, output: 0, total: 0 };
const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

/** Tokens and cost of model calls, summed. */
function spentOn(calls: readonly ModelCallRecord[]) {
  const tokens = { prompt: 0, completion: 0, total: 0 };
  let cost = NO_COST;
  for (const call of calls) {
    tokens.prompt += call.tokens.prompt;
    tokens.completion += call.tokens.completion;
    tokens.total += call.tokens.total;
    cost = { input: round(cost.input + call.cost.input), output: round(cost.output + call.cost.output), total: round(cost.total + call.cost.total) };
  }
  return { tokens, cost };
}

/** The shape of what the loop handed over at its last approval request; anything else is not resumed from. */
const checkpointSchema = z.looseObject({
  version: z.literal(1),
  history: z.array(z.unknown()),
  modelCalls: z.array(z.unknown()),
  toolCalls: z.array(z.unknown()),
  pending: z.looseObject({ step: z.number(), content: z.string(), calls: z.array(z.unknown()), answers: z.array(z.unknown()) }),
});

function savedProgress(ctx: BlockRunContext<AgentConfig>): AgentCheckpoint | undefined {
  const saved = ctx.services.approvalCheckpoint?.(ctx.blockId);
  if (saved === undefined) return undefined;
  if (!checkpointSchema.safeParse(saved).success) throw new Error("The agent's progress saved at its pause could not be read; run the workflow again");
  return saved as AgentCheckpoint;
}

/** Asks the host to pause the run for a person's decision about one tool call, handing over the loop's progress. */
function askApproval(ctx: BlockRunContext<AgentConfig>, ask: ApprovalAsk) {
  return ctx.services.awaitApproval!({
    blockId: ctx.blockId,
    key: `${ctx.blockId}:${ask.step}:${ask.call.id}`,
    message: `${ctx.blockName} asks to call the tool ${ask.call.name}`,
    ...(ask.approval.timeoutMs !== undefined ? { timeoutMs: ask.approval.timeoutMs } : {}),
    defaultDecision: ask.approval.defaultDecision,
    toolCall: ask.call,
    checkpoint: ask.checkpoint,
    usage: { model: ctx.config.model, ...spentOn(ask.checkpoint.modelCalls) },
  });
}

export const agentBlock = defineBlock<AgentConfig>(agentForm, {
  configSchema: agentConfigSchema,
  keepsReference: agentKeepsReference,
  async run(ctx) {
    const { config } = ctx;
    const setup = PROVIDERS[config.provider];
    // Everything that can be refused without the network is refused before the model is paid for.
    const connection = resolveConnection(config, ctx.services);
    const structured = prepareResponseFormat(config.responseFormat);
    if (needsApproval(config.tools) && !ctx.services.awaitApproval) {
      throw new Error("A tool that needs approval cannot wait for it here (inside a sub-workflow or a workflow tool's workflow): the run cannot pause");
    }
    const resumeFrom = savedProgress(ctx);
    const opened: Array<{ close(): Promise<void> }> = [];
    // Tool calls in flight stop with the run, and also when the loop ends (an MCP server closed under them).
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    let unknownPrice = false;
    let loop;
    // The conversation so far, before this run's prompt; loaded before the model is paid for.
    const memory = config.memory && { ...config.memory, store: requireMemory(ctx.services.memory) };
    const earlier = memory ? memoryTurns(await memory.store.load(memory.key, memory.lastMessages)) : [];
    try {
      const tools = await openTools(config, ctx, signal, opened);
      loop = await runAgentLoop({
        provider: setup.provider,
        connection,
        request: {
          model: config.model,
          systemPrompt: config.systemPrompt || undefined,
          userPrompt: config.userPrompt,
          temperature: config.temperature,
          maxTokens: config.maxTokens,
          responseFormat: structured?.format,
          ...(earlier.length > 0 ? { earlier } : {}),
        },
        tools,
        maxSteps: config.maxSteps,
        ...(config.maxCostUsd !== undefined ? { maxCostUsd: config.maxCostUsd } : {}),
        price: ({ reportedModel, tokens }) => {
          const names = [config.model, ...(reportedModel ? [reportedModel] : [])];
          const priced = priceUsage(names, tokens, ctx.services.providerEnv('SLUICE_MODEL_PRICING'));
          if (!priced.known) unknownPrice = true;
          return priced.cost;
        },
        signal,
        onToken: (text) => ctx.emitChunk(text),
        onProgress: (progress) => ctx.emitProgress(progress),
        timeoutMs: config.timeoutMs,
        retries: config.retries,
        ...(resumeFrom ? { resumeFrom } : {}),
        askApproval: (ask) => askApproval(ctx, ask),
      });
    } finally {
      stop.abort();
      await Promise.allSettled(opened.map((server) => server.close()));
    }

    const { tokens, cost } = spentOn(loop.modelCalls);
    const output: Record<string, unknown> = {
      content: loop.content,
      // The configured name, not the provider's dated variant: it is what users filter logs by.
      model: config.model,
      tokens,
      cost,
    };
    // A block without tools keeps the output it always had (one call, nothing to list).
    if (config.tools.length > 0) {
      output.toolCalls = loop.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        result: call.result,
        ...(call.error !== undefined ? { error: call.error } : {}),
        durationMs: call.durationMs,
        ...(call.approval ? { approval: call.approval } : {}),
      }));
      output.steps = loop.steps;
    }
    if (unknownPrice) output.pricing = 'unknown model';
    if (loop.modelCalls.some((call) => !call.usageReported)) output.usage = 'not reported by the provider';
    // One model call and no tools is the plain agent of old: its trace stays one span.
    const childSpans =
      config.tools.length === 0
        ? []
        : [
            // Step order first: a step's tool calls follow its model call, even when both started in the same
            // millisecond; within a step's parallel tool calls, by start.
            ...loop.modelCalls.map((call) => ({ step: call.step, tool: 0, at: call.startedAtMs, span: modelCallSpan(ctx, call, config.model) })),
            ...loop.toolCalls.map((call) => ({ step: call.step, tool: 1, at: call.startedAtMs, span: toolCallSpan(ctx, call) })),
          ]
            .sort((a, b) => a.step - b.step || a.tool - b.tool || a.at - b.at)
            .map((entry) => entry.span);
    const result = (out: Record<string, unknown>) => ({ output: out, ...(childSpans.length > 0 ? { childSpans } : {}) });

    // The calls were made and paid for either way, so a failure keeps tokens and cost in the (failed) output.
    if (loop.error !== undefined) return result({ ...output, error: loop.error });
    if (structured) {
      const answer = parseJsonAnswer(loop.content, structured.schema);
      if (!answer.ok) return result({ ...output, error: answer.error });
      output.content = answer.value;
    }
    if (memory) {
      // Only a conversation that reached its answer is kept: tool calls without their answer would mislead the next run.
      try {
        await memory.store.append(memory.key, runMessages(config.userPrompt, loop.turns));
      } catch (error) {
        return result({ ...output, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return result(output);
  },
});
