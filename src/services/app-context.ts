// What every service, handler and worker is handed: the process's configuration, database, caches and helpers.
// Types only: the context is assembled in src/app/context.ts, so nothing here depends on how it is built.
import type { BlockServices } from '../blocks/types.js';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Tracing } from '../observability/tracing.js';
import type { Cancellations } from '../runs/cancel-broadcast.js';
import type { RunRecorder } from '../runs/run-recorder.js';
import type { KeyUsage } from './api-key-usage.js';
import type { AppCaches } from './cache/app-caches.js';
import type { Cipher } from './crypto.js';
import type { FileServices } from './files/file-services.js';
import type { RateLimiter } from './rate-limiter.js';
import type { Readiness } from './readiness.js';
// The two run-lifecycle parts every process holds, named by their own modules rather than runs/index.ts: the index
// reaches every run module, and most of them take this context, so importing it here would close type cycles.
import type { UsageMeter } from './usage-meter.js';

export interface AppContext {
  config: Config;
  db: Db;
  /** Where the logs API reads (list and detail): a read replica with DATABASE_READ_URL, else `db`. */
  logsDb: Db;
  database: Database;
  logger: Logger;
  cipher: Cipher;
  blockServices: BlockServices;
  files: FileServices;
  /** Rows the execution path reads on every call, kept fresh by the database's change feed. */
  caches: AppCaches;
  rateLimiter: RateLimiter;
  usage: UsageMeter;
  keyUsage: KeyUsage;
  /** Writes runs' markers and logs in batches (group commit). */
  recorder: RunRecorder;
  /** Runs in flight in this process that a cancel request may stop. */
  cancellations: Cancellations;
  /** What GET /ready checks: database, migrations, and the worker when this process runs one. */
  readiness: Readiness;
  /** Opens the first-run setup page while no user has a password (services/setup.ts). */
  setupToken: string;
  /** Prometheus metrics of this app (a no-op when SLUICE_METRICS_ENABLED=false). */
  metrics: Metrics;
  /** OpenTelemetry traces (a no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  tracing: Tracing;
  /**
   * Registers this process as one that runs workflows (heartbeat, crash recovery of others' runs). Called by
   * `sluice serve` / `sluice worker` and the test app, not by one-off commands.
   */
  startRunner(): Promise<void>;
  close(): Promise<void>;
}
