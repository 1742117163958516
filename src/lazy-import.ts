// Libraries loaded on first use instead of at start-up. The clients of the connectors (Redis, AMQP, MQTT, NATS, MySQL,
// SMTP), of S3, of MCP servers and OpenTelemetry's exporter are most of the code a process loads, and most processes
// never use most of them: loaded eagerly they cost every `serve`, `worker` and CLI start several hundred ms and keep
// their code in memory. Types still come from static `import type`, which the build erases.

/** `load` run once, when the returned function is first called; every later call gets the same promise. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
