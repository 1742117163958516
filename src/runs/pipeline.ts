// The one path every trigger's run takes (triggers/{api,chat,webhook,manual,schedule}.ts): each trigger
// resolves its target and checks its own rules, admits the call (admission.ts), prepares the input and files under
// an execution id fixed up front, and then the run is made here — now (plain or streaming) or queued for a worker
// (async: the same execution id and files). Nothing on this path reads the database before the run starts once the
// caches are warm; the run's log is its only write (run-recorder.ts).
import { AppError } from '../errors.js';
import { snapshotKey } from '../services/crypto.js';
import type { EngineEvent } from '../engine/index.js';
import { runTimeLimitMs, type TriggerType } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import type { UserFile } from '../services/files/index.js';
import type { JobSpec } from '../jobs/enqueue.js';
import { asyncExecutionJob, enqueueAsyncExecution, type AsyncExecutionRequest, type QueuedExecution } from './async-executions.js';
import type { StoredResponse } from './idempotency.js';
import type { DeployedWorkflow, RunTarget } from './deployed-workflow.js';
import { EXECUTION_ID_HEADER } from './answers.js';
import { runExecution } from './run-execution.js';
import type { ExecutionOutcome, RerunOf, RunExecutionInput } from './types.js';
import type { RunOrigin } from './run-observer.js';
import { freeSlot, runFlowOf, runHoldingSlot, takeSlotForCall, type FlowWait, type RunFlow } from './flow-slots.js';
import { runThrottleOf, takeStart, throttledError, type RunThrottle } from './flow-throttle.js';
import type { RunDebounce } from './flow-debounce.js';

export interface PreparedRun {
  target: RunTarget;
  trigger: TriggerType;
  triggerBlockId?: string;
  input: Record<string, unknown>;
  files: UserFile[];
  executionId: string;
  /** To put on the answer: X-RateLimit-* from admission, X-Execution-Id. */
  headers: Record<string, string>;
  /** The HTTP request behind the run (its X-Request-Id and trace span), kept on the log and the trace. */
  origin?: RunOrigin;
  /** A re-run of an earlier execution (triggers/rerun.ts): queued runs rebuild its replay from the original. */
  rerun?: RerunOf;
  /**
   * The flow control of the state this run executes (flow-slots.ts) — a draft's too (the editor's Run): a limit that
   * protects what the workflow calls holds whatever started the run, so all of them share the workflow's slots.
   */
  flow?: RunFlow;
  /** Set once the run holds its flow control slot (a sync call took it): how long it waited; freed when it ends. */
  flowWait?: FlowWait;
  /** A queued run waits for a slot of its key (it was full when the run was queued): the log says why it waited. */
  flowWaits?: boolean;
  /** An async run's priority (-100…100): the call's X-Execution-Priority, else the workflow's. */
  priority?: number;
  /** The deployment's throttle for this run (flow-throttle.ts): a queued run takes its start when a worker starts it. */
  throttle?: RunThrottle;
  /** A run now that took its throttle start (database clock): its log starts then, so the logs show the rate held. */
  throttleStartedAt?: Date;
  /** A debounced async call (flow-debounce.ts): queued as its key's burst. Only the execute endpoint sets it. */
  debounce?: RunDebounce;
}

/** The active deployment as a run target; 409 when the workflow is not deployed. */
export function activeDeployment(deployed: DeployedWorkflow, toCall: string): RunTarget {
  if (!deployed.deployment) {
    throw new AppError('WORKFLOW_NOT_DEPLOYED', 409, `The workflow is not deployed; deploy it to ${toCall}`);
  }
  return {
    workflow: { id: deployed.workflow.id, workspaceId: deployed.workflow.workspaceId },
    state: deployed.deployment.state,
    stateHash: deployed.deployment.stateHash,
    deploymentVersion: deployed.deployment.version,
    owner: deployed.owner,
  };
}

export function prepareRun(fields: Omit<PreparedRun, 'headers'> & { admissionHeaders: Record<string, string> }): PreparedRun {
  const { admissionHeaders, ...run } = fields;
  const { target } = run;
  const flow = run.flow ?? runFlowOf(target.workflow.id, target.state, run.input);
  const priority = run.priority ?? target.state.flowControl?.priority;
  // A draft's throttle too (the editor's Run, a re-run on the draft): like its limit, it protects what the workflow calls.
  const throttle = run.throttle ?? runThrottleOf(target.workflow.id, target.state, run.input);
  // `run` is this call's own copy: completed in place (a spread followed by new properties takes V8's slow path).
  const prepared: PreparedRun = Object.assign(run, { headers: { ...admissionHeaders, [EXECUTION_ID_HEADER]: run.executionId } });
  if (flow) prepared.flow = flow;
  if (throttle) prepared.throttle = throttle;
  if (priority !== undefined) prepared.priority = priority;
  return prepared;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
  /** An Idempotency-Key whose answer is made from the outcome and committed with the log. */
  idempotency?: { key: string; answer(outcome: ExecutionOutcome): StoredResponse };
}

/**
 * Takes the run's flow control slot, if it needs one, before it runs now (a sync or streaming call of any trigger):
 * waiting as its flow control says, or throwing the answer that refuses it. A trigger calls it while preparing, so a
 * refusal is a plain JSON answer before any stream starts. `requester` is who asks to stop the running ones under
 * cancel-running (default: the workspace owner, on whose behalf a webhook or a public chat runs).
 */
export async function holdFlowSlot(
  app: AppContext,
  run: PreparedRun,
  requester: { userId: string; keyWorkspaceId: string | null } = { userId: run.target.owner.id, keyWorkspaceId: null },
): Promise<PreparedRun> {
  if (!run.flow || run.flowWait) return run;
  return { ...run, flowWait: await takeSlotForCall(app, run.flow, run.executionId, requester) };
}

/**
 * Takes the throttle start of a run about to go now (it holds its slot already, holdFlowSlot): the run, logged as
 * starting then; or, over the rate, when the key's next start frees — the slot given back, as the run does not go now.
 */
export async function takeThrottleStart(app: AppContext, run: PreparedRun): Promise<{ run: PreparedRun } | { freeAt: number; throttle: RunThrottle }> {
  if (!run.throttle || run.throttleStartedAt) return { run };
  const start = await takeStart(app.db, run.throttle, run.executionId);
  if (start.taken) return { run: { ...run, throttleStartedAt: new Date(start.at) } };
  if (run.flowWait) await freeSlot(app.db, run.executionId);
  return { freeAt: start.freeAt, throttle: run.throttle };
}

/** Like takeThrottleStart, for a caller that waits on the run: over the rate, 429 THROTTLED with Retry-After. */
export async function holdThrottleStart(app: AppContext, run: PreparedRun): Promise<PreparedRun> {
  const taken = await takeThrottleStart(app, run);
  if ('run' in taken) return taken.run;
  app.metrics.flowRefused(run.target.workflow.id, 'THROTTLED');
  throw throttledError(taken.throttle, taken.freeAt);
}

/** Runs now, in this process, under the execution time-out (never longer than the server's bound); holds its flow control slot and frees it when it ends. */
export async function runPrepared(app: AppContext, run: PreparedRun, options: RunOptions = {}): Promise<ExecutionOutcome> {
  // A trigger that did not take the slot and the throttle start while preparing (a sync re-run) still obeys them (its
  // refusal may come inside a stream).
  // Most runs have neither to take (or took them while preparing): they go on without an await each.
  let held = run;
  if (held.flow && !held.flowWait) held = await holdFlowSlot(app, held);
  if (held.throttle && !held.throttleStartedAt) held = await holdThrottleStart(app, held);
  if (!held.flowWait) return runPreparedNow(app, held, options);
  // Freed with the log; a run whose log could not be stored frees it here.
  return runHoldingSlot(app, held.executionId, () => runPreparedNow(app, held, options));
}

function runPreparedNow(app: AppContext, run: PreparedRun, options: RunOptions): Promise<ExecutionOutcome> {
  const input: RunExecutionInput = {
    workflow: run.target.workflow,
    state: run.target.state,
    stateHash: run.target.stateHash,
    deploymentVersion: run.target.deploymentVersion,
    trigger: run.trigger,
    triggerBlockId: run.triggerBlockId,
    input: run.input,
    executionId: run.executionId,
    files: run.files,
    owner: run.target.owner,
    // Its caller waits for the answer: the workflow's own time limit applies only up to the server's bound.
    timeoutMs: runTimeLimitMs(run.target.state.flowControl, app.config.executionTimeoutMs, true),
    origin: run.origin,
    rerun: run.rerun,
    ...options,
  };
  // Set only when there (not spread in: spreads per run showed in profiles).
  if (run.flowWait) {
    input.flowWait = run.flowWait;
    input.holdsFlowSlot = true;
  }
  if (run.throttleStartedAt) input.startedAt = run.throttleStartedAt;
  return runExecution(app, input);
}

/** Queues the run for a worker: the same execution id and stored files, run from the same deployment version. */
export function enqueuePrepared(
  app: AppContext,
  run: PreparedRun,
  options: { notBefore?: Date; throttled?: boolean } = {},
): Promise<QueuedExecution> {
  return enqueueAsyncExecution(app, { ...asyncRequest(run), ...options });
}

/** The job of a prepared run, for a caller that queues many in one transaction (a bulk re-run). */
export function preparedJob(run: PreparedRun): JobSpec {
  return asyncExecutionJob(asyncRequest(run));
}

function asyncRequest(run: PreparedRun): AsyncExecutionRequest {
  if (run.target.deploymentVersion === null && !run.rerun) throw new Error('Only deployed workflows run asynchronously');
  return {
    workflowId: run.target.workflow.id,
    workspaceId: run.target.workflow.workspaceId,
    deploymentVersion: run.target.deploymentVersion,
    input: run.input,
    trigger: run.trigger,
    triggerBlockId: run.triggerBlockId,
    files: run.files,
    executionId: run.executionId,
    origin: run.origin,
    ...(run.flow ? { flow: { ...run.flow, waits: run.flowWaits === true } } : {}),
    ...(run.priority !== undefined ? { priority: run.priority } : {}),
    ...(run.throttle ? { throttle: run.throttle } : {}),
    ...(run.debounce ? { debounce: run.debounce } : {}),
    ...(run.rerun
      ? { rerun: { of: run.rerun.executionId, fromBlock: run.rerun.fromBlock, snapshotHash: run.target.stateHash ?? snapshotKey(undefined, run.target.state) } }
      : {}),
  };
}
