// How many times a container body runs, and over which items. forEach / collection sources may be a reference,
// JSON text (which may itself contain references) or a literal; objects iterate over their [key, value] entries.
import type { GraphNode } from './graph.js';
import type { RunContext } from './run-context.js';
import { createResolver, type ResolutionNotes } from './resolver.js';
import type { Scope } from './scope.js';

export interface IterationPlan {
  kind: 'loop' | 'parallel';
  count: number;
  /** The items of a forEach loop or collection parallel; null when iterating by count. */
  items: unknown[] | null;
  /** The container's settings, shown as the container span's input. */
  settings: unknown;
}

export function planIterations(run: RunContext, node: GraphNode, scope: Scope, notes: ResolutionNotes): IterationPlan {
  const label = `${node.kind === 'loop' ? 'Loop' : 'Parallel'} "${node.block.name}"`;
  const resolveItems = (source: unknown) =>
    toItems(run.outputs.resolve(node.block.name, source, createResolver(run, scope, notes)), label);
  let plan: IterationPlan;
  if (node.kind === 'loop') {
    const settings = run.state.loops[node.id];
    if (!settings) throw new Error(`${label} has no settings under loops`);
    if (settings.loopType === 'forEach') {
      const items = resolveItems(settings.forEachItems);
      plan = { kind: 'loop', count: items.length, items, settings };
    } else {
      plan = { kind: 'loop', count: toCount(settings.iterations, label, 'iterations'), items: null, settings };
    }
  } else {
    const settings = run.state.parallels[node.id];
    if (!settings) throw new Error(`${label} has no settings under parallels`);
    if (settings.parallelType === 'collection') {
      const items = resolveItems(settings.distribution);
      plan = { kind: 'parallel', count: items.length, items, settings };
    } else {
      plan = { kind: 'parallel', count: toCount(settings.count, label, 'count'), items: null, settings };
    }
  }
  const max = run.limits.maxLoopIterations;
  if (plan.count > max) {
    const unit = plan.kind === 'loop' ? 'iterations' : 'branches';
    throw new Error(`${label} would run ${plan.count} ${unit}, more than the limit of ${max}`);
  }
  return plan;
}

function toCount(value: unknown, label: string, field: string): number {
  const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    throw new Error(`${label} needs a whole number of ${field}, got ${JSON.stringify(value) ?? 'nothing'}`);
  }
  return count;
}

/** The items of a resolved forEach / collection source. */
function toItems(resolved: unknown, label: string): unknown[] {
  let value = resolved;
  if (typeof value === 'string') {
    const text = value.trim();
    // Nothing to iterate (an empty field, or a reference to a block that did not run) means zero iterations.
    if (text === '') return [];
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`${label} items must be an array, an object, or JSON text of one; got ${truncate(text)}`);
    }
  }
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') return Object.entries(value);
  throw new Error(`${label} items must be an array, an object, or JSON text of one; got ${typeof value}`);
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
