// Where references look for values. Each container iteration gets its own scope over its parent, so inner blocks
// see their own iteration's outputs, and code outside sees whatever was merged up when the container finished.
import type { BlockOutput } from './types.js';

export interface IterationFrame {
  kind: 'loop' | 'parallel';
  index: number;
  currentItem: unknown;
  /** The forEach / collection items; null for counted loops and parallels. */
  items: unknown[] | null;
}

export interface Scope {
  outputs: Map<string, BlockOutput>;
  parent: Scope | null;
  frame: IterationFrame | null;
}

export function rootScope(): Scope {
  return { outputs: new Map(), parent: null, frame: null };
}

export function childScope(parent: Scope, frame: IterationFrame): Scope {
  return { outputs: new Map(), parent, frame };
}

export function findOutput(scope: Scope, blockId: string): BlockOutput | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) {
    const output = current.outputs.get(blockId);
    if (output !== undefined) return output;
  }
  return undefined;
}

/** The innermost loop (or parallel) around the scope, so `<loop.index>` in a nested loop means the inner one. */
export function findFrame(scope: Scope, kind: IterationFrame['kind']): IterationFrame | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) {
    if (current.frame?.kind === kind) return current.frame;
  }
  return undefined;
}

/** After a container ends, later iterations win, so outside references see the last iteration's outputs. */
export function mergeIterationOutputs(target: Scope, iterations: Scope[]): void {
  for (const iteration of iterations) {
    for (const [blockId, output] of iteration.outputs) target.outputs.set(blockId, output);
  }
}
