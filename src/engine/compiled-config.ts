// What a deployed block's config costs only once. A deployed state is one frozen object shared by every run of that
// deployment (runs/deployed-workflow.ts), so the references in its config texts are found once instead of per run,
// and a config with no reference at all — it resolves to itself — is measured and checked against the block's
// schema once: every run would get the same answer. Drafts (not frozen) may change between runs and are compiled
// every time, as before.
import type { BlockDefinition } from '../blocks/types.js';
import { deepFreeze } from '../deep-freeze.js';
import { jsonSize, scanValue, type Block, type ScannedValue } from '../workflow/index.js';

export interface CompiledConfig {
  definition: BlockDefinition;
  scanned: ScannedValue;
  /** Set when the config resolves to itself: its size and its schema check (the parsed value frozen: runs share it). */
  constant?: { size: number; parsed: ReturnType<BlockDefinition['configSchema']['safeParse']> };
}

const compiledBlocks = new WeakMap<Block, CompiledConfig>();

/** undefined for a block that may still change (not frozen). */
export function compiledConfig(block: Block, definition: BlockDefinition): CompiledConfig | undefined {
  if (!Object.isFrozen(block)) return undefined;
  const known = compiledBlocks.get(block);
  // A test may run one state against another registry: the check belongs to the definition it was made with.
  if (known?.definition === definition) return known;
  const scanned = scanValue(block.config);
  const compiled: CompiledConfig = { definition, scanned };
  if (!scanned.hasReferences || definition.resolveReferences === false) {
    const parsed = definition.configSchema.safeParse(block.config);
    if (parsed.success) deepFreeze(parsed.data);
    compiled.constant = { size: jsonSize(block.config, Infinity), parsed };
  }
  compiledBlocks.set(block, compiled);
  return compiled;
}
