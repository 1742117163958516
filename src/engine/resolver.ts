// The one reference resolver of a block run: `<block.path>` through the scope chain, `<loop.*>`, `<parallel.*>`,
// `<variable.*>`, and `{{ENV}}`. References to blocks that have not run give null and are noted for the trace.
import type { BlockReference, ReferenceResolver } from '../workflow/index.js';
import { getPath } from '../workflow/index.js';
import type { RunContext } from './run-context.js';
import { findFrame, findOutput, type Scope } from './scope.js';

export interface ResolutionNotes {
  /** Raw text of references that resolved to null because their target had not run (or does not exist). */
  unresolved: string[];
  /** True once an environment variable was read, so the trace input must be re-rendered without its value. */
  usedEnv: boolean;
}

export function newNotes(): ResolutionNotes {
  return { unresolved: [], usedEnv: false };
}

export function createResolver(run: RunContext, scope: Scope, notes: ResolutionNotes): ReferenceResolver {
  const unresolved = (ref: BlockReference): null => {
    if (!notes.unresolved.includes(ref.raw)) notes.unresolved.push(ref.raw);
    return null;
  };
  const found = (value: unknown): unknown => (value === undefined ? null : value);
  return {
    block(ref) {
      if (ref.name === 'loop' || ref.name === 'parallel') {
        const frame = findFrame(scope, ref.name);
        return frame ? found(getPath(frame, ref.path)) : unresolved(ref);
      }
      if (ref.name === 'variable') {
        const [name, ...rest] = ref.path;
        if (typeof name !== 'string' || !run.variables.has(name)) return unresolved(ref);
        return found(getPath(run.variables.get(name), rest));
      }
      const blockId = run.graph.nameIndex.get(ref.name);
      const output = blockId === undefined ? undefined : findOutput(scope, blockId);
      return output === undefined ? unresolved(ref) : found(getPath(output, ref.path));
    },
    env(name) {
      const value = run.env[name];
      if (value === undefined || !Object.hasOwn(run.env, name)) {
        throw new Error(`Environment variable ${name} is not defined`);
      }
      notes.usedEnv = true;
      return value;
    },
  };
}

/** Same lookups, but environment references render as `{{NAME}}`: what the trace shows instead of secrets. */
export function createMaskingResolver(run: RunContext, scope: Scope): ReferenceResolver {
  const plain = createResolver(run, scope, newNotes());
  return { block: (ref) => plain.block(ref), env: (name) => `{{${name}}}` };
}
