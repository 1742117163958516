// Running a workflow as a logged execution, whatever triggered it. The engine runs the state; the run recorder
// keeps its running marker and commits its log together with the owner's usage, its completion webhook deliveries
// and its idempotency answer (group commit). Nothing here reads the database on the way: environment variables and
// webhook subscriptions come from the caches.
import { whenAborted } from '../abort-listeners.js';
import { storableValue } from '../db/json.js';
import { storableText } from '../db/storable.js';
import { CANCELLED_MESSAGE, RunStop, runWorkflow, type EngineEvent, type ExecutionResult } from '../engine/index.js';
import { newExecutionId, newId, pairedLogId } from '../ids.js';
import { reportedBlockErrors } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { summarizeCost, type ExecutionCost } from '../services/cost.js';
import { snapshotKey } from '../services/crypto.js';
import { loadEnvForRun } from '../services/env-vars.js';
import { workspaceOwner } from '../services/limits.js';
import { completionDeliveries } from '../services/completion-webhooks/outbox.js';
import { memoryForRun } from '../services/agent-memory.js';
import type { BlockServices, SubWorkflowRequest } from '../blocks/types.js';
import { loadOperationForRun } from '../services/connectors.js';
import { loadCredentialForRun } from '../services/credentials.js';
import { readStoredFile } from '../services/files/read-stored-file.js';
import type { ExecutionRecord, IdempotencyRecord } from './record-statement.js';
import { approvalTimeoutJob, canPark, canPause, createPauseTracker, type PauseState } from './pause.js';
import { observeRun } from './run-observer.js';
import { RUNNER_ID } from './runner-id.js';
import { describeSubWorkflow, runSubWorkflow } from './sub-workflows.js';
import type { ExecutionOutcome, RunExecutionInput } from './types.js';
import { withPins } from './pinned.js';
import { keptTrace, summarizeTrace } from './trace-detail.js';

interface FinishedRun {
  outcome: ExecutionOutcome;
  log: ExecutionRecord;
  /** Set when the run paused for an approval or parked in a wait. */
  pause?: PauseState;
  idempotency?: IdempotencyRecord;
}

/**
 * A run the engine could not even carry out, or whose outcome could not be made into a log (a fault of ours, never
 * a block's): logged as an error like any other.
 */
function engineFault(startedAt: Date, error = 'Internal error while running the workflow'): ExecutionResult {
  return {
    success: false,
    output: {},
    error,
    traceSpans: [],
    blockOutputs: {},
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
  };
}

export async function runExecution(app: AppContext, input: RunExecutionInput): Promise<ExecutionOutcome> {
  const executionId = input.executionId ?? newExecutionId();
  const logId = input.resumption?.logId ?? pairedLogId(executionId) ?? newId('log');
  const startedAt = input.resumption?.startedAt ?? input.startedAt ?? new Date();
  const files = input.files && input.files.length > 0 ? (storableValue(input.files) as unknown[]) : null;
  const marker: ExecutionRecord = {
    id: logId,
    executionId,
    workspaceId: input.workflow.workspaceId,
    workflowId: input.workflow.id,
    deploymentVersion: input.deploymentVersion,
    snapshotHash: snapshotKey(input.stateHash, input.state),
    trigger: input.trigger,
    status: 'running',
    level: null,
    startedAt,
    endedAt: null,
    totalDurationMs: null,
    costTotal: 0,
    cost: null,
    models: [],
    finalOutput: null,
    traceSpans: null,
    // Named from the start, unset: the log copied from the marker and the recorder's copy of it with its stored
    // values (run-recorder.ts) then add no property to it. A spread that adds one to an object this size takes V8's
    // slow path, ~10 us each (measured); one that only overwrites is ~0.8 us.
    traceKept: undefined,
    stored: undefined,
    files,
    error: null,
    blockErrorCount: 0,
    runnerId: RUNNER_ID,
    parentExecutionId: input.parent?.executionId ?? null,
    requestId: input.origin?.requestId ?? null,
    pause: null,
    rerunOf: input.rerun?.executionId ?? null,
    rerunFromBlock: input.rerun?.fromBlock ?? null,
    queuedMs: input.flowWait?.queuedMs ?? null,
    flowControl: input.flowWait?.reason ? { reason: input.flowWait.reason } : null,
  };
  const started = { marker, state: input.state };
  await app.recorder.begin(started, { markNow: input.markBeforeStart });

  // Stopped by its caller (a closed connection, a stopping worker) or by a cancel request from anywhere. The engine
  // runs on this controller itself (RunWorkflowOptions.controller): nothing here listens to it.
  const stop = new AbortController();
  const stopWith = () => stop.abort(new RunStop('cancelled', CANCELLED_MESSAGE));
  // A root run may pause for an approval (a sub-workflow may not: its parent waits for it in memory), and one nobody
  // waits on may park in a long wait.
  const parks = input.canPark === true && !input.parent && canPark(input.state);
  const pauses =
    input.parent || !(input.resumption || canPause(input.state) || parks)
      ? undefined
      : createPauseTracker({ state: input.state, resumption: input.resumption, stop: (reason: RunStop) => stop.abort(reason) });
  let stopWaiting: (() => void) | undefined;
  if (input.signal?.aborted) stopWith();
  else if (input.signal) stopWaiting = whenAborted(input.signal, stopWith);
  const untrack = app.cancellations.track({ executionId, workspaceId: input.workflow.workspaceId }, stopWith);
  const observer = observeRun(app, {
    workflowId: input.workflow.id,
    executionId,
    trigger: input.trigger,
    deploymentVersion: input.deploymentVersion,
    origin: input.origin,
  });
  const listeners = [observer.onEvent, pauses?.onEvent, input.onEvent].filter((listener) => listener !== undefined);
  const onEvent = listeners.length === 1 ? listeners[0] : (event: EngineEvent) => listeners.forEach((listener) => listener(event));

  const owner = input.owner ?? (await workspaceOwner(app.db, input.workflow.workspaceId));
  // Lent to this run's workflow blocks: they run their children as part of this run's tree.
  const parentRun = {
    executionId,
    workspaceId: input.workflow.workspaceId,
    trigger: input.trigger,
    owner,
    chain: [...(input.parent?.chain ?? []), input.workflow.id],
    drafts: input.parent ? input.parent.drafts : input.deploymentVersion === null,
  };
  // The app's services with this run's own, assigned rather than spread: a spread followed by new properties takes
  // V8's slow path (~10 us a run, measured).
  const services: BlockServices = Object.assign({}, app.blockServices, {
    tenant: input.workflow.workspaceId,
    runSubWorkflow: (request: SubWorkflowRequest) => runSubWorkflow(app, runExecution, parentRun, request),
    describeSubWorkflow: (workflowId: string) => describeSubWorkflow(app, parentRun, workflowId),
    credential: (credentialId: string) => loadCredentialForRun(app.db, app.cipher, input.workflow.workspaceId, credentialId),
    // The agent block's conversation memory: this workflow's, written as each agent finishes (not with the log).
    memory: memoryForRun(app.db, app.logger, { workflowId: input.workflow.id, executionId }),
    connectorOperation: (connectorId: string, operationId: string) => loadOperationForRun(app.db, input.workflow.workspaceId, connectorId, operationId),
    readFile: (url: string, maxBytes: number) => readStoredFile(app, url, maxBytes),
  });
  // Set only when the run can pause (not spread in: a spread per run showed in profiles).
  if (pauses) {
    services.awaitApproval = pauses.awaitApproval;
    services.approvalCheckpoint = pauses.approvalCheckpoint;
    if (parks) services.waitUntil = pauses.waitUntil;
  }

  // A run tree pays the base charge once: at its root. A resumed run's trace replays its earlier part, so its cost
  // is the whole run's; the owner is charged what the earlier parts were not.
  const priceOf = (result: ExecutionResult) => summarizeCost(result.traceSpans, input.parent ? 0 : app.config.baseCostUsd);
  /** The log of the run and what its caller is told; `cost` is given when the trace is not to be priced. */
  const finishRun = (ended: ExecutionResult, given?: ExecutionCost): FinishedRun => {
    // A block stopped while it asked (an agent at a tool call) paid for model calls its span cannot show yet.
    const result = ended.stopReason === 'paused' && pauses ? { ...ended, traceSpans: pauses.withPausedUsage(ended.traceSpans) } : ended;
    const cost = given ?? priceOf(result);
    const activeMs = (input.resumption?.pause.activeMs ?? 0) + Math.round(result.durationMs);
    const pause =
      result.stopReason === 'paused' && pauses
        ? pauses.pauseState({ input: input.input, triggerBlockId: input.triggerBlockId, chargedUsd: cost.total, activeMs })
        : undefined;
    // A paused log's trace is never shown (its pause state holds what resuming needs); the final log keeps what the
    // workflow's `trace` setting says, and its webhooks carry the same.
    const kept = pause ? 'full' : keptTrace(input.state.trace, !result.success);
    const log: ExecutionRecord = {
      ...marker,
      costTotal: cost.total,
      cost,
      models: Object.keys(cost.models),
      traceSpans: kept === 'full' ? result.traceSpans : summarizeTrace(result.traceSpans),
      traceKept: kept,
    };
    // The marker's own fields, overwritten in place (a spread of either set per run showed in profiles). A run that
    // has ended or paused has no process running it (a resumed one is claimed again, approvals.ts).
    log.runnerId = null;
    if (pause) {
      log.status = 'paused';
      log.pause = pause;
      log.finalOutput = {};
    } else {
      log.status = result.success ? 'success' : result.stopReason === 'cancelled' ? 'cancelled' : 'error';
      log.level = result.success ? 'info' : 'error';
      log.endedAt = new Date(result.endedAt);
      log.totalDurationMs = activeMs;
      log.finalOutput = result.output;
      log.error = result.error === undefined ? null : storableText(result.error);
      log.blockErrorCount = reportedBlockErrors(result.success ? 'success' : 'error', result.traceSpans).length;
      log.pause = pauses?.summary() ?? null;
    }
    const outcome: ExecutionOutcome = { executionId, logId, result, cost, stored: 'full' };
    const idempotency = input.idempotency && {
      workflowId: input.workflow.id,
      key: input.idempotency.key,
      response: input.idempotency.answer(outcome),
    };
    return { outcome, log, pause, idempotency };
  };

  let result: ExecutionResult;
  try {
    const env = await loadEnvForRun(app, input.workflow.workspaceId);
    result = await runWorkflow({
      executionId,
      workflowId: input.workflow.id,
      state: input.state,
      // The characters the log will show, so what a block saw is what the log says it saw.
      trigger: { type: input.trigger, input: storableValue(input.input), blockId: input.triggerBlockId },
      env,
      services,
      controller: stop,
      timeoutMs: input.timeoutMs,
      timeLimitMs: input.timeLimitMs,
      limits: { maxBlockOutputBytes: app.config.maxBlockOutputBytes, maxRunOutputBytes: app.config.maxRunOutputBytes },
      onEvent,
      // A resumed re-run replays from its pause, which recorded what the re-run replayed before it.
      replay: withPins(pauses?.replay ?? input.rerun?.replay, input.state, input.deploymentVersion),
      rerunOf: input.rerun && (input.rerun.idempotencyRoot ?? input.rerun.executionId),
    });
  } catch (err) {
    app.logger.error({ err, executionId, requestId: input.origin?.requestId }, 'engine fault');
    result = engineFault(startedAt);
  } finally {
    untrack();
    stopWaiting?.();
  }

  try {
    observer.finish(result);
  } catch (err) {
    // Metrics and traces report on the run; a fault of theirs does not change its outcome.
    app.logger.error({ err, executionId, requestId: input.origin?.requestId }, 'could not report a run to metrics or tracing');
  }

  // Whatever happens from here on, the run ends with a log and its caller hears of it: a fault while making the log
  // or the answer ends the run as an error, rather than leaving it `running` (and an async job `processing`).
  let finished: FinishedRun;
  try {
    finished = finishRun(result);
  } catch (err) {
    app.logger.error({ err, executionId, requestId: input.origin?.requestId }, 'fault while finishing a run; logging it as an error');
    finished = finishRun(engineFault(startedAt, 'Internal error while finishing the run'), summarizeCost([], 0));
  }
  const { outcome, log, pause } = finished;
  outcome.stored = await app.recorder.complete({
    started,
    log,
    ownerId: owner.id,
    chargeUsd: Math.max(0, outcome.cost.total - (input.resumption?.pause.chargedUsd ?? 0)),
    // A paused run has not completed: its subscribers hear of it when it does.
    deliveries: (stored) => (stored.status === 'paused' ? Promise.resolve([]) : completionDeliveries(app, stored)),
    // The approval's time-out is queued with the paused log, so no crash can leave the run waiting past it.
    followUps: pause && approvalTimeoutJob(executionId, pause),
    idempotency: finished.idempotency,
    ...(input.holdsFlowSlot ? { freesSlot: true } : {}),
  });
  if (outcome.stored !== 'full') {
    app.logger.warn({ executionId, requestId: input.origin?.requestId, stored: outcome.stored }, 'run logged incompletely');
  }
  if (pause && outcome.stored !== 'full') {
    // Its pause could not be stored, so it cannot be resumed: it ended as the error its log says.
    const { stopReason: _, ...ended } = outcome.result;
    outcome.result = { ...ended, error: 'The run paused for an approval, but its pause could not be stored; the run ended' };
  }
  return outcome;
}
