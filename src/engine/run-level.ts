// The scheduler for one level (the top level, or one iteration of a container body). Branching is edge
// activation: a finished block activates the edges of its chosen handle and deactivates the rest; a node runs once
// all its incoming edges are settled and at least one is active, and is skipped (deactivating its own outgoing
// edges) when none is. Dead paths therefore settle without running and never hold up completion.
import { abortMessage, linkedController } from './abort.js';
import { DEFAULT_HANDLE, ERROR_HANDLE, type GraphEdge, type GraphLevel, type GraphNode } from './graph.js';
import type { NodeOutcome, RunContext } from './run-context.js';
import type { Scope } from './scope.js';
import { makeSpan, sortByStart } from './trace.js';
import type { BlockOutput, IterationStep, TraceSpan } from './types.js';

export interface LevelOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  /** The failing block's error when failed; the cancellation reason when cancelled. */
  error?: string;
  /** Output of the node that finished last: the level's result (SPEC §4 final output at the top). */
  lastOutput: BlockOutput | null;
  spans: TraceSpan[];
}

export function runLevel(
  run: RunContext,
  level: GraphLevel,
  scope: Scope,
  signal: AbortSignal,
  path: IterationStep[],
): Promise<LevelOutcome> {
  // A failure stops this level's other branches, not the rest of the run: the caller decides what it means.
  const { controller, release } = linkedController(signal);
  const levelSignal = controller.signal;
  const settledEdges = new Set<string>();
  const unsettled = new Map<string, number>();
  const activeIncoming = new Set<string>();
  const started = new Set<string>();
  const spans: TraceSpan[] = [];
  let inFlight = 0;
  let failure: string | undefined;
  let lastOutput: BlockOutput | null = null;

  return new Promise<LevelOutcome>((resolve) => {
    const finishIfIdle = () => {
      if (inFlight > 0) return;
      release();
      const status = failure !== undefined ? 'failed' : signal.aborted ? 'cancelled' : 'completed';
      const error = failure ?? (signal.aborted ? abortMessage(signal) : undefined);
      resolve({ status, ...(error === undefined ? {} : { error }), lastOutput, spans: sortByStart(spans) });
    };

    const settle = (edge: GraphEdge, active: boolean) => {
      if (settledEdges.has(edge.id)) return;
      settledEdges.add(edge.id);
      if (active) activeIncoming.add(edge.target);
      const left = (unsettled.get(edge.target) ?? 0) - 1;
      unsettled.set(edge.target, left);
      if (left > 0) return;
      const target = nodesById.get(edge.target);
      if (!target) return;
      if (activeIncoming.has(target.id)) start(target);
      else skip(target);
    };

    const skip = (node: GraphNode) => {
      if (started.has(node.id)) return;
      started.add(node.id);
      for (const edge of node.outgoing) settle(edge, false);
    };

    const isTrigger = (node: GraphNode) => run.registry[node.block.type]?.trigger !== undefined;

    const start = (node: GraphNode) => {
      if (started.has(node.id) || levelSignal.aborted) return;
      // Only the trigger that started this run runs; the others are skipped so their paths go dead.
      if (isTrigger(node) && node.id !== run.startBlockId) return skip(node);
      started.add(node.id);
      if (!node.block.enabled) {
        // Disabled blocks act as skipped: nothing downstream of them runs through them.
        const now = Date.now();
        spans.push(
          makeSpan({
            blockId: node.id,
            name: node.block.name,
            type: node.block.type,
            status: 'skipped',
            startedAtMs: now,
            endedAtMs: now,
            input: node.block.config,
            output: {},
          }),
        );
        for (const edge of node.outgoing) settle(edge, false);
        return;
      }
      inFlight++;
      run
        .runNode(node, scope, levelSignal, path)
        .catch((error: unknown): NodeOutcome => engineFault(node, error))
        .then((outcome) => finished(node, outcome));
    };

    const finished = (node: GraphNode, outcome: NodeOutcome) => {
      inFlight--;
      spans.push(outcome.span);
      if (!levelSignal.aborted) {
        scope.outputs.set(node.id, outcome.output);
        lastOutput = outcome.output;
        if (outcome.error !== undefined) {
          const errorEdges = node.outgoing.filter((edge) => edge.handle === ERROR_HANDLE);
          if (errorEdges.length === 0 && outcome.continueOnError) {
            for (const edge of node.outgoing) settle(edge, edge.handle === (outcome.sourceHandle ?? DEFAULT_HANDLE));
          } else if (errorEdges.length === 0) {
            failure = outcome.error;
            controller.abort(new Error(`Stopped because block "${node.block.name}" failed`));
          } else {
            for (const edge of node.outgoing) settle(edge, edge.handle === ERROR_HANDLE);
          }
        } else {
          const handle = outcome.sourceHandle ?? DEFAULT_HANDLE;
          for (const edge of node.outgoing) settle(edge, edge.handle !== ERROR_HANDLE && edge.handle === handle);
        }
      }
      finishIfIdle();
    };

    const nodesById = new Map(level.nodes.map((node) => [node.id, node]));
    for (const node of level.nodes) unsettled.set(node.id, node.incoming.length);
    for (const edge of level.entryEdges) settle(edge, true);
    for (const node of level.nodes) {
      if (node.incoming.length === 0 || node.id === run.startBlockId) start(node);
    }
    finishIfIdle();
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
