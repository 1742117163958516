// Prometheus metrics of one app (GET /metrics; docs/metrics.md says what each one means). Every app has its own
// registry — tests run several apps in one process — while the process metrics (CPU, memory, event-loop lag, GC) are
// collected once per process (process-metrics.ts) and appended to every scrape.
//
// The hot path stays cheap: the counters it bumps on every request, run and block are tallied in plain nested maps (no
// label object, no hashing) and handed to prom-client when Prometheus scrapes; the two duration histograms of every
// request and run are tallied the same way and written out at scrape by tallyHistogram (prom-client's own validates and
// hashes the labels of each observation: ~1 % of an execute call's CPU). Everything that needs a look elsewhere (the
// job queue, the database pool, the sandbox pool) is read at scrape time too. bench/metrics.bench.ts measures what is
// left.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processMetricsText, startProcessMetrics } from './process-metrics.js';

export type ExecutionOutcomeLabel = 'success' | 'error' | 'cancelled' | 'timeout' | 'paused';

/** The job queue as one scrape sees it, per kind. */
export interface JobQueueStats {
  kind: string;
  /** Due and waiting for a worker. */
  queued: number;
  /** Waiting for a later time (retries, schedule ticks). */
  scheduled: number;
  running: number;
  /** Age of the oldest due job, from when it became due; null when none is queued. */
  oldestQueuedSeconds: number | null;
}

/** What the scrape reads from the rest of the process; each is optional (a one-off command has no worker). */
export interface MetricSources {
  /** Statements sent to the database since it was opened (Database.statements). */
  databaseStatements?: () => number;
  /** PostgreSQL only: the pg.Pool's connections. */
  databasePool?: () => { total: number; idle: number; waiting: number } | undefined;
  jobQueue?: () => Promise<JobQueueStats[]>;
  /** Job kinds reported even while they have no jobs, so their series stay continuous. */
  jobKinds?: string[];
  sandboxPool?: () => { workers: number; busy: number; queued: number; workersReplaced: number };
  /** Runs in flight in this process (the run recorder). */
  runsInFlight?: () => number;
}

export interface Metrics {
  readonly enabled: boolean;
  /** One HTTP request: `route` is the matched route template (never the raw path). */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  execution(trigger: string, outcome: ExecutionOutcomeLabel, seconds: number): void;
  block(type: string, outcome: 'success' | 'error'): void;
  /** One completion webhook delivery attempt (or a delivery given up without one: `not_sent`). */
  webhookDelivery(outcome: 'success' | 'retry' | 'failed' | 'not_sent', attempt: number): void;
  rateLimited(bucket: string): void;
  /** A run that flow control held back (it waited for a slot of its concurrency limit or singleton, or a throttle start). */
  flowWaited(workflowId: string, reason: 'concurrency' | 'singleton' | 'throttle'): void;
  /** A call flow control refused: CONCURRENCY_LIMIT or THROTTLED (429), ALREADY_RUNNING or DEBOUNCED (409). */
  flowRefused(workflowId: string, code: 'CONCURRENCY_LIMIT' | 'ALREADY_RUNNING' | 'THROTTLED' | 'DEBOUNCED'): void;
  /** A debounced call folded into its key's queued run (it started no run of its own). */
  flowDebounced(workflowId: string): void;
  /** One group commit of the run recorder that carried `runs` completed runs. */
  recorderBatch(runs: number): void;
  /** The Prometheus text exposition of this app and its process. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** Metrics switched off (SLUICE_METRICS_ENABLED=false): every call does nothing. */
export const noMetrics: Metrics = {
  enabled: false,
  httpRequest() {},
  execution() {},
  block() {},
  webhookDelivery() {},
  rateLimited() {},
  flowWaited() {},
  flowRefused() {},
  flowDebounced() {},
  recorderBatch() {},
  scrape: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
};

export function createMetrics(sources: MetricSources = {}): Metrics {
  startProcessMetrics();
  const registry = new Registry();
  const registers = [registry];

  const httpTally: Tally3 = new Map();
  new Counter({
    name: 'sluice_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
    collect() {
      drain3(httpTally, (method, route, status, n) => this.inc({ method, route, status }, n));
    },
  });
  const httpDuration = tallyHistogram({
    name: 'sluice_http_request_duration_seconds',
    help: 'Time from a request arriving to its response headers, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
  });
  const executionTally: Tally2 = new Map();
  new Counter({
    name: 'sluice_executions_total',
    help: 'Workflow runs finished in this process, by trigger and outcome.',
    labelNames: ['trigger', 'outcome'] as const,
    registers,
    collect() {
      drain2(executionTally, (trigger, outcome, n) => this.inc({ trigger, outcome }, n));
    },
  });
  const executionDuration = tallyHistogram({
    name: 'sluice_execution_duration_seconds',
    help: 'Duration of workflow runs, by trigger and outcome.',
    labelNames: ['trigger', 'outcome'],
    buckets: DURATION_BUCKETS,
  });
  const blockTally: Tally2 = new Map();
  new Counter({
    name: 'sluice_block_runs_total',
    help: 'Block runs, by block type and outcome.',
    labelNames: ['type', 'outcome'] as const,
    registers,
    collect() {
      drain2(blockTally, (type, outcome, n) => this.inc({ type, outcome }, n));
    },
  });
  const deliveries = new Counter({
    name: 'sluice_webhook_deliveries_total',
    help: 'Completion webhook delivery attempts, by outcome and attempt number.',
    labelNames: ['outcome', 'attempt'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: 'sluice_rate_limited_total',
    help: 'Requests refused by a per-minute rate limit, by bucket.',
    labelNames: ['bucket'] as const,
    registers,
  });
  const flowWaits = new Counter({
    name: 'sluice_flow_control_waits_total',
    help: "Runs that waited for a slot of their workflow's concurrency limit or singleton, or for a throttle start, by workflow and reason.",
    labelNames: ['workflow_id', 'reason'] as const,
    registers,
  });
  const flowRefusals = new Counter({
    name: 'sluice_flow_control_refusals_total',
    help: 'Calls refused by flow control (CONCURRENCY_LIMIT, THROTTLED, ALREADY_RUNNING, DEBOUNCED), by workflow and code.',
    labelNames: ['workflow_id', 'code'] as const,
    registers,
  });
  const flowDebounced = new Counter({
    name: 'sluice_flow_control_debounced_total',
    help: "Debounced calls folded into their key's queued run, by workflow.",
    labelNames: ['workflow_id'] as const,
    registers,
  });
  const recorderBatches = new Histogram({
    name: 'sluice_run_recorder_batch_runs',
    help: 'Completed runs written per commit by the run recorder (group commit).',
    buckets: BATCH_BUCKETS,
    registers,
  });

  if (sources.runsInFlight) {
    const read = sources.runsInFlight;
    new Gauge({
      name: 'sluice_executions_in_flight',
      help: 'Workflow runs in flight in this process.',
      registers,
      collect() {
        this.set(read());
      },
    });
  }

  if (sources.databaseStatements) {
    totalCounter(registers, {
      name: 'sluice_database_statements_total',
      help: 'Statements sent to the database by this app (round trips).',
      total: sources.databaseStatements,
    });
  }

  if (sources.databasePool) {
    const read = sources.databasePool;
    new Gauge({
      name: 'sluice_database_pool_connections',
      help: 'PostgreSQL pool connections, by state: total (open), idle, waiting (callers queued for one).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = read();
        this.reset();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  if (sources.sandboxPool) {
    const read = sources.sandboxPool;
    new Gauge({
      name: 'sluice_sandbox_threads',
      help: 'Sandbox worker threads (function blocks, conditions), by state: total and busy.',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = read();
        this.set({ state: 'total' }, pool.workers);
        this.set({ state: 'busy' }, pool.busy);
      },
    });
    new Gauge({
      name: 'sluice_sandbox_queued_runs',
      help: 'Sandbox runs waiting for a free thread.',
      registers,
      collect() {
        this.set(read().queued);
      },
    });
    totalCounter(registers, {
      name: 'sluice_sandbox_threads_replaced_total',
      help: 'Sandbox threads terminated by the watchdog or lost to a crash, since the process started.',
      total: () => read().workersReplaced,
    });
  }

  if (sources.jobQueue) {
    const read = sources.jobQueue;
    const kinds = sources.jobKinds ?? [];
    // Both gauges are collected in the same pass of a scrape: they share one query.
    let pending: Promise<JobQueueStats[]> | undefined;
    const stats = () =>
      (pending ??= read()
        .catch(() => [] as JobQueueStats[])
        .finally(() => {
          pending = undefined;
        }));
    const byKind = (rows: JobQueueStats[]) => {
      const all = new Map<string, JobQueueStats>(kinds.map((kind) => [kind, { kind, queued: 0, scheduled: 0, running: 0, oldestQueuedSeconds: null }]));
      for (const row of rows) all.set(row.kind, row);
      return [...all.values()];
    };
    new Gauge({
      name: 'sluice_jobs',
      help: 'Jobs in the queue, by kind and state: queued (due), scheduled (due later), running.',
      labelNames: ['kind', 'state'] as const,
      registers,
      async collect() {
        const rows = byKind(await stats());
        this.reset();
        for (const row of rows) {
          this.set({ kind: row.kind, state: 'queued' }, row.queued);
          this.set({ kind: row.kind, state: 'scheduled' }, row.scheduled);
          this.set({ kind: row.kind, state: 'running' }, row.running);
        }
      },
    });
    new Gauge({
      name: 'sluice_jobs_oldest_queued_age_seconds',
      help: 'How long the oldest due job of each kind has waited for a worker (0 when none waits).',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const rows = byKind(await stats());
        this.reset();
        for (const row of rows) this.set({ kind: row.kind }, row.oldestQueuedSeconds ?? 0);
      },
    });
  }

  return {
    enabled: true,
    httpRequest(method, route, status, seconds) {
      const m = HTTP_METHODS.has(method) ? method : 'OTHER';
      bump3(httpTally, m, route, status);
      httpDuration.observe(m, route, seconds);
    },
    execution(trigger, outcome, seconds) {
      bump2(executionTally, trigger, outcome);
      executionDuration.observe(trigger, outcome, seconds);
    },
    block(type, outcome) {
      bump2(blockTally, type, outcome);
    },
    webhookDelivery(outcome, attempt) {
      deliveries.inc({ outcome, attempt });
    },
    rateLimited(bucket) {
      rateLimited.inc({ bucket });
    },
    flowWaited(workflowId, reason) {
      flowWaits.inc({ workflow_id: workflowId, reason });
    },
    flowRefused(workflowId, code) {
      flowRefusals.inc({ workflow_id: workflowId, code });
    },
    flowDebounced(workflowId) {
      flowDebounced.inc({ workflow_id: workflowId });
    },
    recorderBatch(runs) {
      recorderBatches.observe(runs);
    },
    async scrape() {
      const [own, process] = await Promise.all([registry.metrics(), processMetricsText()]);
      return { contentType: registry.contentType, body: `${own}\n${httpDuration.text()}${executionDuration.text()}\n${process}` };
    },
  };
}

/** A counter that follows a running total kept elsewhere: each scrape adds what the total grew by since the last. */
function totalCounter(registers: Registry[], metric: { name: string; help: string; total: () => number }): void {
  let reported = 0;
  new Counter({
    name: metric.name,
    help: metric.help,
    registers,
    collect() {
      const now = metric.total();
      if (now > reported) this.inc(now - reported);
      reported = now;
    },
  });
}

// Counts by label values, as nested maps: bumping one allocates nothing once its series exists.
type Tally2 = Map<string, Map<string, number>>;
type Tally3 = Map<string, Map<string, Map<number, number>>>;

function bump2(tally: Tally2, a: string, b: string): void {
  let inner = tally.get(a);
  if (!inner) tally.set(a, (inner = new Map()));
  inner.set(b, (inner.get(b) ?? 0) + 1);
}

function bump3(tally: Tally3, a: string, b: string, c: number): void {
  let middle = tally.get(a);
  if (!middle) tally.set(a, (middle = new Map()));
  let inner = middle.get(b);
  if (!inner) middle.set(b, (inner = new Map()));
  inner.set(c, (inner.get(c) ?? 0) + 1);
}

/** Hands every count gathered since the last scrape to `add` and starts again from zero (the series stay). */
function drain2(tally: Tally2, add: (a: string, b: string, n: number) => void): void {
  for (const [a, inner] of tally) {
    for (const [b, n] of inner) {
      add(a, b, n);
      inner.set(b, 0);
    }
  }
}

function drain3(tally: Tally3, add: (a: string, b: string, c: number, n: number) => void): void {
  for (const [a, middle] of tally) {
    for (const [b, inner] of middle) {
      for (const [c, n] of inner) {
        add(a, b, c, n);
        inner.set(c, 0);
      }
    }
  }
}

/**
 * A histogram over two labels, tallied in plain arrays (no label object, no hashing) and written in the Prometheus
 * text format at scrape, as prom-client writes its own: cumulative `_bucket` series with `le` first, then `_sum` and
 * `_count`. Its series live as long as the app, as prom-client's do.
 */
function tallyHistogram(metric: { name: string; help: string; labelNames: [string, string]; buckets: number[] }) {
  interface Series {
    counts: number[];
    sum: number;
    count: number;
  }
  const { name, buckets } = metric;
  const [labelA, labelB] = metric.labelNames;
  const series = new Map<string, Map<string, Series>>();
  return {
    observe(a: string, b: string, value: number): void {
      let inner = series.get(a);
      if (!inner) series.set(a, (inner = new Map()));
      let s = inner.get(b);
      if (!s) inner.set(b, (s = { counts: new Array<number>(buckets.length).fill(0), sum: 0, count: 0 }));
      // The first bucket that holds it; a value past the last bound counts in +Inf only.
      for (let i = 0; i < buckets.length; i++) {
        if (value <= buckets[i]) {
          s.counts[i]++;
          break;
        }
      }
      s.sum += value;
      s.count++;
    },
    text(): string {
      const lines = [`# HELP ${name} ${escapeHelp(metric.help)}`, `# TYPE ${name} histogram`];
      for (const [a, inner] of series) {
        for (const [b, s] of inner) {
          const labels = `${labelA}="${escapeLabelValue(a)}",${labelB}="${escapeLabelValue(b)}"`;
          let cumulative = 0;
          for (let i = 0; i < buckets.length; i++) {
            cumulative += s.counts[i];
            lines.push(`${name}_bucket{le="${buckets[i]}",${labels}} ${cumulative}`);
          }
          lines.push(`${name}_bucket{le="+Inf",${labels}} ${s.count}`, `${name}_sum{${labels}} ${s.sum}`, `${name}_count{${labels}} ${s.count}`);
        }
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

const escapeHelp = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
const escapeLabelValue = (text: string) => escapeHelp(text).replaceAll('"', '\\"');
