// Pinned data (docs/workflows.md "Pinned data"): which blocks can be pinned. A manual run uses a pinned output instead
// of running the block; the server ignores pins where a run would work the block out again anyway.
import { isContainer } from './model';
import { specOf } from './catalog';

/** Blocks a run works out again from their inputs whatever is recorded (src/blocks: `replay: 'rerun'`). */
const WORKED_OUT_AGAIN = ['variables', 'response'];

export function canPin(type: string): boolean {
  return !isContainer(type) && !specOf(type).trigger && !WORKED_OUT_AGAIN.includes(type);
}

/** An output a pin can hold: a JSON object, as every block output is. */
export function isPinnableOutput(output: unknown): output is Record<string, unknown> {
  return typeof output === 'object' && output !== null && !Array.isArray(output);
}
