// What a log keeps of its run's trace under the workflow's `trace` setting (docs/workflows.md "Trace detail"):
// `full` everything; `summary` each span's timings, status, error and usage, with outputs only of the blocks that
// failed (the final output is kept in its own column either way); `errors` the full trace when the run failed
// (its log's level is `error`: a block error, a time-out, a cancellation), else the summary.
import type { TraceSpan } from '../engine/index.js';
import type { KeptTrace } from '../services/logs/stored-trace.js';
import { DEFAULT_TRACE_DETAIL, type TraceDetail } from '../workflow/index.js';

export function keptTrace(detail: TraceDetail | undefined, failed: boolean): KeptTrace {
  const asked = detail ?? DEFAULT_TRACE_DETAIL;
  if (asked === 'full' || (asked === 'errors' && failed)) return 'full';
  return 'summary';
}

/** The spans without inputs, and without outputs except those of failed blocks. */
export function summarizeTrace(spans: TraceSpan[]): TraceSpan[] {
  return spans.map((span) => {
    const { input: _input, output, children, ...rest } = span;
    const kept = { ...rest } as TraceSpan;
    if (span.status === 'error') kept.output = output;
    if (children) kept.children = summarizeTrace(children);
    return kept;
  });
}
