// New block ids and the state a new workflow starts with. Apart from catalog.ts because the workflow list needs them:
// this module imports no zod schema (src/blocks/forms.ts is plain data), so the list's chunk stays small and the
// server's schemas load with the editor only.
import { apiTriggerForm } from '../../../src/blocks/forms.js';
import type { Block, WorkflowState } from '../types.js';

export function newBlockId(): string {
  return `b_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** A new workflow starts with its API trigger, the way most are called. */
export function starterState(): WorkflowState {
  const id = newBlockId();
  const start: Block = {
    id,
    type: apiTriggerForm.type,
    name: apiTriggerForm.baseName,
    position: { x: 80, y: 200 },
    enabled: true,
    config: apiTriggerForm.defaultConfig(),
  };
  return { blocks: { [id]: start }, edges: [], loops: {}, parallels: {} };
}
