// Loop and parallel containers: run the body level once per iteration, each in its own scope. Loops run
// iterations in order and stop at the first failure; parallels run branches concurrently (bounded) and a failing
// branch cancels its siblings. Either way the container's output is `{results}` in iteration order. Of the block
// policy, a container takes timeoutMs (for the whole container) and onError; it is never retried as a whole.
import { linkedController } from '../abort-listeners.js';
import { abortMessage, errorMessage } from './abort.js';
import { timeLimit } from './attempts.js';
import type { GraphNode } from './graph.js';
import { planIterations, type IterationPlan } from './iterations.js';
import { reportNodeStart } from './node-report.js';
import type { NodeRunner, RunContext } from './run-context.js';
import { runLevel, type LevelOutcome } from './run-level.js';
import { newNotes } from './resolver.js';
import { childScope, mergeIterationOutputs, type Scope } from './scope.js';
import { makeSpan } from './trace.js';
import type { BlockOutput, IterationStep, TraceSpan } from './types.js';

interface IterationRecord {
  index: number;
  scope: Scope;
  outcome: LevelOutcome;
  span: TraceSpan;
}

export const runContainer: NodeRunner = async (run, node, scope, signal, path) => {
  const { block } = node;
  const report = reportNodeStart(run, block, path);

  const notes = newNotes();
  let input: unknown = run.state.loops[node.id] ?? run.state.parallels[node.id] ?? block.config;
  const records: IterationRecord[] = [];
  let error: string | undefined;
  const limited = timeLimit(signal, block.policy?.timeoutMs, block.name);
  try {
    const plan = planIterations(run, node, scope, notes);
    input = plan.settings;
    const runIteration = iterationRunner(run, node, scope, path, plan);
    error =
      plan.kind === 'loop'
        ? await runSequentially(plan.count, limited.signal, runIteration, records)
        : await runConcurrently(plan.count, run.limits.maxParallelConcurrency, limited.signal, runIteration, records);
  } catch (thrown) {
    error = errorMessage(thrown);
  } finally {
    limited.release();
  }
  if (error === undefined && limited.signal.aborted) error = abortMessage(limited.signal);

  records.sort((a, b) => a.index - b.index);
  mergeIterationOutputs(
    scope,
    records.map((record) => record.scope),
  );
  let output: BlockOutput = { results: records.map((record) => record.outcome.lastOutput) };
  try {
    run.outputs.admit(block.name, 'output', output);
  } catch (tooLarge) {
    // The iterations' own spans keep what each produced; the container's output cannot also carry it all.
    output = { results: [] };
    error ??= errorMessage(tooLarge);
  }
  if (error !== undefined) output.error = error;
  const span = report.finish({
    input,
    output,
    error,
    unresolvedReferences: notes.unresolved,
    children: records.map((record) => record.span),
  });
  return { output, error, continueOnError: block.policy?.onError === 'continue', span };
};

type IterationRunner = (index: number, signal: AbortSignal) => Promise<IterationRecord>;

function iterationRunner(
  run: RunContext,
  node: GraphNode,
  scope: Scope,
  path: IterationStep[],
  plan: IterationPlan,
): IterationRunner {
  const level = run.graph.levels.get(node.id);
  if (!level) throw new Error(`Container "${node.block.name}" has no body`);
  return async (index, signal) => {
    // Counted iterations have no item of their own; the index stands in so `<loop.currentItem>` is never empty.
    const currentItem = plan.items ? plan.items[index] : index;
    const iterationScope = childScope(scope, { kind: plan.kind, index, currentItem, items: plan.items });
    const startedAtMs = Date.now();
    const step: IterationStep = { containerId: node.id, containerType: plan.kind, index };
    const outcome = await runLevel(run, level, iterationScope, signal, [...path, step]);
    const span = makeSpan({
      blockId: node.id,
      name: `${node.block.name} iteration ${index}`,
      type: `${plan.kind}_iteration`,
      status: outcome.status === 'completed' ? 'success' : 'error',
      startedAtMs,
      endedAtMs: Date.now(),
      input: { index, currentItem },
      output: outcome.lastOutput,
      error: outcome.error,
      children: outcome.spans,
    });
    return { index, scope: iterationScope, outcome, span };
  };
}

/** Returns the error that stopped the loop, if any. */
async function runSequentially(
  count: number,
  signal: AbortSignal,
  runIteration: IterationRunner,
  records: IterationRecord[],
): Promise<string | undefined> {
  for (let index = 0; index < count; index++) {
    if (signal.aborted) return abortMessage(signal);
    const record = await runIteration(index, signal);
    records.push(record);
    if (record.outcome.status !== 'completed') return record.outcome.error;
  }
  return undefined;
}

/** A pool of at most `concurrency` branches; the first failing branch cancels the others. */
async function runConcurrently(
  count: number,
  concurrency: number,
  signal: AbortSignal,
  runIteration: IterationRunner,
  records: IterationRecord[],
): Promise<string | undefined> {
  const { controller, release } = linkedController(signal);
  let next = 0;
  let failure: string | undefined;
  const worker = async () => {
    while (next < count && !controller.signal.aborted) {
      const record = await runIteration(next++, controller.signal);
      records.push(record);
      if (record.outcome.status === 'failed' && failure === undefined) {
        failure = record.outcome.error;
        controller.abort(new Error(`Stopped because parallel branch ${record.index} failed`));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), count) }, worker));
  } finally {
    release();
  }
  return failure ?? (signal.aborted ? abortMessage(signal) : undefined);
}
