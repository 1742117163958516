// Blocks that reported an error without failing their run (docs/workflows.md 4): an API block's HTTP error, a block
// whose error connection was taken. The run succeeded, but saying only "succeeded" beside a red block misleads, so the
// logs (the stored count), the log detail and the editor's run panel all name them — through this one rule, so the
// server and the web app cannot disagree about what counts.

/** The part of a trace span (or of a live run's block state) the rule looks at. */
export interface BlockErrorSpan {
  blockId: string;
  name?: string;
  type?: string;
  status: string;
  error?: string;
  children?: readonly BlockErrorSpan[];
}

export interface ReportedBlockError {
  blockId: string;
  name: string;
  /** The block's first error (a block that ran several times, in a loop, may have reported more). */
  error: string;
}

/**
 * The blocks of this workflow that reported an error in a run that still succeeded, each once, in the order they
 * first reported one; none when the run did not succeed (its own error says why). A block counts when any of its
 * runs ended in error — an iteration of a loop included — as the canvas shows it. A span's children with its own block
 * id (iterations of a container, attempts of a retried block) are not other blocks: a failed attempt that a retry
 * made good is no error. A workflow block's children are another workflow's blocks, counted in that run's own log.
 */
export function reportedBlockErrors(runStatus: string, spans: readonly BlockErrorSpan[]): ReportedBlockError[] {
  if (runStatus !== 'success') return [];
  const reported = new Map<string, ReportedBlockError>();
  const visit = (span: BlockErrorSpan, parentBlockId: string | undefined) => {
    if (span.blockId !== parentBlockId && span.status === 'error' && !reported.has(span.blockId)) {
      reported.set(span.blockId, { blockId: span.blockId, name: span.name ?? span.blockId, error: span.error ?? 'Error' });
    }
    if (span.type === 'workflow') return;
    for (const child of span.children ?? []) visit(child, span.blockId);
  };
  for (const span of spans) visit(span, undefined);
  return [...reported.values()];
}

/** "1 block error", "2 block errors". */
export function blockErrorLabel(count: number): string {
  return `${count} block error${count === 1 ? '' : 's'}`;
}

/** "1 block reported an error", "2 blocks reported an error". */
export function blocksReportedLabel(count: number): string {
  return `${count} block${count === 1 ? '' : 's'} reported an error`;
}
