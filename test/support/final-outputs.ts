// Runs' final outputs read from the log table, for tests that look at rows directly: a log keeps its final output in
// the packed trace (src/services/logs/packed-trace.ts `final`), a row written before that in `final_output`.
import { executions } from '../../src/db/schema.js';
import { storedTrace } from '../../src/services/logs/columns.js';
import { withPackedFinalOutput } from '../../src/services/logs/packed-trace.js';

/** Selected beside a row's other columns; the rows are then read with `withFinalOutputs`. */
export const finalOutputColumns = { finalOutput: executions.finalOutput, traceSpans: storedTrace };

/** The rows with their final outputs wherever each row keeps it (and without the trace they were read from). */
export function withFinalOutputs<R extends { finalOutput: unknown; traceSpans: unknown }>(rows: R[]): Array<Omit<R, 'traceSpans'>> {
  return rows.map((row) => {
    const { traceSpans: _, ...rest } = withPackedFinalOutput(row);
    return rest;
  });
}
