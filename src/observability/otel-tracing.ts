// The OpenTelemetry SDK behind tracing.ts, loaded only when traces are on. One tracer provider per app (not the
// global one: tests run several apps in a process, each with its own collector), spans sent in batches as OTLP/HTTP
// JSON to `<endpoint>/v1/traces`. Parents are passed explicitly, so no context manager (AsyncLocalStorage) is needed.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanHandle, TraceParent, Tracing } from './tracing-types.js';

export function startOtelTracing(options: { endpoint: string; serviceName: string }): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('sluice');

  const handle = (span: Span): SpanHandle => {
    const ids = span.spanContext();
    return {
      context: { traceId: ids.traceId, spanId: ids.spanId, sampled: (ids.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED },
      setAttributes: (attributes) => void span.setAttributes(attributes),
      updateName: (name) => void span.updateName(name),
      end(endOptions) {
        if (endOptions?.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: endOptions.error });
        span.end();
      },
    };
  };

  const parentContext = (parent: TraceParent | undefined) =>
    parent
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId: parent.traceId,
          spanId: parent.spanId,
          traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: parent.remote === true,
        })
      : ROOT_CONTEXT;

  return {
    enabled: true,
    startSpan(name, spanOptions) {
      const kind = spanOptions.kind === 'server' ? SpanKind.SERVER : SpanKind.INTERNAL;
      return handle(tracer.startSpan(name, { kind, attributes: spanOptions.attributes }, parentContext(spanOptions.parent)));
    },
    shutdown: () => provider.shutdown(),
  };
}
