// Trace span construction. Usage fields (tokens, cost, model) are lifted from a block's output by shape, so a
// block reporting them (the agent block) needs no engine change of its own.
import { randomUUID } from 'node:crypto';
import type { BlockOutput, CostBreakdown, SpanStatus, TokenUsage, TraceSpan } from './types.js';

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
}

export function makeSpan(init: SpanInit): TraceSpan {
  const span: TraceSpan = {
    id: randomUUID(),
    blockId: init.blockId,
    name: init.name,
    type: init.type,
    status: init.status,
    startTime: new Date(init.startedAtMs).toISOString(),
    endTime: new Date(init.endedAtMs).toISOString(),
    duration: init.endedAtMs - init.startedAtMs,
    input: init.input,
    output: init.output,
  };
  if (init.error !== undefined) span.error = init.error;
  if (init.unresolvedReferences && init.unresolvedReferences.length > 0) {
    span.unresolvedReferences = init.unresolvedReferences;
  }
  if (init.children) span.children = init.children;
  if (isRecord(init.output)) addUsage(span, init.output);
  return span;
}

function addUsage(span: TraceSpan, output: BlockOutput): void {
  const tokens = output.tokens;
  if (isRecord(tokens) && isTokenUsage(tokens)) span.tokens = tokens;
  // The agent block reports {input, output, total}; services/cost.ts sums either shape into cost.models.
  const cost = output.cost;
  if (typeof cost === 'number') span.cost = cost;
  else if (isRecord(cost) && isCostBreakdown(cost)) span.cost = { input: cost.input, output: cost.output, total: cost.total };
  if (typeof output.model === 'string') span.model = output.model;
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
