// The document as the semantic rules see it. When the schema rejects part of a document, the rest is still
// checked, so one save reports every problem; malformed entries are remembered so that rules do not pile
// knock-on complaints on top of the schema's own (an edge to a malformed block is not "dangling").
import type { ZodType } from 'zod';
import type { PathSegment, Reference } from '../references.js';
import { isPlainObject } from '../plain.js';
import {
  BlockSchema,
  EdgeSchema,
  LoopSchema,
  ParallelSchema,
  type Block,
  type Edge,
  type Loop,
  type Parallel,
  type TriggerType,
  type WorkflowState,
} from '../state.js';

export interface BlockCatalogEntry {
  configSchema?: ZodType;
  trigger?: TriggerType;
  /** References the block fills in itself (BlockDefinition.keepsReference): they name no block. */
  keepsReference?(ref: Reference, path: readonly PathSegment[]): boolean;
}
export type BlockCatalog = Record<string, BlockCatalogEntry>;

export interface EdgeEntry {
  /** Position in the document's edges array, for problem paths. */
  index: number;
  edge: Edge;
}

/** What is known of a block entry the schema rejected. */
export interface MalformedBlock {
  id: string;
  name?: string;
  type?: string;
}

export interface Model {
  /** Keyed by the key in `blocks`, which is what edges and containers are checked against. */
  blocks: Map<string, Block>;
  malformedBlocks: Map<string, MalformedBlock>;
  edges: EdgeEntry[];
  loops: Map<string, Loop>;
  malformedLoops: Set<string>;
  parallels: Map<string, Parallel>;
  malformedParallels: Set<string>;
}

export function modelFromState(state: WorkflowState): Model {
  return {
    blocks: new Map(Object.entries(state.blocks)),
    malformedBlocks: new Map(),
    edges: state.edges.map((edge, index) => ({ index, edge })),
    loops: new Map(Object.entries(state.loops)),
    malformedLoops: new Set(),
    parallels: new Map(Object.entries(state.parallels)),
    malformedParallels: new Set(),
  };
}

/** Builds a model from whatever parts of an invalid document parse on their own. */
export function salvageModel(input: Record<string, unknown>): Model {
  const model: Model = {
    blocks: new Map(),
    malformedBlocks: new Map(),
    edges: [],
    loops: new Map(),
    malformedLoops: new Set(),
    parallels: new Map(),
    malformedParallels: new Set(),
  };
  for (const [key, raw] of recordEntries(input.blocks)) {
    const parsed = BlockSchema.safeParse(raw);
    if (parsed.success) model.blocks.set(key, parsed.data);
    else model.malformedBlocks.set(key, describeMalformedBlock(key, raw));
  }
  if (Array.isArray(input.edges)) {
    input.edges.forEach((raw: unknown, index) => {
      const parsed = EdgeSchema.safeParse(raw);
      if (parsed.success) model.edges.push({ index, edge: parsed.data });
    });
  }
  for (const [key, raw] of recordEntries(input.loops)) {
    const parsed = LoopSchema.safeParse(raw);
    if (parsed.success) model.loops.set(key, parsed.data);
    else model.malformedLoops.add(key);
  }
  for (const [key, raw] of recordEntries(input.parallels)) {
    const parsed = ParallelSchema.safeParse(raw);
    if (parsed.success) model.parallels.set(key, parsed.data);
    else model.malformedParallels.add(key);
  }
  return model;
}

function recordEntries(value: unknown): Array<[string, unknown]> {
  // zod drops "__proto__" keys from records; do the same so both views of the document agree.
  return isPlainObject(value) ? Object.entries(value).filter(([key]) => key !== '__proto__') : [];
}

function describeMalformedBlock(id: string, raw: unknown): MalformedBlock {
  if (!isPlainObject(raw)) return { id };
  return {
    id,
    name: typeof raw.name === 'string' ? raw.name : undefined,
    type: typeof raw.type === 'string' ? raw.type : undefined,
  };
}

export function blockExists(model: Model, id: string): boolean {
  return model.blocks.has(id) || model.malformedBlocks.has(id);
}

/** A block's name for messages, falling back to its id. */
export function blockLabel(model: Model, id: string): string {
  return model.blocks.get(id)?.name ?? model.malformedBlocks.get(id)?.name ?? id;
}
