// What every node run (an ordinary block or a container) reports: a block_started event when it begins, and when
// it ends one trace span plus the matching block_finished event. One helper, so both kinds of node report the same
// fields with the same timing.
import { isoTime } from '../iso-time.js';
import type { Block } from '../workflow/index.js';
import type { RunContext } from './run-context.js';
import { makeSpan, type SpanUsage } from './trace.js';
import type { BlockFinishedEvent, BlockOutput, IterationStep, TraceSpan } from './types.js';

export interface NodeEnd {
  /** What the span shows as the node's input (resolved config, container settings). */
  input: unknown;
  output: BlockOutput;
  /** Set when the node failed; the span's status follows from it. */
  error: string | undefined;
  unresolvedReferences?: string[];
  children?: TraceSpan[];
  /** Replaces the usage makeSpan would lift from the output (a retried block sums its attempts). */
  usage?: SpanUsage;
  sourceHandle?: string;
  continueOnError?: boolean;
  /** A replayed node reports the timing of the run that did it, not of its replay. */
  recorded?: { startedAt: string; endedAt: string };
}

export interface NodeReport {
  startedAtMs: number;
  /** Builds the node's span and emits block_finished; call once. */
  finish(end: NodeEnd): TraceSpan;
}

export function reportNodeStart(run: RunContext, block: Block, path: IterationStep[]): NodeReport {
  const startedAtMs = Date.now();
  const startedAt = isoTime(startedAtMs);
  run.emit({
    type: 'block_started',
    blockId: block.id,
    blockName: block.name,
    blockType: block.type,
    iterationPath: path,
    startedAt,
  });
  return {
    startedAtMs,
    finish(end) {
      const span = makeSpan({
        blockId: block.id,
        name: block.name,
        type: block.type,
        status: end.error === undefined ? 'success' : 'error',
        startedAtMs: end.recorded ? Date.parse(end.recorded.startedAt) : startedAtMs,
        endedAtMs: end.recorded ? Date.parse(end.recorded.endedAt) : Date.now(),
        input: end.input,
        output: end.output,
        error: end.error,
        unresolvedReferences: end.unresolvedReferences,
        children: end.children,
        usage: end.usage,
      });
      if (end.sourceHandle !== undefined) span.sourceHandle = end.sourceHandle;
      if (end.continueOnError && end.error !== undefined) span.continueOnError = true;
      const finished: BlockFinishedEvent = {
        type: 'block_finished',
        blockId: block.id,
        blockName: block.name,
        blockType: block.type,
        iterationPath: path,
        output: end.output,
        startedAt: span.startTime,
        endedAt: span.endTime,
        durationMs: span.duration,
      };
      // Set only when present (not spread in: a spread of each optional field per block showed in profiles).
      if (end.error !== undefined) finished.error = end.error;
      if (end.sourceHandle !== undefined) finished.sourceHandle = end.sourceHandle;
      if (end.continueOnError) finished.continueOnError = true;
      run.emit(finished);
      return span;
    },
  };
}
