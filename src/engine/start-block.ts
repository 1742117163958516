// Which trigger block starts a run. A manual run (the editor) starts at the API trigger, whose Input Format values
// stand in for a request; a workflow with no API trigger but exactly one other trigger starts there instead.
import type { BlockDefinition } from '../blocks/types.js';
import type { WorkflowState } from '../workflow/index.js';
import type { RunTrigger } from './types.js';

export function findStartBlock(
  state: WorkflowState,
  registry: Record<string, BlockDefinition>,
  trigger: RunTrigger,
): string | null {
  const triggers = Object.values(state.blocks).filter((block) => registry[block.type]?.trigger !== undefined);
  if (trigger.blockId !== undefined) {
    return triggers.some((block) => block.id === trigger.blockId) ? trigger.blockId : null;
  }
  const kindOf = (type: string) => registry[type]?.trigger;
  const matching = triggers.find((block) => kindOf(block.type) === trigger.type);
  if (matching) return matching.id;
  if (trigger.type !== 'manual') return null;
  const api = triggers.find((block) => kindOf(block.type) === 'api');
  if (api) return api.id;
  return triggers.length === 1 ? triggers[0]!.id : null;
}
