// Crash recovery for runs (issue: a run must never stay `running` because its process died). Every process that runs
// workflows registers in `runners` and beats a heartbeat every HEARTBEAT_MS; each beat also looks for runs whose
// process is gone — its heartbeat older than DEAD_AFTER_MS, or no runner row at all — and closes them as error logs
// ("interrupted"), with their completion webhooks, so pollers are not held back and subscribers hear of them.
// On PGlite only one process can hold the data directory, so at start-up every other runner is dead at once.
import { eq, sql } from 'drizzle-orm';
import { executions, runners } from '../db/schema.js';
import { isExecutionNamedBy } from '../db/execution-lookup.js';
import { requeueAllRunningJobs } from '../jobs/claim.js';
import { JOBS_CHANNEL } from '../jobs/enqueue.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import type { AppContext } from '../services/app-context.js';
import { closeInterruptedRuns, INTERRUPTED_BY_CRASH } from './interrupted.js';
import { DEAD_AFTER_MS, HEARTBEAT_MS, RUNNER_ID } from './runner-id.js';

export { DEAD_AFTER_MS, HEARTBEAT_MS, RUNNER_ID };

export interface Runner {
  stop(): Promise<void>;
}

/** Registers this process, closes runs of dead ones, and keeps beating until stopped. */
export async function startRunner(app: AppContext, options: { othersAreDead: boolean }): Promise<Runner> {
  await app.db
    .insert(runners)
    .values({ id: RUNNER_ID, startedAt: new Date(), heartbeatAt: sql`now()` })
    .onConflictDoUpdate({ target: runners.id, set: { heartbeatAt: sql`now()` } });
  await closeOrphanedRuns(app, { everyOtherRunner: options.othersAreDead });
  // Their jobs too: no need to wait for leases to lapse when their holders are known to be gone.
  if (options.othersAreDead) await requeueAllRunningJobs(app.db);

  let beating: Promise<void> | undefined;
  const beat = async () => {
    try {
      await app.db.update(runners).set({ heartbeatAt: sql`now()` }).where(eq(runners.id, RUNNER_ID));
      await closeOrphanedRuns(app, { everyOtherRunner: false });
      await app.keyUsage.flush();
    } catch (err) {
      app.logger.warn({ err }, 'runner heartbeat failed');
    }
  };
  const timer = setInterval(() => {
    beating ??= beat().finally(() => (beating = undefined));
  }, HEARTBEAT_MS);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await beating;
      await app.keyUsage.flush().catch(() => undefined);
      // Gone cleanly: nothing of ours is still running (the caller drained), so the row can go.
      await app.db.delete(runners).where(eq(runners.id, RUNNER_ID)).catch(() => undefined);
    },
  };
}

/** Closes every `running` execution whose process is gone; returns how many. Safe to run anywhere, any time. */
export async function closeOrphanedRuns(app: AppContext, options: { everyOtherRunner: boolean }): Promise<number> {
  const alive = options.everyOtherRunner
    ? sql`r.id = ${RUNNER_ID}`
    : sql`r.heartbeat_at > now() - ${DEAD_AFTER_MS}::float8 * interval '1 millisecond'`;
  const closed = await app.db.transaction(async (tx) => {
    const count = await closeInterruptedRuns(
      tx,
      app,
      sql`not exists (select 1 from runners r where r.id = ${executions.runnerId} and ${alive})`,
      INTERRUPTED_BY_CRASH,
    );
    // Their flow control slots too (flow-slots.ts), and any slot whose run has ended without freeing it: no key stays
    // blocked by a process that died. The workers hear of it at commit, as a freed slot may let a queued run go.
    const freed = await tx.execute(sql`with freed as (
        delete from flow_slots s
        where not exists (select 1 from runners r where r.id = s.runner_id and ${alive})
          or (s.acquired_at < now() - interval '10 seconds' and exists (
            select 1 from executions where ${isExecutionNamedBy(sql`s.execution_id`)} and ${executions.status} not in ('running', 'resuming')))
          or (s.acquired_at < now() - interval '1 minute' and not exists (
            select 1 from executions where ${isExecutionNamedBy(sql`s.execution_id`)}))
        returning 1)
      select pg_notify(${JOBS_CHANNEL}, '') from (select count(*) as n from freed) c where c.n > 0`);
    if ((freed as unknown as { rows: unknown[] }).rows.length > 0) nudgeLocalWorkers();
    // Its flow control leases (flow-leases.ts): the slots it kept in memory went with its runs.
    await tx.execute(sql`update workflows set flow_lease_holder = null
      where flow_lease_holder is not null
        and not exists (select 1 from runners r where r.id = split_part(workflows.flow_lease_holder, '#', 1) and ${alive})`);
    if (options.everyOtherRunner) await tx.delete(runners).where(sql`${runners.id} <> ${RUNNER_ID}`);
    else await tx.delete(runners).where(sql`${runners.heartbeatAt} < now() - ${DEAD_AFTER_MS}::float8 * interval '1 millisecond'`);
    return count;
  });
  if (closed > 0) app.logger.warn({ closed }, 'closed runs interrupted by a stopped server process');
  return closed;
}
