// The workflow state document (docs/workflows.md 1). The zod schemas are the single source of truth; types are inferred.
import { z } from 'zod';
import { MAX_BLOCKS, MAX_EDGES, MAX_HANDLE_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH } from './limits.js';
import { BlockPolicySchema } from './policy.js';
import { FlowControlSchema } from './flow-control.js';
import { TraceDetailSchema } from './trace-detail.js';

import { TRIGGER_TYPES, type TriggerType } from './trigger-types.js';

export { TRIGGER_TYPES, type TriggerType };

/** Block types that hold other blocks; their settings live under `loops` / `parallels` with the same id. */
export const CONTAINER_TYPES = ['loop', 'parallel'] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];

const IdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

const PositiveIntSchema = z.int('must be a whole number').positive('must be at least 1');

/** A reference such as `<api.items>`, JSON text, or the items themselves. */
const ItemsSourceSchema = z.union([z.string(), z.array(z.unknown()), z.record(z.string(), z.unknown())], {
  error: 'must be a reference, JSON text, an array or an object',
});

export const BlockSchema = z.object({
  id: IdSchema,
  type: IdSchema,
  name: z
    .string()
    .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
    // A name that is all whitespace normalizes to '' and could never be referenced.
    .regex(/\S/, 'must contain a non-space character'),
  position: z.object({ x: z.number(), y: z.number() }).default(() => ({ x: 0, y: 0 })),
  enabled: z.boolean().default(true),
  parentId: IdSchema.optional(),
  config: z.record(z.string(), z.unknown()).default(() => ({})),
  /** Retries, time limit and failure handling, the same for every block type (./policy.ts). */
  policy: BlockPolicySchema.optional(),
});

export const EdgeSchema = z.object({
  id: IdSchema,
  source: IdSchema,
  target: IdSchema,
  sourceHandle: z.string().max(MAX_HANDLE_LENGTH, `must be at most ${MAX_HANDLE_LENGTH} characters`).optional(),
});

const NodesSchema = z.array(IdSchema).max(MAX_BLOCKS, `must list at most ${MAX_BLOCKS} blocks`);

/** What a loop's and a parallel's settings share: the container block's id and the blocks of its body. */
const ContainerSettingsSchema = z.object({
  id: IdSchema,
  nodes: NodesSchema,
});

export const LoopSchema = ContainerSettingsSchema.extend({
  loopType: z.enum(['for', 'forEach']),
  iterations: PositiveIntSchema.optional(),
  forEachItems: ItemsSourceSchema.optional(),
});

export const ParallelSchema = ContainerSettingsSchema.extend({
  parallelType: z.enum(['count', 'collection']),
  count: PositiveIntSchema.optional(),
  distribution: ItemsSourceSchema.optional(),
});

function boundedRecord<T extends z.ZodType>(value: T, max: number, what: string) {
  return z
    .record(IdSchema, value)
    .refine((record) => Object.keys(record).length <= max, `must hold at most ${max} ${what}`);
}

export const WorkflowStateSchema = z.object({
  blocks: boundedRecord(BlockSchema, MAX_BLOCKS, 'blocks'),
  edges: z.array(EdgeSchema).max(MAX_EDGES, `must hold at most ${MAX_EDGES} edges`).default(() => []),
  loops: boundedRecord(LoopSchema, MAX_BLOCKS, 'loops').default(() => ({})),
  parallels: boundedRecord(ParallelSchema, MAX_BLOCKS, 'parallels').default(() => ({})),
  /**
   * Pinned outputs by block id (docs/workflows.md "Pinned data"): a draft run uses them instead of running the block.
   * Editing aids of the draft only — never deployed, exported or used by a deployed run.
   */
  pinned: boundedRecord(z.record(z.string(), z.unknown(), { error: 'must be an object (a block output)' }), MAX_BLOCKS, 'pinned outputs').optional(),
  /** Concurrency limit or singleton, and priority of its queued runs (./flow-control.ts); deployed and exported with it. */
  flowControl: FlowControlSchema.optional(),
  /** How much of each run's trace its log keeps (./trace-detail.ts); deployed and exported with it. Default `full`. */
  trace: TraceDetailSchema.optional(),
});

export type Block = z.infer<typeof BlockSchema>;
export type Edge = z.infer<typeof EdgeSchema>;
export type Loop = z.infer<typeof LoopSchema>;
export type Parallel = z.infer<typeof ParallelSchema>;
export type WorkflowState = z.infer<typeof WorkflowStateSchema>;

/** The state without its pinned outputs: what a deployment holds, and what decides whether the draft differs from it. */
export function withoutPins(state: WorkflowState): WorkflowState {
  if (state.pinned === undefined) return state;
  const { pinned: _, ...rest } = state;
  return rest;
}

export function emptyState(): WorkflowState {
  return { blocks: {}, edges: [], loops: {}, parallels: {} };
}
