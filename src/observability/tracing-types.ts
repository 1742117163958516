// What tracing looks like to the rest of the code (and to both implementations: the no-op in tracing.ts, the
// OpenTelemetry one in otel-tracing.ts). A module of its own so otel-tracing.ts, which tracing.ts loads on demand,
// does not import tracing.ts back.

/** A span's identity, as a W3C `traceparent` carries it. */
export interface TraceParent {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  sampled: boolean;
  /** From another process (an incoming traceparent header, a job's payload). */
  remote?: boolean;
}

export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanHandle {
  readonly context: TraceParent;
  setAttributes(attributes: SpanAttributes): void;
  updateName(name: string): void;
  /** Ends the span; with `error` its status is ERROR with that message. */
  end(options?: { error?: string }): void;
}

export interface Tracing {
  readonly enabled: boolean;
  startSpan(name: string, options: { parent?: TraceParent; kind?: 'server' | 'internal'; attributes?: SpanAttributes }): SpanHandle;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}
