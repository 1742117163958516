// Housekeeping every worker does now and then; each statement is idempotent, so several workers doing it at
// once is harmless.
import type { Db } from '../db/client.js';
import { ensureExecutionPartitions } from '../db/executions-partitions.js';
import { createPgliteVacuum, type PgliteVacuum } from '../db/pglite-vacuum.js';
import { pruneFinishedJobs } from '../jobs/prune.js';
import type { Logger } from '../logger.js';
import type { FileStorage } from '../services/files/storage.js';
import { pruneRateWindows } from '../services/limits.js';
import { pruneOrphanedValues } from '../services/logs/orphaned-values.js';
import { pruneOldLogs } from '../services/logs/retention.js';
import { pruneThrottleStarts, reopenStrandedResumes } from '../runs/index.js';
import { MAX_FLOW_PERIOD_MS } from '../workflow/index.js';
import { pruneExpiredSessions } from '../services/sessions.js';
import type { AppContext } from './context.js';

const INTERVAL_MS = 5 * 60_000;
/** Finished async tasks stay queryable through GET /api/jobs/{taskId} this long. */
export const FINISHED_JOB_RETENTION_MS = 7 * 24 * 3_600_000;

export interface MaintenanceDeps {
  db: Db;
  logger: Logger;
  /** Where run files live: pruned logs take their files with them. */
  storage: FileStorage;
  /** SLUICE_LOG_RETENTION_DAYS; null keeps logs for ever. */
  logRetentionDays: number | null;
  /**
   * PGlite only: the autovacuum it lacks (db/pglite-vacuum.ts), last in each pass, so the space this pass's pruning
   * freed is taken by the next rows. PostgreSQL runs its own.
   */
  vacuum?: PgliteVacuum;
}

/** What a process's housekeeping works on: its database (with the vacuum PGlite lacks), its file storage, its retention. */
export function maintenanceDeps(app: AppContext, logger: Logger): MaintenanceDeps {
  return {
    db: app.db,
    logger,
    storage: app.files.storage,
    logRetentionDays: app.config.logRetentionDays,
    vacuum: app.database.kind === 'pglite' ? createPgliteVacuum(app.db) : undefined,
  };
}

export async function runMaintenance(deps: MaintenanceDeps, now = Date.now()): Promise<void> {
  const { db, logger } = deps;
  const { created, deferred } = await ensureExecutionPartitions(db, new Date(now));
  if (created.length > 0) logger.info({ partitions: created }, 'created log partitions ahead');
  if (deferred.length > 0) {
    logger.warn(
      { partitions: deferred },
      'could not create log partitions ahead: the logs table stayed locked (a backup running?); retried at the next pass',
    );
  }
  await pruneRateWindows(db, now);
  await pruneExpiredSessions(db, new Date(now));
  await pruneFinishedJobs(db, new Date(now - FINISHED_JOB_RETENTION_MS));
  // No throttle period looks back further than MAX_FLOW_PERIOD_MS: older starts are only rows.
  await pruneThrottleStarts(db, MAX_FLOW_PERIOD_MS);
  const reopened = await reopenStrandedResumes(db);
  if (reopened > 0) logger.warn({ runs: reopened }, 'approved runs whose resume job failed wait for a decision again');
  // Whatever the retention: these are values of logs deleted (a workflow's, with it) or never written.
  const orphaned = await pruneOrphanedValues(deps, now);
  if (orphaned > 0) logger.info({ files: orphaned }, 'deleted the stored values of deleted or unwritten logs');
  if (deps.logRetentionDays !== null) {
    const pruned = await pruneOldLogs(deps, deps.logRetentionDays, now);
    if (pruned.partitions.length > 0) logger.info({ partitions: pruned.partitions }, 'dropped log partitions past retention');
    if (pruned.logs + pruned.deliveries + pruned.memories > 0) logger.info({ ...pruned, retentionDays: deps.logRetentionDays }, 'pruned old logs');
  }
  if (deps.vacuum) {
    const started = Date.now();
    const { analyzed } = await deps.vacuum.run();
    const ms = Date.now() - started;
    // Requests wait while it runs (one connection): worth an operator's notice when it is long or analysed tables.
    const level = ms >= 1_000 || analyzed.length > 0 ? 'info' : 'debug';
    logger[level]({ ms, analyzed }, 'vacuumed the embedded database');
  }
}

export function startMaintenance(deps: MaintenanceDeps): () => void {
  const tick = () => runMaintenance(deps).catch((err: unknown) => deps.logger.warn({ err }, 'maintenance failed'));
  const first = setTimeout(tick, 10_000);
  const timer = setInterval(tick, INTERVAL_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
