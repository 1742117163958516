// Code never has values spliced into it (docs/workflows.md 3): each reference in the source is replaced by an
// identifier, and its value travels to the sandbox as data under that name.
import { rewriteReferences } from '../sandbox/index.js';
import { findReferences } from '../workflow/index.js';
import type { BlockRunContext } from './types.js';

export interface CodeWithInputs {
  code: string;
  inputs: Record<string, unknown>;
}

export function referencesAsInputs(
  source: string,
  ctx: Pick<BlockRunContext<unknown>, 'lookupReference' | 'resolve'>,
): CodeWithInputs {
  const references = findReferences(source);
  if (references.length === 0) return { code: source, inputs: {} };
  // Env references go through resolve() so an undefined variable fails the block exactly like elsewhere.
  const values = references.map((ref) => (ref.kind === 'block' ? ctx.lookupReference(ref) : ctx.resolve(ref.raw)));
  const { code, names } = rewriteReferences(source, references);
  const inputs: Record<string, unknown> = {};
  names.forEach((name, index) => {
    inputs[name] = values[index] === undefined ? null : values[index];
  });
  return { code, inputs };
}
