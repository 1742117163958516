// How `<name.path>` references find their block: names compare lowercased with every whitespace removed.
import type { Block, WorkflowState } from './state.js';

/** Names that address run-time scopes rather than blocks, so no block may take them. */
export const RESERVED_REFERENCE_NAMES = ['loop', 'parallel', 'variable'] as const;
export type ReservedReferenceName = (typeof RESERVED_REFERENCE_NAMES)[number];

/** `<api.x>` reaches the API trigger whatever it is named (docs/workflows.md 3); likewise for the other triggers. */
const TRIGGER_ALIASES: ReadonlyArray<readonly [alias: string, blockType: string]> = [
  ['api', 'api_trigger'],
  ['webhook', 'webhook_trigger'],
  ['schedule', 'schedule_trigger'],
  ['chat', 'chat_trigger'],
  ['queue', 'queue_trigger'],
];

export function normalizeBlockName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}

export function isReservedReferenceName(name: string): name is ReservedReferenceName {
  return (RESERVED_REFERENCE_NAMES as readonly string[]).includes(name);
}

/**
 * Normalized name -> block id. Precedence, highest first: block names (first block wins on a clash, which
 * validation rejects anyway), block ids (as written and normalized, so `<Block1.x>` finds id `Block1`),
 * then trigger aliases.
 */
export function indexBlockNames(blocks: Iterable<Pick<Block, 'id' | 'name' | 'type'>>): Map<string, string> {
  const list = [...blocks];
  const index = new Map<string, string>();
  const claim = (key: string, id: string) => {
    if (key !== '' && !index.has(key)) index.set(key, id);
  };
  for (const block of list) claim(normalizeBlockName(block.name), block.id);
  for (const block of list) {
    claim(block.id, block.id);
    claim(normalizeBlockName(block.id), block.id);
  }
  for (const [alias, blockType] of TRIGGER_ALIASES) {
    const trigger = list.find((block) => block.type === blockType);
    if (trigger) claim(alias, trigger.id);
  }
  return index;
}

export function buildNameIndex(state: WorkflowState): Map<string, string> {
  return indexBlockNames(Object.values(state.blocks));
}
