// Trace span construction. Usage fields (tokens, cost, model) are lifted from a block's output by shape, so a
// block reporting them (the agent block) needs no engine change of its own.
import { isoTime } from '../iso-time.js';
import { newSpanId } from './span-ids.js';
import type { CostBreakdown, SpanStatus, TokenUsage, TraceSpan } from './types.js';

export interface SpanInit {
  blockId: string;
  name: string;
  type: string;
  status: SpanStatus;
  startedAtMs: number;
  endedAtMs: number;
  input: unknown;
  output: unknown;
  error?: string;
  unresolvedReferences?: string[];
  children?: TraceSpan[];
  /** Replaces the usage otherwise lifted from the output (a retried block's span sums its attempts). */
  usage?: SpanUsage;
}

/** What a span reports of model use. */
export interface SpanUsage {
  tokens?: TokenUsage;
  cost?: number | CostBreakdown;
  model?: string;
}

export function makeSpan(init: SpanInit): TraceSpan {
  const span: TraceSpan = {
    id: newSpanId(),
    blockId: init.blockId,
    name: init.name,
    type: init.type,
    status: init.status,
    startTime: isoTime(init.startedAtMs),
    endTime: isoTime(init.endedAtMs),
    duration: init.endedAtMs - init.startedAtMs,
    input: init.input,
    output: init.output,
  };
  if (init.error !== undefined) span.error = init.error;
  if (init.unresolvedReferences && init.unresolvedReferences.length > 0) {
    span.unresolvedReferences = init.unresolvedReferences;
  }
  if (init.children) span.children = init.children;
  const usage = init.usage ?? liftUsage(init.output);
  if (usage.tokens) span.tokens = usage.tokens;
  if (usage.cost !== undefined) span.cost = usage.cost;
  if (usage.model !== undefined) span.model = usage.model;
  return span;
}

export function liftUsage(output: unknown): SpanUsage {
  if (!isRecord(output)) return {};
  const usage: SpanUsage = {};
  const tokens = output.tokens;
  if (isRecord(tokens) && isTokenUsage(tokens)) usage.tokens = tokens;
  // The agent block reports {input, output, total}; services/cost.ts sums either shape into cost.models.
  const cost = output.cost;
  if (typeof cost === 'number') usage.cost = cost;
  else if (isRecord(cost) && isCostBreakdown(cost)) usage.cost = { input: cost.input, output: cost.output, total: cost.total };
  if (typeof output.model === 'string') usage.model = output.model;
  return usage;
}

/** Several calls' usage as one: tokens and costs added (a plain-number cost counts as a total), the last model. */
export function sumUsage(parts: SpanUsage[]): SpanUsage {
  const sum: SpanUsage = {};
  for (const part of parts) {
    if (part.tokens) {
      const t = sum.tokens ?? { prompt: 0, completion: 0, total: 0 };
      sum.tokens = { prompt: t.prompt + part.tokens.prompt, completion: t.completion + part.tokens.completion, total: t.total + part.tokens.total };
    }
    if (part.cost !== undefined) sum.cost = addCost(sum.cost, part.cost);
    if (part.model !== undefined) sum.model = part.model;
  }
  return sum;
}

function addCost(a: number | CostBreakdown | undefined, b: number | CostBreakdown): number | CostBreakdown {
  if (a === undefined) return b;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  const asBreakdown = (c: number | CostBreakdown): CostBreakdown => (typeof c === 'number' ? { input: 0, output: 0, total: c } : c);
  const x = asBreakdown(a);
  const y = asBreakdown(b);
  return { input: x.input + y.input, output: x.output + y.output, total: x.total + y.total };
}

function isTokenUsage(value: Record<string, unknown>): value is Record<string, unknown> & TokenUsage {
  return typeof value.prompt === 'number' && typeof value.completion === 'number' && typeof value.total === 'number';
}

function isCostBreakdown(value: Record<string, unknown>): value is Record<string, unknown> & CostBreakdown {
  return typeof value.input === 'number' && typeof value.output === 'number' && typeof value.total === 'number';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Spans are collected as blocks finish; a waterfall reads better in start order. */
export function sortByStart(spans: TraceSpan[]): TraceSpan[] {
  return spans.sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));
}
