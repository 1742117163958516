// The pure workflow model shared by every layer: state schema, names, references and validation. No I/O.
export {
  TRIGGER_TYPES,
  CONTAINER_TYPES,
  BlockSchema,
  EdgeSchema,
  LoopSchema,
  ParallelSchema,
  WorkflowStateSchema,
  emptyState,
  withoutPins,
} from './state.js';
export type { TriggerType, ContainerType, Block, Edge, Loop, Parallel, WorkflowState } from './state.js';
export {
  MAX_ID_LENGTH,
  MAX_NAME_LENGTH,
  MAX_BLOCKS,
  MAX_EDGES,
  MAX_CONFIG_DEPTH,
  MAX_OUTPUT_DEPTH,
  DEFAULT_MAX_BLOCK_OUTPUT_BYTES,
  DEFAULT_MAX_RUN_OUTPUT_BYTES,
  MAX_PROBLEMS,
  MIN_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_TIMEOUT_MS,
} from './limits.js';
export { nestsDeeperThan } from './depth.js';
export { isPlainObject } from './plain.js';
export { jsonSize, TextTooLongError } from './size.js';
export {
  BlockPolicySchema,
  RetryPolicySchema,
  RETRY_ON,
  MAX_ATTEMPTS,
  MAX_BACKOFF_MS,
  MAX_BACKOFF_FACTOR,
  MAX_BLOCK_TIMEOUT_MS,
  POLICY_DEFAULTS,
  backoffBefore,
} from './policy.js';
export type { BlockPolicy, RetryPolicy, RetryOn } from './policy.js';
export { normalizeBlockName, buildNameIndex, indexBlockNames, RESERVED_REFERENCE_NAMES } from './names.js';
export { findReferences } from './references.js';
export { renameBlock, renameReferences, renameReferencesAll, referenceRenamer, isReferenceableName } from './rename.js';
export type { PathSegment, BlockReference, EnvReference, Reference } from './references.js';
export { getPath, resolveValue, scanValue, stringifyForTemplate } from './resolve.js';
export type { ReferenceResolver, ScannedValue } from './resolve.js';
export { validateState } from './validate.js';
export type { Problem, BlockCatalog, BlockCatalogEntry, ValidationResult } from './validate.js';
export { reportedBlockErrors, blockErrorLabel, blocksReportedLabel } from './block-errors.js';
export type { BlockErrorSpan, ReportedBlockError } from './block-errors.js';
export {
  FlowControlSchema,
  PrioritySchema,
  MIN_PRIORITY,
  MAX_PRIORITY,
  MAX_CONCURRENCY_LIMIT,
  MAX_FLOW_WAIT_MS,
  MAX_THROTTLE_LIMIT,
  MIN_FLOW_PERIOD_MS,
  MAX_FLOW_PERIOD_MS,
  ON_LIMIT,
  flowLimitOf,
  flowKeyValue,
  runTimeLimitMs,
  MAX_RUN_TIMEOUT_MS,
  MIN_RUN_TIMEOUT_MS,
} from './flow-control.js';
export type { FlowControl, FlowLimit, FlowMode, FlowReason, OnLimit } from './flow-control.js';
export { TRACE_DETAILS, TraceDetailSchema, DEFAULT_TRACE_DETAIL } from './trace-detail.js';
export type { TraceDetail } from './trace-detail.js';
