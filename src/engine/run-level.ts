// The scheduler for one level (the top level, or one iteration of a container body). Which nodes may run is the
// edge manager's business (edge-manager.ts); this file runs what it hands out, decides which ready nodes pass
// without running (disabled blocks, triggers other than the one that started the run), and ends the level when
// nothing is in flight. A node failing with no error edge stops the level's other branches.
import { linkedController } from '../abort-listeners.js';
import { abortMessage } from './abort.js';
import { createEdgeManager, type NodeExit, type Settled } from './edge-manager.js';
import type { GraphLevel, GraphNode } from './graph.js';
import type { NodeOutcome, RunContext } from './run-context.js';
import type { Scope } from './scope.js';
import { makeSpan, sortByStart } from './trace.js';
import type { BlockOutput, IterationStep, TraceSpan } from './types.js';

export interface LevelOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  /** The failing block's error when failed; the cancellation reason when cancelled. */
  error?: string;
  /** Output of the node that finished last: the level's result (at the top: docs/api.md "Final output"). */
  lastOutput: BlockOutput | null;
  spans: TraceSpan[];
}

export function runLevel(
  run: RunContext,
  level: GraphLevel,
  scope: Scope,
  signal: AbortSignal,
  path: IterationStep[],
  /**
   * The controller of `signal` itself, when stopping this level's branches stops everything that signal stops (the
   * top level and the run: runWorkflow's own controller, which nobody outside the run holds). Saves a linked
   * controller and its listener per run.
   */
  own?: AbortController,
): Promise<LevelOutcome> {
  // A failure stops this level's other branches, not the rest of the run: the caller decides what it means.
  const { controller, release } = own ? { controller: own, release: () => undefined } : linkedController(signal);
  const edges = createEdgeManager(level, run.startBlockId);
  const spans: TraceSpan[] = [];
  let inFlight = 0;
  let failure: string | undefined;
  let lastOutput: BlockOutput | null = null;
  let settle!: (outcome: LevelOutcome) => void;
  const done = new Promise<LevelOutcome>((resolve) => (settle = resolve));

  const finishIfIdle = () => {
    if (inFlight > 0) return;
    release();
    const status = failure !== undefined ? 'failed' : signal.aborted ? 'cancelled' : 'completed';
    const error = failure ?? (signal.aborted ? abortMessage(signal) : undefined);
    const outcome: LevelOutcome = { status, lastOutput, spans: sortByStart(spans) };
    if (error !== undefined) outcome.error = error;
    settle(outcome);
  };

  const launchAll = (settled: Settled) => {
    for (const node of settled.ready) launch(node);
  };

  const launch = (node: GraphNode) => {
    if (controller.signal.aborted) return;
    // Only the trigger that started this run runs; the others pass so their paths go dead.
    if (run.registry[node.block.type]?.trigger !== undefined && node.id !== run.startBlockId) {
      return launchAll(edges.pass(node));
    }
    if (!node.block.enabled) {
      // Disabled blocks act as skipped (with a span saying so): nothing downstream runs through them.
      spans.push(skippedSpan(node));
      return launchAll(edges.pass(node));
    }
    inFlight++;
    // Not awaited: nodes run side by side and the level settles through finished(); a fault became an outcome above.
    void run
      .runNode(node, scope, controller.signal, path)
      .catch((error: unknown): NodeOutcome => engineFault(node, error))
      .then((outcome) => finished(node, outcome));
  };

  const finished = (node: GraphNode, outcome: NodeOutcome) => {
    inFlight--;
    spans.push(outcome.span);
    if (!controller.signal.aborted) {
      scope.outputs.set(node.id, outcome.output);
      lastOutput = outcome.output;
      const routing = edges.route(node, exitOf(outcome));
      if (routing.kind === 'routed') {
        launchAll(routing);
      } else {
        failure = outcome.error;
        controller.abort(new Error(`Stopped because block "${node.block.name}" failed`));
      }
    }
    finishIfIdle();
  };

  launchAll(edges.begin());
  finishIfIdle();
  return done;
}

function exitOf(outcome: NodeOutcome): NodeExit {
  if (outcome.error === undefined) return { kind: 'success', handle: outcome.sourceHandle };
  return { kind: 'error', continueOnError: outcome.continueOnError, handle: outcome.sourceHandle };
}

function skippedSpan(node: GraphNode): TraceSpan {
  const now = Date.now();
  return makeSpan({
    blockId: node.id,
    name: node.block.name,
    type: node.block.type,
    status: 'skipped',
    startedAtMs: now,
    endedAtMs: now,
    input: node.block.config,
    output: {},
  });
}

/** runNode never rejects by design; if it does anyway, that is an engine bug reported as the node's error. */
function engineFault(node: GraphNode, error: unknown): NodeOutcome {
  const message = `Internal engine error: ${error instanceof Error ? error.message : String(error)}`;
  const now = Date.now();
  return {
    output: { error: message },
    error: message,
    span: makeSpan({
      blockId: node.id,
      name: node.block.name,
      type: node.block.type,
      status: 'error',
      startedAtMs: now,
      endedAtMs: now,
      input: node.block.config,
      output: { error: message },
      error: message,
    }),
  };
}
