// What every part of one run shares. Internal to the engine: blocks see only BlockRunContext.
import type { BlockDefinition, BlockServices } from '../blocks/types.js';
import type { WorkflowState } from '../workflow/index.js';
import type { GraphNode, WorkflowGraph } from './graph.js';
import type { OutputBudget } from './output-budget.js';
import type { Scope } from './scope.js';
import type {
  BlockOutput,
  EngineEvent,
  EngineLimits,
  IterationStep,
  ResponseOutput,
  RunTrigger,
  RunWorkflowOptions,
  TraceSpan,
} from './types.js';

export interface NodeOutcome {
  output: BlockOutput;
  /** Error text when the node failed (output.error is set as well). */
  error?: string;
  sourceHandle?: string;
  /** See BlockResult.continueOnError. */
  continueOnError?: boolean;
  span: TraceSpan;
}

/**
 * Runs one node of a level: an ordinary block (run-block.ts) or a container (containers.ts). It never rejects: what
 * goes wrong becomes the node's error.
 */
export type NodeRunner = (
  run: RunContext,
  node: GraphNode,
  scope: Scope,
  signal: AbortSignal,
  path: IterationStep[],
) => Promise<NodeOutcome>;

export interface RunContext {
  executionId: string;
  workflowId: string;
  state: WorkflowState;
  graph: WorkflowGraph;
  registry: Record<string, BlockDefinition>;
  env: Record<string, string>;
  services: BlockServices;
  trigger: RunTrigger;
  limits: EngineLimits;
  /** What the run's blocks have produced so far, held to the size limits. */
  outputs: OutputBudget;
  /** The trigger block this run starts from; other trigger blocks are skipped. */
  startBlockId: string | null;
  variables: Map<string, unknown>;
  /** Set by the last response block that finished without error. */
  response: ResponseOutput | undefined;
  /** Once true, late events from blocks that ignored cancellation are dropped. */
  finished: boolean;
  emit(event: EngineEvent): void;
  replay?: RunWorkflowOptions['replay'];
  rerunOf?: string;
  /** Runs one node (block or container); injected so the scheduler and containers need not import each other. */
  runNode(node: GraphNode, scope: Scope, signal: AbortSignal, path: IterationStep[]): Promise<NodeOutcome>;
}
