// Where a block sits among nested containers.
import type { Block, ContainerType } from '../state.js';
import { isContainerType } from './blocks.js';
import type { Model } from './model.js';

/** Types of the containers enclosing a block (not the block itself), innermost first; stops on a nesting cycle. */
export function enclosingContainerTypes(model: Model, blockId: string): ContainerType[] {
  const types: ContainerType[] = [];
  const seen = new Set<string>([blockId]);
  let parentId = model.blocks.get(blockId)?.parentId;
  while (parentId !== undefined && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = model.blocks.get(parentId);
    if (!parent) break;
    if (isContainerType(parent.type)) types.push(parent.type as ContainerType);
    parentId = parent.parentId;
  }
  return types;
}

/** The parentId chain from a block that returns to itself, as ids, or undefined. */
export function nestingCycleFrom(model: Model, blockId: string): string[] | undefined {
  const chain: string[] = [];
  const position = new Map<string, number>();
  let current: string | undefined = blockId;
  while (current !== undefined && model.blocks.has(current)) {
    const seenAt = position.get(current);
    if (seenAt !== undefined) return chain.slice(seenAt);
    position.set(current, chain.length);
    chain.push(current);
    current = model.blocks.get(current)?.parentId;
  }
  return undefined;
}

/**
 * Edges stay at one nesting level: an edge into the middle of a container would feed one iteration from
 * outside it. A container's own edges live where the container sits, plus container → child edges, which
 * mark where each iteration's body starts.
 */
export function edgeKeepsLevel(source: Block, target: Block): boolean {
  if (source.parentId === target.parentId) return true;
  return isContainerType(source.type) && target.parentId === source.id;
}
