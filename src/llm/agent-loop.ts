// The agent loop: model → tool calls (run in parallel when the model asks for several) → results back to the model →
// … until an answer without tool calls, maxSteps model calls, or maxCostUsd spent. A tool that fails, or arguments
// that do not match the tool's schema, are answered to the model as an error result: the model may correct itself.
// Only the loop running out (or the run being stopped) ends it without an answer.
//
// A tool that needs approval is asked about (`askApproval`) before each call; the host may pause the run there for
// good. So the loop hands its progress with each question (an AgentCheckpoint: the conversation, every model and tool
// call so far, and the step being answered), and a resumed run starts from it (`resumeFrom`): no model call is made
// twice. In a step with several calls, those that need no approval run at once; each call that needs one is asked
// about in order, and the model gets the step's results when all are answered.
import type { z } from 'zod';
import { callModel } from './call-model.js';
import { compileSchema } from './json-output.js';
import type { ModelCost } from './pricing.js';
import type { AgentTool, ToolApproval } from './tools.js';
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
  /** Progress saved when the loop last asked for an approval: the loop goes on from there. */
  resumeFrom?: AgentCheckpoint;
  /**
   * Asks a person about a call of a tool that needs approval. May never settle (the run pauses and is resumed
   * later, from `checkpoint`). Without it, such calls are answered to the model as refused.
   */
  askApproval?(ask: ApprovalAsk): Promise<ToolCallDecision>;
}

export interface ApprovalAsk {
  step: number;
  call: { id: string; name: string; arguments: unknown };
  approval: ToolApproval;
  checkpoint: AgentCheckpoint;
}

export interface ToolCallDecision {
  approved: boolean;
  /** What the decider sent along; a rejection's reason is told to the model. */
  data: unknown;
  decidedBy: string | null;
  decidedAt: string;
}

/** A tool call's answer: what the log keeps, and what the model reads. */
interface Answer {
  record: ToolCallRecord;
  message: ToolResultMessage;
}

/** Everything the loop needs to go on where it stopped for an approval (plain data: it is stored with the run). */
export interface AgentCheckpoint {
  version: 1;
  history: ConversationTurn[];
  modelCalls: ModelCallRecord[];
  toolCalls: ToolCallRecord[];
  /** The step whose tool calls were being answered: its model call is in modelCalls, its answers so far here. */
  pending: { step: number; content: string; calls: ToolCallRequest[]; answers: Array<Answer | null> };
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
  /** For a tool that needs approval: the decision its call got. */
  approval?: { approved: boolean; decidedBy: string | null; decidedAt: string };
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
  const resumed = options.resumeFrom;
  const history: ConversationTurn[] = resumed ? [...resumed.history] : [];
  const modelCalls: ModelCallRecord[] = resumed ? [...resumed.modelCalls] : [];
  const toolCalls: ToolCallRecord[] = resumed ? [...resumed.toolCalls] : [];
  let spent = modelCalls.reduce((sum, call) => addCost(sum, call.cost), ZERO_COST);
  const finish = (content: string, error?: string): AgentLoopResult => ({
    content,
    steps: modelCalls.length,
    modelCalls,
    toolCalls,
    ...(error !== undefined ? { error } : {}),
    turns: error === undefined ? [...history, { role: 'assistant', content, toolCalls: [] }] : history,
  });
  /** Answers one step's tool calls and adds the step to the conversation. */
  const answerStep = async (pending: AgentCheckpoint['pending']) => {
    const answers = await answerCalls(pending, tools, options, () => ({
      version: 1,
      history: [...history],
      modelCalls: [...modelCalls],
      toolCalls: [...toolCalls],
      pending: { ...pending, answers: [...pending.answers] },
    }));
    if (options.signal.aborted) throw options.signal.reason;
    toolCalls.push(...answers.map((answer) => answer.record));
    history.push({ role: 'assistant', content: pending.content, toolCalls: pending.calls });
    history.push({ role: 'tool', results: answers.map((answer) => answer.message) });
  };

  if (resumed) await answerStep({ ...resumed.pending, answers: [...resumed.pending.answers] });
  for (let step = modelCalls.length + 1; step <= options.maxSteps; step++) {
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
    await answerStep({ step, content: result.content, calls, answers: calls.map(() => null) });
  }
  return finish('', `The agent reached maxSteps (${options.maxSteps} model calls) without a final answer`);
}

/** The model's arguments checked against the tool: ready to call, or already answered with why not. */
type Checked = { answer: Answer } | { prepared: PreparedTool; args: unknown };

/**
 * Answers a step's calls: those that need no approval at once (in parallel), then each one that needs approval in
 * order, once decided. `pending.answers` fills in as they come, so a checkpoint taken at a question holds them.
 */
async function answerCalls(
  pending: AgentCheckpoint['pending'],
  tools: Map<string, PreparedTool>,
  options: AgentLoopOptions,
  checkpoint: () => AgentCheckpoint,
): Promise<Answer[]> {
  const { step, calls, answers } = pending;
  const checked = calls.map((call, index) => (answers[index] ? undefined : checkCall(call, step, tools, options.onProgress)));
  const settle = (index: number, answer: Answer) => {
    answers[index] = answer;
  };
  await Promise.all(
    checked.map(async (check, index) => {
      if (!check) return;
      if ('answer' in check) settle(index, check.answer);
      else if (!check.prepared.tool.approval) settle(index, await runTool(calls[index]!, step, check, options));
    }),
  );
  for (const [index, check] of checked.entries()) {
    if (!check || 'answer' in check || !check.prepared.tool.approval) continue;
    const call = calls[index]!;
    if (!options.askApproval) {
      settle(index, answerWith(call, step, check.args, options.onProgress, Date.now(), null, 'This tool needs a person to approve each call, which this agent cannot ask for'));
      continue;
    }
    // When the run pauses for the answer, it never comes here: the wait ends with the run's signal instead.
    const decision = await untilAborted(
      options.askApproval({
        step,
        call: { id: call.id, name: call.name, arguments: check.args },
        approval: check.prepared.tool.approval,
        checkpoint: checkpoint(),
      }),
      options.signal,
    );
    const approval = { approved: decision.approved, decidedBy: decision.decidedBy, decidedAt: decision.decidedAt };
    settle(
      index,
      decision.approved
        ? await runTool(call, step, check, options, { approval })
        : answerWith(call, step, check.args, options.onProgress, Date.now(), null, refusal(decision.data), { approval }),
    );
  }
  return answers.map((answer) => answer!);
}

/** `work`, or the signal's reason once it aborts first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stopped = () => reject(signal.reason);
    signal.addEventListener('abort', stopped, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stopped));
  });
}

/** What the model is told of a rejected call: that it was refused, and why when the decider said. */
function refusal(data: unknown): string {
  const text = 'A person refused this call; it was not run';
  if (data === undefined || data === null) return text;
  if (typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    if (Object.keys(record).length === 0) return text;
    const said = record.reason ?? record.note;
    if (typeof said === 'string' && said.trim() !== '') return `${text}. Reason: ${said}`;
  }
  return `${text}. Reason: ${resultText(data)}`;
}

function answerWith(
  call: ToolCallRequest,
  step: number,
  args: unknown,
  onProgress: AgentLoopOptions['onProgress'],
  startedAtMs: number,
  result: unknown,
  error?: string,
  extra: Partial<ToolCallRecord> = {},
): Answer {
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
}

function checkCall(call: ToolCallRequest, step: number, tools: Map<string, PreparedTool>, onProgress: AgentLoopOptions['onProgress']): Checked {
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
  const refuse = (error: string): Checked => ({ answer: answerWith(call, step, args, onProgress, startedAtMs, null, error) });
  const prepared = tools.get(call.name);
  if (!prepared) return refuse(`There is no tool named "${call.name}"; the tools are: ${[...tools.keys()].join(', ')}`);
  if (!parsed) return refuse('The arguments are not valid JSON');
  const checked = prepared.schema.safeParse(args);
  if (!checked.success) return refuse(`The arguments do not match the tool's parameters: ${describeIssues(checked.error)}`);
  return { prepared, args };
}

async function runTool(
  call: ToolCallRequest,
  step: number,
  ready: { prepared: PreparedTool; args: unknown },
  options: Pick<AgentLoopOptions, 'signal' | 'onProgress'>,
  extra: Partial<ToolCallRecord> = {},
): Promise<Answer> {
  const { signal, onProgress } = options;
  const startedAtMs = Date.now();
  const detail: Partial<ToolCallRecord> = { ...extra };
  try {
    const result = await ready.prepared.tool.call(ready.args, {
      signal,
      report: ({ executionId, spans }) => {
        detail.executionId = executionId;
        detail.childSpans = spans;
      },
    });
    return answerWith(call, step, ready.args, onProgress, startedAtMs, result === undefined ? null : result, undefined, detail);
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    return answerWith(call, step, ready.args, onProgress, startedAtMs, null, error instanceof Error ? error.message : String(error), detail);
  }
}
