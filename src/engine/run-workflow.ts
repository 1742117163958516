// Entry point of one run: wires cancellation (caller's signal, time-out), builds the graph, runs the top level
// and shapes the result. Knows no database and no HTTP; listeners on the events do the persisting and streaming.
import { whenAborted } from '../abort-listeners.js';
import { blockRegistry } from '../blocks/registry.js';
import { isoTime } from '../iso-time.js';
import { DEFAULT_MAX_BLOCK_OUTPUT_BYTES, DEFAULT_MAX_RUN_OUTPUT_BYTES } from '../workflow/index.js';
import { errorMessage } from './abort.js';
import { buildGraph } from './graph.js';
import { createOutputBudget } from './output-budget.js';
import { runContainer } from './containers.js';
import { runBlock } from './run-block.js';
import type { RunContext } from './run-context.js';
import { runLevel, type LevelOutcome } from './run-level.js';
import { rootScope } from './scope.js';
import { findStartBlock } from './start-block.js';
import type { EngineEvent, EngineLimits, ExecutionResult, RunWorkflowOptions, StopReason } from './types.js';

export const DEFAULT_LIMITS: EngineLimits = {
  maxLoopIterations: 1000,
  maxParallelConcurrency: 10,
  maxBlockOutputBytes: DEFAULT_MAX_BLOCK_OUTPUT_BYTES,
  maxRunOutputBytes: DEFAULT_MAX_RUN_OUTPUT_BYTES,
};
export const CANCELLED_MESSAGE = 'Execution cancelled';

/**
 * Why a run was stopped from outside its blocks, carried as the abort reason so the result can say it without
 * parsing text. The caller may abort its signal with one (a pause for approval); any other reason is a cancellation.
 */
export class RunStop extends Error {
  constructor(readonly reason: StopReason, message: string) {
    super(message);
  }
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<ExecutionResult> {
  const startedAtMs = Date.now();
  const emit = (event: EngineEvent) => {
    if (!options.onEvent) return;
    try {
      options.onEvent(event);
    } catch {
      // A broken listener (a closed stream, say) must not change the outcome of the run.
    }
  };
  emit({
    type: 'run_started',
    executionId: options.executionId,
    workflowId: options.workflowId,
    startedAt: isoTime(startedAtMs),
  });

  // The caller's own abort reason may be anything; the run always reports the same message for a cancellation.
  const controller = options.controller ?? new AbortController();
  const external = options.signal;
  const onCancel = () =>
    controller.abort(external?.reason instanceof RunStop ? external.reason : new RunStop('cancelled', CANCELLED_MESSAGE));
  let stopWaiting: (() => void) | undefined;
  if (external?.aborted) onCancel();
  else if (external) stopWaiting = whenAborted(external, onCancel);
  const timer =
    options.timeoutMs !== undefined
      ? setTimeout(
          () => controller.abort(new RunStop('timeout', timedOutMessage(options.timeLimitMs ?? options.timeoutMs!))),
          options.timeoutMs,
        )
      : undefined;

  const registry = options.registry ?? blockRegistry;
  const scope = rootScope();
  let outcome: LevelOutcome;
  let run: RunContext | undefined;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  try {
    const graph = buildGraph(options.state);
    run = {
      executionId: options.executionId,
      workflowId: options.workflowId,
      state: options.state,
      graph,
      registry,
      env: options.env,
      services: options.services,
      trigger: options.trigger,
      limits,
      outputs: createOutputBudget(limits),
      startBlockId: findStartBlock(options.state, registry, options.trigger),
      variables: new Map(),
      response: undefined,
      finished: false,
      emit,
      replay: options.replay,
      rerunOf: options.rerunOf,
      runNode: (node, nodeScope, signal, path) =>
        (node.kind === 'block' ? runBlock : runContainer)(run!, node, nodeScope, signal, path),
    };
    // The top level stops on the run's controller: a failure there ends the run's other branches, which is all a
    // linked child would stop. The controller is the run's alone (the caller's signal only feeds it; a caller that
    // hands one over listens to it no more), so a block's failure aborting it reaches no one outside the run.
    outcome = await runLevel(run, graph.levels.get(null)!, scope, controller.signal, [], controller);
  } catch (error) {
    outcome = { status: 'failed', error: `Internal engine error: ${errorMessage(error)}`, lastOutput: null, spans: [] };
  } finally {
    if (timer) clearTimeout(timer);
    stopWaiting?.();
    if (run) run.finished = true;
  }

  const endedAtMs = Date.now();
  const stopped = controller.signal.reason instanceof RunStop ? controller.signal.reason : undefined;
  const result: ExecutionResult = {
    success: outcome.status === 'completed',
    output: outcome.lastOutput ?? {},
    traceSpans: outcome.spans,
    blockOutputs: Object.fromEntries(scope.outputs),
    startedAt: isoTime(startedAtMs),
    endedAt: isoTime(endedAtMs),
    durationMs: endedAtMs - startedAtMs,
  };
  if (outcome.error !== undefined) result.error = outcome.error;
  if (outcome.status !== 'completed' && stopped) result.stopReason = stopped.reason;
  if (run?.response) result.response = run.response;
  emit({ type: 'run_finished', result });
  return result;
}

export function timedOutMessage(timeLimitMs: number): string {
  return `Execution timed out after ${timeLimitMs} ms`;
}
