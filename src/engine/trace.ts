// Trace span construction. Usage fields (tokens, cost, model) are lifted from a block's output by shape, so a
// block reporting them (the agent block, later) needs no engine change.
import { randomUUID } from 'node:crypto';
import type { BlockOutput, SpanStatus, TokenUsage, TraceSpan } from './types.js';

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
  if (typeof output.cost === 'number') span.cost = output.cost;
  if (typeof output.model === 'string') span.model = output.model;
}

function isTokenUsage(value: Record<string, unknown>): value is Record<string, unknown> & TokenUsage {
  return typeof value.prompt === 'number' && typeof value.completion === 'number' && typeof value.total === 'number';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Spans are collected as blocks finish; a waterfall reads better in start order. */
export function sortByStart(spans: TraceSpan[]): TraceSpan[] {
  return spans.sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));
}
