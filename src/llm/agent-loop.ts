// The agent loop: model → tool calls (run in parallel when the model asks for several) → results back to the model →
// … until an answer without tool calls, maxSteps model calls, or maxCostUsd spent. A tool that fails, or arguments
// that do not match the tool's schema, are answered to the model as an error result: the model may correct itself.
// Only the loop running out (or the run being stopped) ends it without an answer.
import type { z } from 'zod';
import { callModel } from './call-model.js';
import { compileSchema } from './json-output.js';
import type { ModelCost } from './pricing.js';
import type { AgentTool } from './tools.js';
import type {
  ChatRequest,
  ConversationTurn,
  LlmProvider,
  ProviderConnection,
  TokenCounts,
  ToolCallRequest,
  ToolResultMessage,
} from './types.js';

export interface AgentLoopOptions {
  provider: LlmProvider;
  connection: ProviderConnection;
  request: Omit<ChatRequest, 'tools' | 'history'>;
  tools: AgentTool[];
  maxSteps: number;
  maxCostUsd?: number;
  /** What one model call cost (the block prices by its configured model name). */
  price(call: { reportedModel?: string; tokens: TokenCounts }): ModelCost;
  signal: AbortSignal;
  /** Text of the final answer only. */
  onToken(text: string): void;
  timeoutMs: number;
  retries: number;
  retryBaseMs?: number;
  /** Each model call's end, and each tool call as it starts and ends (streamed to callers that ask for events). */
  onProgress?(progress: AgentProgress): void;
}

export type AgentProgress =
  | { event: 'step'; step: number; toolCalls: number; tokens: TokenCounts }
  | { event: 'tool_call'; step: number; id: string; name: string; arguments: unknown }
  | { event: 'tool_result'; step: number; id: string; name: string; result: unknown; error?: string; durationMs: number };

export interface ModelCallRecord {
  step: number;
  startedAtMs: number;
  endedAtMs: number;
  tokens: TokenCounts;
  usageReported: boolean;
  cost: ModelCost;
  reportedModel?: string;
  toolCalls: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  step: number;
  /** As parsed from the model's text; the raw text when it was not JSON. */
  arguments: unknown;
  result: unknown;
  error?: string;
  durationMs: number;
  startedAtMs: number;
  endedAtMs: number;
  /** A workflow tool's child execution. */
  executionId?: string | null;
  childSpans?: readonly object[];
}

export interface AgentLoopResult {
  content: string;
  steps: number;
  modelCalls: ModelCallRecord[];
  toolCalls: ToolCallRecord[];
  /** Set when the loop ended without a final answer (maxSteps, maxCostUsd, or a model call that failed). */
  error?: string;
  /** The conversation after the user prompt: the model's tool-calling turns with their results, then its answer. */
  turns: ConversationTurn[];
}

interface PreparedTool {
  tool: AgentTool;
  schema: z.ZodType;
}

/** Each tool's schema compiled once, before the model is paid for. Throws with the tool named when one is unusable. */
export function prepareTools(tools: AgentTool[]): Map<string, PreparedTool> {
  const prepared = new Map<string, PreparedTool>();
  for (const tool of tools) {
    if (prepared.has(tool.name)) throw new Error(`Two tools are named "${tool.name}"; tool names must be unique`);
    const schema = compileSchema({ name: tool.name, schema: tool.parameters });
    if (typeof schema === 'string') throw new Error(`Tool "${tool.name}": ${schema.replace(/^responseFormat/, 'parameters')}`);
    prepared.set(tool.name, { tool, schema });
  }
  return prepared;
}

const round = (usd: number) => Math.round(usd * 1e9) / 1e9;
const ZERO_COST: ModelCost = { input: 0, output: 0, total: 0 };
const addCost = (a: ModelCost, b: ModelCost): ModelCost => ({ input: a.input + b.input, output: a.output + b.output, total: a.total + b.total });

function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'null';
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const tools = prepareTools(options.tools);
  const specs = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const history: ConversationTurn[] = [];
  const modelCalls: ModelCallRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let spent = ZERO_COST;
  const finish = (content: string, error?: string): AgentLoopResult => ({
    content,
    steps: modelCalls.length,
    modelCalls,
    toolCalls,
    ...(error !== undefined ? { error } : {}),
    turns: error === undefined ? [...history, { role: 'assistant', content, toolCalls: [] }] : history,
  });

  for (let step = 1; step <= options.maxSteps; step++) {
    // With tools, a step's text is only known to be the final answer once its call ended without tool calls, so it
    // is held until then; without tools every call is final and streams as it comes.
    const held: string[] = [];
    const startedAtMs = Date.now();
    let result;
    try {
      result = await callModel({
        provider: options.provider,
        connection: options.connection,
        request: { ...options.request, ...(specs.length > 0 ? { tools: specs } : {}), history },
        signal: options.signal,
        onToken: specs.length > 0 ? (text) => held.push(text) : options.onToken,
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}),
      });
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason ?? error;
      // The earlier steps were paid for: the caller keeps their cost and reports this as the block's error.
      if (modelCalls.length === 0) throw error;
      return finish('', error instanceof Error ? error.message : String(error));
    }
    const tokens = result.usage ?? { prompt: 0, completion: 0, total: 0 };
    const cost = options.price({ reportedModel: result.reportedModel, tokens });
    spent = addCost(spent, cost);
    const calls = result.toolCalls ?? [];
    modelCalls.push({
      step,
      startedAtMs,
      endedAtMs: Date.now(),
      tokens,
      usageReported: result.usage !== undefined,
      cost,
      ...(result.reportedModel ? { reportedModel: result.reportedModel } : {}),
      toolCalls: calls.length,
    });
    options.onProgress?.({ event: 'step', step, toolCalls: calls.length, tokens });
    if (calls.length === 0) {
      for (const text of held) options.onToken(text);
      return finish(result.content);
    }
    if (options.maxCostUsd !== undefined && spent.total >= options.maxCostUsd) {
      return finish('', `The agent reached maxCostUsd (${options.maxCostUsd} USD; spent ${round(spent.total)}) without a final answer`);
    }
    if (step === options.maxSteps) break;
    const results = await Promise.all(calls.map((call) => runToolCall(call, step, tools, options.signal, options.onProgress)));
    if (options.signal.aborted) throw options.signal.reason;
    toolCalls.push(...results.map((r) => r.record));
    history.push({ role: 'assistant', content: result.content, toolCalls: calls });
    history.push({ role: 'tool', results: results.map((r) => r.message) });
  }
  return finish('', `The agent reached maxSteps (${options.maxSteps} model calls) without a final answer`);
}

async function runToolCall(
  call: ToolCallRequest,
  step: number,
  tools: Map<string, PreparedTool>,
  signal: AbortSignal,
  onProgress: AgentLoopOptions['onProgress'],
): Promise<{ record: ToolCallRecord; message: ToolResultMessage }> {
  const startedAtMs = Date.now();
  let args: unknown = call.arguments;
  let parsed = false;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    parsed = true;
  } catch {
    // Answered below, once the call has been reported with the text the model sent.
  }
  onProgress?.({ event: 'tool_call', step, id: call.id, name: call.name, arguments: args });
  const record = (result: unknown, error?: string, extra: Partial<ToolCallRecord> = {}) => {
    const endedAtMs = Date.now();
    onProgress?.({
      event: 'tool_result',
      step,
      id: call.id,
      name: call.name,
      result,
      ...(error !== undefined ? { error } : {}),
      durationMs: endedAtMs - startedAtMs,
    });
    return {
      record: {
        id: call.id,
        name: call.name,
        step,
        arguments: args,
        result,
        ...(error !== undefined ? { error } : {}),
        durationMs: endedAtMs - startedAtMs,
        startedAtMs,
        endedAtMs,
        ...extra,
      },
      message: { callId: call.id, name: call.name, content: error !== undefined ? `Error: ${error}` : resultText(result), isError: error !== undefined },
    };
  };
  const prepared = tools.get(call.name);
  if (!prepared) return record(null, `There is no tool named "${call.name}"; the tools are: ${[...tools.keys()].join(', ')}`);
  if (!parsed) return record(null, 'The arguments are not valid JSON');
  const checked = prepared.schema.safeParse(args);
  if (!checked.success) return record(null, `The arguments do not match the tool's parameters: ${describeIssues(checked.error)}`);
  // Nothing here can pause the run for a person yet; a tool that wants one is never run unreviewed.
  if (prepared.tool.requiresApproval) return record(null, 'This tool needs a person to approve each call, which this agent cannot ask for');
  const extra: Partial<ToolCallRecord> = {};
  try {
    const result = await prepared.tool.call(args, {
      signal,
      report: ({ executionId, spans }) => {
        extra.executionId = executionId;
        extra.childSpans = spans;
      },
    });
    return record(result === undefined ? null : result, undefined, extra);
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    return record(null, error instanceof Error ? error.message : String(error), extra);
  }
}
