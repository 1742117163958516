// Traces (OpenTelemetry), on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Off, nothing of the SDK is even loaded:
// `noTracing` answers every call and callers skip their span work when `enabled` is false. On, the SDK lives in
// otel-tracing.ts, imported here on demand.
//
// Spans meet the rest of the code as plain data (TraceParent: W3C trace context ids), so a request's span can be
// handed to the run it starts — in this process, or through a job's payload to a worker — without any of them
// knowing OpenTelemetry.
import type { ObservabilityConfig } from '../config.js';
import type { SpanHandle, TraceParent, Tracing } from './tracing-types.js';

export type { SpanAttributes, SpanHandle, TraceParent, Tracing } from './tracing-types.js';

const NO_CONTEXT: TraceParent = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), sampled: false };
const noSpan: SpanHandle = { context: NO_CONTEXT, setAttributes() {}, updateName() {}, end() {} };

export const noTracing: Tracing = {
  enabled: false,
  startSpan: () => noSpan,
  shutdown: async () => undefined,
};

export async function startTracing(config: ObservabilityConfig): Promise<Tracing> {
  if (!config.otlpEndpoint) return noTracing;
  const { startOtelTracing } = await import('./otel-tracing.js');
  return startOtelTracing({ endpoint: config.otlpEndpoint, serviceName: config.serviceName });
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** A W3C `traceparent` header, or undefined when it is missing or malformed (the request then starts a new trace). */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  if (!header) return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is forbidden; version 00 has exactly four fields (later versions may append more).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1, remote: true };
}

export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${parent.sampled ? '01' : '00'}`;
}
