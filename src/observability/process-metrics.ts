// The process's own metrics (prom-client's defaults: CPU, memory, heap, file descriptors, GC, event-loop lag) under
// their usual names (process_*, nodejs_*), so stock dashboards work. Collected once per process, however many apps it
// runs (the tests run several), and only once some app asks for metrics: the event-loop monitor costs nothing before.
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

export function startProcessMetrics(): void {
  processRegistry();
}

export function processMetricsText(): Promise<string> {
  return processRegistry().metrics();
}
