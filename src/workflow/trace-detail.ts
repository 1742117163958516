// How much of a run's trace its log keeps (docs/workflows.md "Trace detail"): deployed with the state
// (`state.trace`) and exported with it, like flow control, because it is a property of what runs, not of one call.
import { z } from 'zod';

export const TRACE_DETAILS = ['full', 'errors', 'summary'] as const;
export type TraceDetail = (typeof TRACE_DETAILS)[number];

export const TraceDetailSchema = z.enum(TRACE_DETAILS, { error: `must be one of ${TRACE_DETAILS.join(', ')}` });

/** A state without `trace` keeps the full trace. */
export const DEFAULT_TRACE_DETAIL: TraceDetail = 'full';
