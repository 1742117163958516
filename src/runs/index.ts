// The run lifecycle, the one surface triggers, routes and the app's assembly use: admit → prepare → run now, stream,
// enqueue or resume → record. Approvals, sub-workflows, cancelling and crash recovery plug into it here. Nothing
// inside runs/ imports this file: it is the way in from outside, so the modules behind it can change shape freely.

// ---- admit: limits and flow control before anything is stored or run
export { admitRun, type Admission } from './admission.js';
export {
  admitQueuedRun,
  freeSlot,
  runFlowOf,
  runHoldingSlot,
  takeSlotForCall,
  takeSlotInBackground,
  type BackgroundSlot,
  type FlowWait,
  type RunFlow,
} from './flow-slots.js';
export { takeStartInBackground, takeStartOrQueue, type BackgroundStart, type QueuedStart } from './flow-background.js';
export { pruneThrottleStarts, runThrottleOf, takeStart, throttledError, type RunThrottle } from './flow-throttle.js';
export { debounceOf, debouncedSyncCall, type RunDebounce } from './flow-debounce.js';
export {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  REPLAYED_HEADER,
  type IdempotencyClaim,
  type StoredResponse,
} from './idempotency.js';

// ---- prepare: what runs (a deployment or a draft, and who pays) and with what input
export { loadDeployedWorkflow, loadDeploymentVersion, type DeployedWorkflow, type RunTarget } from './deployed-workflow.js';
export { checkApiInput, findApiTrigger, inputFormatOf, withDeclaredFields } from './trigger-input.js';
export { activeDeployment, holdFlowSlot, holdThrottleStart, prepareRun, takeThrottleStart, type PreparedRun, type RunOptions } from './pipeline.js';

// ---- run now (plain or streaming), or enqueue for a worker
export { enqueuePrepared, preparedJob, runPrepared } from './pipeline.js';
export { runExecution } from './run-execution.js';
export type { ExecutionOutcome, RunExecution, RunExecutionInput } from './types.js';
export type { RunOrigin } from './run-observer.js';
export {
  createExecutionJobHandler,
  enqueueAsyncExecution,
  EXECUTION_JOB,
  getJobStatus,
  type AsyncJobStatus,
  type JobStatusView,
  type QueuedExecution,
} from './async-executions.js';
export { listQueuedRuns, QUEUED_REASONS, type QueuedReason, type QueuedRun, type QueuedRunList } from './queued-runs.js';

// ---- what the caller is told
export { doneRecord, EXECUTION_ID_HEADER, pausedAnswer, sseRecord, streamReplayAnswer, syncAnswer } from './answers.js';

// ---- approvals: pause, resume (the resume job is handed the run function), list
export { RESUME_JOB } from './pause.js';
export {
  createResumeJobHandler,
  listPausedRuns,
  reopenStrandedResumes,
  resumeBody,
  resumeExecution,
  type PausedRunView,
  type ResumeAnswer,
} from './approvals.js';

// ---- re-run an earlier execution (triggers/rerun.ts asks; these read the original and plan the replay)
export { loadOriginalRun, originalTrigger, rerunOf, valuesLostError, type OriginalRun } from './rerun-source.js';
export { downstreamOf, findBlock as findRerunBlock, firstFailedBlock, planRerun, traceOrder, traceReached } from './rerun-plan.js';
export type { RerunOf } from './types.js';

// ---- cancel
export { cancelExecution, type CancelAnswer } from './cancel-execution.js';
export { createCancellations, type Cancellations } from './cancel-broadcast.js';

// ---- record: group commit of logs, usage, deliveries and idempotency answers
export { createRunRecorder, type RunRecorder } from './run-recorder.js';

// ---- crash recovery: runs whose process is gone are closed, never started twice
export { startRunner, type Runner } from './runners.js';
export { flowLeasesOf } from './flow-leases.js';
export { settleEarlierAttempt } from './interrupted.js';
