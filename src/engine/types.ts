// Public shapes of the engine: how a run is asked for, what it reports while running, and what it returns.
import type { BlockDefinition, BlockProgress, BlockServices } from '../blocks/types.js';
import type { TriggerType, WorkflowState } from '../workflow/index.js';

export type BlockOutput = Record<string, unknown>;

export interface EngineLimits {
  /** Most iterations one loop (or branches one parallel) may run; exceeding it fails that container. */
  maxLoopIterations: number;
  /** Most branches of one parallel running at the same time. */
  maxParallelConcurrency: number;
  /** Largest output of one block, and config with references filled in, as JSON (output-budget.ts). */
  maxBlockOutputBytes: number;
  /** Most that all blocks of one run may produce together, outputs and filled-in configs alike. */
  maxRunOutputBytes: number;
}

export interface RunTrigger {
  type: TriggerType;
  input: Record<string, unknown>;
  /**
   * The trigger block to start from when the state holds several of this kind (two webhook paths, say).
   * Without it the first matching trigger block starts the run.
   */
  blockId?: string;
}

export interface RunWorkflowOptions {
  executionId: string;
  workflowId: string;
  /** Already validated with validateState; the engine does not validate again. */
  state: WorkflowState;
  trigger: RunTrigger;
  env: Record<string, string>;
  services: BlockServices;
  /** Block types by type name; defaults to the built-in registry. */
  registry?: Record<string, BlockDefinition>;
  signal?: AbortSignal;
  /**
   * The run's own controller, made by a caller that stops the run from several places itself (a cancel request, a
   * pause): abort it with a RunStop. The run aborts it too (a failure at the top level, the time-out), so nothing
   * else may listen to it. Spares a controller and the listener linking the caller's signal to it, per run.
   */
  controller?: AbortController;
  timeoutMs?: number;
  /** The whole run's time limit, named by the time-out's message when `timeoutMs` is only what is left of it. */
  timeLimitMs?: number;
  limits?: Partial<EngineLimits>;
  /** Called synchronously for every event; exceptions thrown by the listener are ignored. */
  onEvent?: (event: EngineEvent) => void;
  /**
   * Blocks that already ran in an earlier run of this execution, by block id and iteration: they are not run again,
   * their recorded outcome stands (their events and spans are reported as before). Blocks whose definition says
   * `replay: 'rerun'` (pure ones: triggers, variables, response) run again instead.
   */
  replay?: (blockId: string, path: IterationStep[]) => ReplayedBlock | undefined;
  /**
   * Set when this run re-runs an earlier execution (its id): the blocks that run again are handed an idempotency key
   * made of it, the block id and the iteration, the same in every re-run of that execution (BlockRunContext).
   */
  rerunOf?: string;
}

/** Where a block ran: the containers around it and the iteration of each, outermost first. */
export interface IterationStep {
  containerId: string;
  containerType: 'loop' | 'parallel';
  index: number;
}

export interface RunStartedEvent {
  type: 'run_started';
  executionId: string;
  workflowId: string;
  startedAt: string;
}

export interface BlockStartedEvent {
  type: 'block_started';
  blockId: string;
  blockName: string;
  blockType: string;
  iterationPath: IterationStep[];
  startedAt: string;
}

export interface ChunkEvent {
  type: 'chunk';
  blockId: string;
  chunk: string;
  iterationPath: IterationStep[];
}

export interface BlockProgressEvent {
  type: 'block_progress';
  blockId: string;
  iterationPath: IterationStep[];
  progress: BlockProgress;
}

export interface BlockFinishedEvent {
  type: 'block_finished';
  blockId: string;
  blockName: string;
  blockType: string;
  iterationPath: IterationStep[];
  output: BlockOutput;
  error?: string;
  /** The edge handle the block chose (condition blocks), when not the default. */
  sourceHandle?: string;
  /** The block's error is an outcome the run goes on from (see BlockResult.continueOnError). */
  continueOnError?: boolean;
  startedAt: string;
  endedAt: string;
  durationMs: number;
}

export interface RunFinishedEvent {
  type: 'run_finished';
  result: ExecutionResult;
}

export type EngineEvent = RunStartedEvent | BlockStartedEvent | ChunkEvent | BlockProgressEvent | BlockFinishedEvent | RunFinishedEvent;

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

/** A model call's cost in USD, split like the log detail's cost.models entries. */
export interface CostBreakdown {
  input: number;
  output: number;
  total: number;
}

export type SpanStatus = 'success' | 'error' | 'skipped';

export interface TraceSpan {
  id: string;
  blockId: string;
  name: string;
  /** Block type, or `loop_iteration` / `parallel_iteration` for the per-iteration spans of a container. */
  type: string;
  status: SpanStatus;
  startTime: string;
  endTime: string;
  duration: number;
  /** The block's config after reference resolution; environment values appear as `{{NAME}}`, never in clear. */
  input: unknown;
  output: unknown;
  error?: string;
  tokens?: TokenUsage;
  cost?: number | CostBreakdown;
  model?: string;
  /** References that pointed at blocks which had not run (they resolved to null). */
  unresolvedReferences?: string[];
  /** The edge handle the block chose (condition blocks), when not the default: what a re-run replays. */
  sourceHandle?: string;
  /** The block's error was an outcome the run went on from. */
  continueOnError?: boolean;
  children?: TraceSpan[];
}

export interface ResponseOutput {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Why a run was stopped from outside its blocks: its caller cancelled it, it ran past its time-out, or it paused
 * to wait for an approval (it will be run again, replaying what it already did).
 */
export type StopReason = 'cancelled' | 'timeout' | 'paused';

/** A block that already ran in an earlier run of the same execution (before a pause): what it gave. */
export interface ReplayedBlock {
  output: BlockOutput;
  sourceHandle?: string;
  continueOnError?: boolean;
  startedAt: string;
  endedAt: string;
}

export interface ExecutionResult {
  success: boolean;
  /** Set when the run failed because it was stopped (never inferred from an error text). */
  stopReason?: StopReason;
  /** The final output (docs/api.md 4.3): the output of the block that finished last on the path that ended the run. */
  output: BlockOutput;
  error?: string;
  /** Set when a response block ran: the execute endpoint answers with it. */
  response?: ResponseOutput;
  traceSpans: TraceSpan[];
  /** Output of every block that ran, by block id; for blocks inside containers, their last iteration's. */
  blockOutputs: Record<string, BlockOutput>;
  startedAt: string;
  endedAt: string;
  durationMs: number;
}
