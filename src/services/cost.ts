// An execution's cost: the base charge plus every model call, aggregated from the trace spans (which lift
// `tokens`, `cost` and `model` from block outputs), in the shape of the log detail's `cost` (docs/api.md 6.3).
import type { TokenUsage, TraceSpan } from '../engine/index.js';

export interface ModelCost {
  input: number;
  output: number;
  total: number;
  tokens: TokenUsage;
}

/** A type, not an interface, so it fits the `cost` jsonb column (an object of unknown keys) without a cast. */
export type ExecutionCost = {
  total: number;
  base: number;
  input: number;
  output: number;
  tokens: TokenUsage;
  models: Record<string, ModelCost>;
};

const zeroTokens = (): TokenUsage => ({ prompt: 0, completion: 0, total: 0 });

function spanCost(cost: unknown): { input: number; output: number; total: number } {
  if (typeof cost === 'number' && Number.isFinite(cost)) return { input: 0, output: 0, total: cost };
  if (cost && typeof cost === 'object') {
    const c = cost as Record<string, unknown>;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    const input = num(c.input);
    const output = num(c.output);
    return { input, output, total: typeof c.total === 'number' ? num(c.total) : input + output };
  }
  return { input: 0, output: 0, total: 0 };
}

/** Every span of this run. A workflow block's children are its sub-workflow's spans: that run's own log pays for them. */
function* walk(spans: TraceSpan[]): Generator<TraceSpan> {
  for (const span of spans) {
    yield span;
    if (span.children && span.type !== 'workflow') yield* walk(span.children);
  }
}

/** Rounds to 1e-9 USD so sums of many small float costs stay readable and stable. */
const round = (n: number) => Math.round(n * 1e9) / 1e9;

export function summarizeCost(spans: TraceSpan[], baseCostUsd: number): ExecutionCost {
  const result: ExecutionCost = { total: 0, base: baseCostUsd, input: 0, output: 0, tokens: zeroTokens(), models: {} };
  for (const span of walk(spans)) {
    if (!span.model && !span.tokens && span.cost === undefined) continue;
    const cost = spanCost(span.cost);
    const tokens = span.tokens ?? zeroTokens();
    result.input += cost.input;
    result.output += cost.output;
    result.total += cost.total;
    result.tokens.prompt += tokens.prompt;
    result.tokens.completion += tokens.completion;
    result.tokens.total += tokens.total;
    if (span.model) {
      const m = (result.models[span.model] ??= { input: 0, output: 0, total: 0, tokens: zeroTokens() });
      m.input = round(m.input + cost.input);
      m.output = round(m.output + cost.output);
      m.total = round(m.total + cost.total);
      m.tokens.prompt += tokens.prompt;
      m.tokens.completion += tokens.completion;
      m.tokens.total += tokens.total;
    }
  }
  result.total = round(result.total + baseCostUsd);
  result.input = round(result.input);
  result.output = round(result.output);
  return result;
}

export interface FullCost {
  total: number;
  tokens: TokenUsage;
  models: Record<string, ModelCost>;
}

/** `cost` of the log detail: total, tokens and per-model figures (the stored base/input/output stay internal). */
export function toFullCost(costTotal: number, stored: unknown): FullCost {
  // Written by runs/run-execution.ts from summarizeCost, so it has this shape whenever it is present.
  const cost = stored as Partial<ExecutionCost> | null;
  return {
    total: costTotal,
    // In jsonb's key order, as a stored `{prompt: 0, …}` reads back: a run whose cost was not stored (storedCost)
    // answers exactly as one whose zeros were.
    tokens: cost?.tokens ?? { total: 0, prompt: 0, completion: 0 },
    models: cost?.models ?? {},
  };
}

/**
 * What the log row keeps of a run's cost: nothing (null) when the run used no model — its answer is then the total
 * alone, which `cost_total` holds, and toFullCost rebuilds the rest — and the whole cost otherwise. Most runs use no
 * model, and the object was ~200 of a small run's ~1,200 row bytes (bench/REPORT.md, log-storage).
 */
export function storedCost<C extends Partial<ExecutionCost>>(cost: C | null): C | null {
  if (!cost) return cost;
  const t = cost.tokens;
  const noTokens = !t || (t.prompt === 0 && t.completion === 0 && t.total === 0);
  return noTokens && Object.keys(cost.models ?? {}).length === 0 ? null : cost;
}
