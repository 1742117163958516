// The engine's public surface: run a validated workflow state and observe it through events.
export { runWorkflow, DEFAULT_LIMITS, CANCELLED_MESSAGE, RunStop, timedOutMessage } from './run-workflow.js';
export type {
  BlockFinishedEvent,
  BlockOutput,
  BlockStartedEvent,
  ChunkEvent,
  BlockProgressEvent,
  EngineEvent,
  EngineLimits,
  ExecutionResult,
  IterationStep,
  ReplayedBlock,
  ResponseOutput,
  RunFinishedEvent,
  RunStartedEvent,
  RunTrigger,
  RunWorkflowOptions,
  SpanStatus,
  StopReason,
  TokenUsage,
  TraceSpan,
} from './types.js';
