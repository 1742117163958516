// What a re-run replays and what it runs again (docs/api.md "Re-runs"), worked out from the original run's trace:
// every block it recorded, by block id and iteration, is replayed from its recorded output — except the block the
// re-run starts from and every block downstream of it, and except blocks that failed (a failure is never kept).
// Inside a loop or parallel, the iterations the original finished are replayed whole; only the failed ones (and any
// it never reached) run again from the block. Pure blocks (`replay: 'rerun'`) run again anyway, as on resume.
import type { IterationStep, ReplayedBlock, TraceSpan } from '../engine/index.js';
import { CONTAINER_TYPES, normalizeBlockName, type WorkflowState } from '../workflow/index.js';

/** One block's outcome in the original run, where it ran. */
interface Recorded extends ReplayedBlock {
  blockId: string;
  path: Array<{ containerId: string; index: number }>;
  failed: boolean;
}

interface Trace {
  records: Recorded[];
  /** Iteration outcomes by `containerId|outer path|index`: true when it finished. */
  iterations: Map<string, boolean>;
  /** Containers with at least one iteration that did not finish. */
  containersWithFailures: Set<string>;
}

type Step = { containerId: string; index: number };
const pathKey = (path: Step[]) => path.map((step) => `${step.containerId}#${step.index}`).join('/');
const recordKey = (blockId: string, path: Step[]) => `${blockId}|${pathKey(path)}`;
const iterationKey = (containerId: string, outer: Step[], index: number) => `${containerId}|${pathKey(outer)}|${index}`;

const isContainerSpan = (span: TraceSpan) => (CONTAINER_TYPES as readonly string[]).includes(span.type);

/**
 * The blocks of a trace with their iteration paths. A container's span holds one span per iteration, which holds the
 * body's spans; other children (retry attempts, a sub-workflow's own trace) are not blocks of this workflow.
 */
function readTrace(spans: TraceSpan[]): Trace {
  const trace: Trace = { records: [], iterations: new Map(), containersWithFailures: new Set() };
  const walk = (list: TraceSpan[], path: Step[]) => {
    for (const span of list) {
      if (isContainerSpan(span)) {
        for (const iteration of span.children ?? []) {
          const index = Number((iteration.input as { index?: unknown } | null)?.index);
          if (!iteration.type.endsWith('_iteration') || !Number.isInteger(index)) continue;
          const finished = iteration.status === 'success';
          trace.iterations.set(iterationKey(span.blockId, path, index), finished);
          if (!finished) trace.containersWithFailures.add(span.blockId);
          walk(iteration.children ?? [], [...path, { containerId: span.blockId, index }]);
        }
        continue;
      }
      const output = span.output && typeof span.output === 'object' && !Array.isArray(span.output) ? (span.output as Record<string, unknown>) : {};
      trace.records.push({
        blockId: span.blockId,
        path,
        output,
        ...(span.sourceHandle === undefined ? legacySourceHandle(span, output) : { sourceHandle: span.sourceHandle }),
        ...(span.continueOnError ? { continueOnError: true } : {}),
        startedAt: span.startTime,
        endedAt: span.endTime,
        failed: span.status === 'error',
      });
    }
  };
  walk(spans, []);
  return trace;
}

/** Traces logged before spans kept the chosen handle: a condition block's output names its branch. */
function legacySourceHandle(span: TraceSpan, output: Record<string, unknown>): { sourceHandle?: string } {
  if (span.type !== 'condition' || span.status !== 'success') return {};
  return typeof output.selectedOption === 'string' ? { sourceHandle: `condition-${output.selectedOption}` } : {};
}

/** The block a `fromBlock` names, by id or by name (as references spell it); undefined when none. */
export function findBlock(state: WorkflowState, idOrName: string): string | undefined {
  if (state.blocks[idOrName]) return idOrName;
  const wanted = normalizeBlockName(idOrName);
  return Object.values(state.blocks).find((block) => normalizeBlockName(block.name) === wanted)?.id;
}

/** The containers around a block, innermost first. */
function ancestorsOf(state: WorkflowState, blockId: string): string[] {
  const found: string[] = [];
  let parent = state.blocks[blockId]?.parentId;
  while (parent && !found.includes(parent)) {
    found.push(parent);
    parent = state.blocks[parent]?.parentId;
  }
  return found;
}

/**
 * The block and everything that runs after it: what its edges reach (a reached container with all it holds), and,
 * for a block inside containers, what comes after each of them. The containers around it run again too (their
 * iterations decide what of their body is replayed), but the body before the block is not downstream of it.
 */
export function downstreamOf(state: WorkflowState, fromBlock: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of state.edges) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
  const children = new Map<string, string[]>();
  for (const block of Object.values(state.blocks)) {
    if (block.parentId) children.set(block.parentId, [...(children.get(block.parentId) ?? []), block.id]);
  }
  const reached = new Set<string>([fromBlock]);
  const queue: string[] = [];
  const reach = (id: string) => {
    if (reached.has(id)) return;
    reached.add(id);
    queue.push(id);
    for (const child of children.get(id) ?? []) reach(child);
  };
  const ancestors = ancestorsOf(state, fromBlock);
  for (const container of ancestors) reached.add(container);
  for (const start of [fromBlock, ...ancestors]) for (const target of next.get(start) ?? []) reach(target);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const target of next.get(id) ?? []) reach(target);
  }
  return reached;
}

export interface RerunPlan {
  replay: (blockId: string, path: IterationStep[]) => ReplayedBlock | undefined;
  /** Blocks replayed at least once (in some iteration), in trace order. */
  replayed: string[];
  /** Blocks the original ran that run again at least once (failed, or after the start block). */
  ranAgain: string[];
}

/** The replay a re-run from `fromBlock` uses. `fromBlock` must be a block the trace recorded (checked by the caller). */
export function planRerun(state: WorkflowState, spans: TraceSpan[], fromBlock: string): RerunPlan {
  const trace = readTrace(spans);
  const downstream = downstreamOf(state, fromBlock);
  const ancestors = new Set(ancestorsOf(state, fromBlock));
  const kept = new Map<string, ReplayedBlock>();
  const replayed: string[] = [];
  const ranAgain: string[] = [];
  for (const record of trace.records) {
    if (!state.blocks[record.blockId]) continue;
    if (record.failed || (downstream.has(record.blockId) && !inFinishedIteration(record, ancestors, trace))) {
      if (!ranAgain.includes(record.blockId)) ranAgain.push(record.blockId);
      continue;
    }
    const { blockId, path, failed: _, ...outcome } = record;
    kept.set(recordKey(blockId, path), outcome);
    if (!replayed.includes(blockId)) replayed.push(blockId);
  }
  return {
    replay: (blockId, path) => kept.get(recordKey(blockId, path)),
    replayed,
    ranAgain,
  };
}

/**
 * A block after the re-run's start that sits in an iteration the original finished, of a container around the start
 * block that also has iterations that did not: that iteration is replayed whole. (When every iteration finished,
 * they all run again from the block.)
 */
function inFinishedIteration(record: Recorded, ancestors: Set<string>, trace: Trace): boolean {
  return record.path.some(
    (step, depth) =>
      ancestors.has(step.containerId) &&
      trace.containersWithFailures.has(step.containerId) &&
      trace.iterations.get(iterationKey(step.containerId, record.path.slice(0, depth), step.index)) === true,
  );
}

/** The blocks of the trace in the order they first ran. */
export function traceOrder(spans: TraceSpan[]): string[] {
  return [...new Set(readTrace(spans).records.map((record) => record.blockId))];
}

/** Whether the trace recorded the block at all (a `fromBlock` the original run never reached cannot be re-run from). */
export function traceReached(spans: TraceSpan[], blockId: string): boolean {
  return readTrace(spans).records.some((record) => record.blockId === blockId);
}

/**
 * The block a retry starts from: of the blocks that failed, the one whose failure came first (a parallel's failing
 * branch ends before the siblings it cancels). undefined when no block failed (the run timed out, say).
 */
export function firstFailedBlock(spans: TraceSpan[]): string | undefined {
  const failed = readTrace(spans).records.filter((record) => record.failed);
  failed.sort((a, b) => Date.parse(a.endedAt) - Date.parse(b.endedAt) || Date.parse(a.startedAt) - Date.parse(b.startedAt));
  return failed[0]?.blockId;
}
