// A finished run shown on the canvas ("Open in editor" from a log or the Executions tab): its trace spans become the
// same per-block states a live manual run builds (status, output, error, duration, how often it ran), so the canvas
// and the run panel show a past run exactly as they show one in progress.
import type { LogDetail, TraceSpan } from '../types.js';
import type { BlockRunState } from './model.js';

export interface PastRun {
  status: 'success' | 'error' | 'cancelled';
  blocks: Record<string, BlockRunState>;
  order: string[];
  executionId: string;
  output?: unknown;
  error?: string;
  durationMs: number;
}

/** The per-block states of a logged run. Iterations of a loop or parallel count as runs of the blocks inside it. */
export function pastRunOf(log: Pick<LogDetail, 'status' | 'error' | 'executionId' | 'totalDurationMs' | 'executionData'>): PastRun {
  const blocks: Record<string, BlockRunState> = {};
  const order: string[] = [];
  const visit = (span: TraceSpan, parentBlockId?: string) => {
    // An iteration span repeats its container's block id; the blocks inside it are its children.
    if (span.blockId !== parentBlockId && span.status !== 'skipped') {
      const previous = blocks[span.blockId];
      if (!previous) order.push(span.blockId);
      const failed = span.status === 'error' || previous?.status === 'error';
      blocks[span.blockId] = {
        status: failed ? 'error' : 'success',
        output: span.output,
        error: span.error ?? previous?.error,
        durationMs: (previous?.durationMs ?? 0) + span.duration,
        runs: (previous?.runs ?? 0) + 1,
      };
    }
    // A workflow block's children are the blocks of the workflow it ran, not of this canvas.
    if (span.type === 'workflow') return;
    for (const child of span.children ?? []) visit(child, span.blockId);
  };
  for (const span of log.executionData?.traceSpans ?? []) visit(span);
  return {
    status: log.status,
    blocks,
    order,
    executionId: log.executionId,
    output: log.executionData?.finalOutput,
    error: log.error ?? undefined,
    durationMs: log.totalDurationMs,
  };
}
