// GET /ready: may this process take traffic? The database answers, it has every migration this build ships, and the
// job worker runs if this process is meant to run one. Each check is named in the answer, so an operator sees which
// one failed. Kept cheap for probes every few seconds: one `select 1`, plus the migrations query until it has passed
// once (migrations only ever get applied, never unapplied, under a running process).
import { ping, type Db } from '../db/client.js';
import { pendingMigrations } from '../db/migrations-status.js';
import type { Logger } from '../logger.js';

/** A probe must get an answer even when the database hangs, instead of timing out itself with no reason given. */
export const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export interface CheckResult {
  ok: boolean;
  /** Why it failed, or what was not checked; no internal detail (the endpoint needs no key). */
  message?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; worker: CheckResult };
}

export interface RunningWorker {
  running(): boolean;
}

export interface Readiness {
  /** This process is meant to run the job worker: not ready until `workerStarted` hands over a running one. */
  expectWorker(): void;
  workerStarted(worker: RunningWorker): void;
  check(): Promise<ReadinessReport>;
}

export function createReadiness(db: Db, logger: Logger, options: { databaseTimeoutMs?: number } = {}): Readiness {
  const timeoutMs = options.databaseTimeoutMs ?? DATABASE_CHECK_TIMEOUT_MS;
  let workerExpected = false;
  let worker: RunningWorker | undefined;
  let migrationsApplied = false;
  // Failures are logged when a check turns bad, not on every probe while it stays bad.
  const failing = new Set<string>();

  const observe = (name: string, result: CheckResult, err?: unknown) => {
    if (result.ok) {
      if (failing.delete(name)) logger.info({ check: name }, 'readiness check passes again');
    } else if (!failing.has(name)) {
      failing.add(name);
      logger.warn({ check: name, reason: result.message, err }, 'readiness check failed');
    }
    return result;
  };

  async function checkDatabase(): Promise<CheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const outcome = await Promise.race([ping(db).then(() => 'ok' as const), timeout]);
      if (outcome === 'timeout') {
        return observe('database', { ok: false, message: `The database did not answer within ${timeoutMs} ms` });
      }
      return observe('database', { ok: true });
    } catch (err) {
      return observe('database', { ok: false, message: 'The database is unreachable' }, err);
    } finally {
      clearTimeout(timer);
    }
  }

  async function checkMigrations(databaseOk: boolean): Promise<CheckResult> {
    if (migrationsApplied) return { ok: true };
    if (!databaseOk) return { ok: false, message: 'Not checked: the database is unreachable' };
    try {
      const pending = await pendingMigrations(db);
      if (pending.length === 0) {
        migrationsApplied = true;
        return observe('migrations', { ok: true });
      }
      const message = `${pending.length} migration${pending.length === 1 ? '' : 's'} not applied: ${pending.join(', ')}`;
      return observe('migrations', { ok: false, message });
    } catch (err) {
      return observe('migrations', { ok: false, message: 'Could not read the applied migrations' }, err);
    }
  }

  function checkWorker(): CheckResult {
    if (!workerExpected) return { ok: true, message: 'This process runs no worker' };
    if (!worker) return observe('worker', { ok: false, message: 'The worker has not started' });
    if (!worker.running()) return observe('worker', { ok: false, message: 'The worker has stopped' });
    return observe('worker', { ok: true });
  }

  return {
    expectWorker() {
      workerExpected = true;
    },
    workerStarted(started) {
      workerExpected = true;
      worker = started;
    },
    async check() {
      const database = await checkDatabase();
      const migrations = await checkMigrations(database.ok);
      const workerCheck = checkWorker();
      return {
        ready: database.ok && migrations.ok && workerCheck.ok,
        checks: { database, migrations, worker: workerCheck },
      };
    },
  };
}
