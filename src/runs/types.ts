// The run function's contract, apart from the function itself: what a run is asked and what it answers. The resume
// job (approvals.ts) and sub-workflows are handed the function rather than importing it, as run-execution.ts depends
// on them (it pauses runs and lends sub-workflows to blocks); they and it share these types from here.
import type { ExecutionResult, EngineEvent, RunWorkflowOptions } from '../engine/index.js';
import type { ExecutionCost } from '../services/cost.js';
import type { AppContext } from '../services/app-context.js';
import type { FlowReason, TriggerType, WorkflowState } from '../workflow/index.js';
import type { StoredResponse } from './idempotency.js';
import type { Resumption } from './pause.js';
import type { StoredAs } from './run-recorder.js';
import type { RunOrigin } from './run-observer.js';

export interface RunExecutionInput {
  workflow: { id: string; workspaceId: string };
  /** When the run started, if not now: the instant its throttle start was taken (flow-throttle.ts), so its log shows the rate the throttle held. */
  startedAt?: Date;
  state: WorkflowState;
  /** Content hash of `state` when known (deployments carry it); computed otherwise. */
  stateHash?: string;
  deploymentVersion: number | null;
  trigger: TriggerType;
  input: Record<string, unknown>;
  /** Which trigger block starts the run when a state has several of one kind. */
  triggerBlockId?: string;
  /** Pre-assigned (async jobs, schedule ticks, streaming answers); generated otherwise. */
  executionId?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The run's whole time limit when `timeoutMs` is what a resumed run has left of it (named by the time-out message). */
  timeLimitMs?: number;
  /**
   * Nobody waits on the run's answer (async, queue, schedule, a resumed run): a long wait block may park it — stop it
   * and resume it later on any process — instead of sleeping in a worker slot (pause.ts).
   */
  canPark?: boolean;
  onEvent?: (event: EngineEvent) => void;
  /** UserFile objects uploaded for this run, recorded on the log. */
  files?: unknown[];
  /** The workspace owner, charged for the run (every trigger knows it; looked up when not given). */
  owner?: { id: string; plan: string };
  /** Write the running marker before the workflow starts (jobs: a job claimed again must know it had started). */
  markBeforeStart?: boolean;
  /** An Idempotency-Key answer made from the outcome, committed together with the log. */
  idempotency?: { key: string; answer(outcome: ExecutionOutcome): StoredResponse };
  /** Set for a sub-workflow's run: the run whose workflow block started it (sub-workflows.ts). */
  parent?: { executionId: string; chain: string[]; drafts: boolean };
  /** The request that started the run: its id goes on the log, its span becomes the run span's parent. */
  origin?: RunOrigin;
  /** Set when a run paused for an approval goes on (approvals.ts): its log row, what already ran, the decision. */
  resumption?: Resumption;
  /** Set when the run re-runs an earlier execution (rerun-source.ts): which, from which block, and what it replays. */
  rerun?: RerunOf;
  /** How long the run waited before it started (in the queue, for a flow control slot) and why: kept on its log. */
  flowWait?: { queuedMs: number; reason?: FlowReason };
  /** The run holds a flow control slot: it is freed with the log (a run whose log is not stored: its caller frees it). */
  holdsFlowSlot?: boolean;
}

export interface RerunOf {
  executionId: string;
  /** null when the whole workflow runs again. */
  fromBlock: string | null;
  replay?: RunWorkflowOptions['replay'];
  /** The execution its API calls' idempotency keys name, when not `executionId` (a re-run of a re-run). */
  idempotencyRoot?: string;
}

export interface ExecutionOutcome {
  executionId: string;
  logId: string;
  result: ExecutionResult;
  cost: ExecutionCost;
  /** How the log was stored: `minimal` = an error log saying its full content could not be; `none` = not at all. */
  stored: StoredAs;
}

/** Runs a workflow as a logged execution (run-execution.ts): what approvals and sub-workflows are handed. */
export type RunExecution = (app: AppContext, input: RunExecutionInput) => Promise<ExecutionOutcome>;
