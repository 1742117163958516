// Log retention (docs/guarantees.md 5): with SLUICE_LOG_RETENTION_DAYS set, worker maintenance deletes finished run
// logs older than that, the files stored for those runs (among them the log values too large for its row, recorded
// as its files: offloaded-values.ts), and finished webhook deliveries older than that. What a
// promise still depends on is never deleted: a run still running or waiting for an approval, and a log whose
// completion webhook is still being delivered (it goes once the delivery has succeeded or given up, and has aged).
// Agent memories (services/agent-memory.ts) whose last message is older than that go too: they hold conversations
// as logs do.
//
// On PostgreSQL, where logs are partitioned by month (db/executions-partitions.ts), a month wholly older than the
// bound whose logs may all go is dropped whole (its files' rows in the same transaction); what is left past the
// bound — the month the bound falls in, the default partition, a month still holding a log a promise depends on — is
// deleted row by row below.
//
// Deletes go in batches, each its own short statement, so a first pruning of a large table never holds locks long
// or stalls the runs committing beside it; a tick stops after MAX_BATCHES and the next one goes on.
import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { databaseErrorCode, UNDEFINED_TABLE } from '../../db/errors.js';
import { isPartitioned, monthPartitions, tryPartitionLock, type MonthPartition } from '../../db/executions-partitions.js';
import { rowsOf } from '../../db/rows.js';
import { executionIdOfLog, logExecutionId } from '../../db/schema.js';
import type { FileStorage } from '../files/storage.js';
import type { Logger } from '../../logger.js';
import { deleteOldMemoryBatch } from '../agent-memory.js';

const BATCH = 500;
const MAX_BATCHES = 20;
const DAY_MS = 24 * 3_600_000;

export interface PruneResult {
  /** Logs deleted, counting those of dropped partitions. */
  logs: number;
  /** Month partitions dropped whole. */
  partitions: string[];
  files: number;
  deliveries: number;
  memories: number;
}

/** The execution id of the log named `e` in the statements below (a paired log keeps none in its column). */
const EXECUTION_ID_OF_E = executionIdOfLog({ id: sql`e.id`, executionId: sql`e.execution_id` });

/**
 * One batch of finished logs older than `cutoff` deleted, with the rows of their files, in one statement (so no file
 * row outlives its log); answers how many logs went and the storage keys of their files.
 */
async function deleteLogBatch(db: Db, cutoff: Date): Promise<{ logs: number; keys: string[] }> {
  // Per workspace through the (workspace_id, started_at) index; a run ends after it starts, so started_at narrows the
  // search and ended_at decides. Runs with a delivery still pending keep their log until it is delivered or dead.
  const [row] = await rowsOf<{ logs: number; keys: string[] }>(
    db,
    sql`with doomed as (
      select old.id from workspaces w
      cross join lateral (
        select e.id from executions e
        where e.workspace_id = w.id and e.started_at < ${cutoff} and e.ended_at < ${cutoff}
          and e.status in ('success', 'error', 'cancelled')
          and ${EXECUTION_ID_OF_E} not in (select d.execution_id from deliveries d where d.status = 'pending' and d.execution_id is not null)
        limit ${BATCH}
      ) old
      limit ${BATCH}
    ),
    gone as (delete from executions where id in (select id from doomed) returning ${logExecutionId} as execution_id),
    gone_files as (delete from files where execution_id in (select execution_id from gone) returning storage_key)
    select (select count(*) from gone)::int as logs,
      coalesce((select json_agg(storage_key) from gone_files), '[]'::json) as keys`,
  );
  return row;
}

/** The bytes of deleted file rows; a failure leaves only unreachable bytes behind (no row points at them). */
async function deleteStoredFiles(storage: FileStorage, logger: Logger, keys: string[]): Promise<void> {
  for (const key of keys) {
    await storage.delete(key).catch((err: unknown) => logger.warn({ err, storageKey: key }, 'could not delete the file of a pruned log'));
  }
}

async function deleteDeliveryBatch(db: Db, cutoff: Date): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`delete from deliveries where id in (
      select id from deliveries where status in ('succeeded', 'failed') and completed_at < ${cutoff} limit ${BATCH}
    ) returning 1`,
  );
  return rows.length;
}

/** A log retention must keep, among a month's rows (the row-by-row delete's conditions, negated). */
const keeps = (table: SQLWrapper, cutoff: Date) => sql`exists (select 1 from ${table} e
  where e.status not in ('success', 'error', 'cancelled') or e.ended_at is null or e.ended_at >= ${cutoff}
    or ${EXECUTION_ID_OF_E} in (select d.execution_id from deliveries d where d.status = 'pending' and d.execution_id is not null))`;

/**
 * Drops a month wholly older than `cutoff` when none of its logs must be kept; otherwise leaves it to the row-by-row
 * delete. The full check reads the month without locks; then, in one transaction, the month's file rows are deleted,
 * and, holding the table for a moment, the cheap part of the check is repeated — only a log still running or waiting,
 * or one given a delivery since, could have changed — and the month dropped: a month kept after all (the re-check,
 * or the lock not had in time) keeps its files. The stored bytes go after the commit, as the row-by-row
 * delete's do: their rows are gone by then, so nothing can point at them.
 *
 * One worker at a time drops (tryPartitionLock): two droppers each reading the month before either locks it would
 * deadlock. A worker finding the lock taken answers 'busy' and leaves the month to the one holding it; a worker
 * finding the month already gone (42P01, dropped by another since it was listed) has nothing left to do. Its logs
 * and files are counted by the worker that dropped it.
 */
async function dropExpiredPartition(
  deps: { db: Db; storage: FileStorage; logger: Logger },
  month: MonthPartition,
  cutoff: Date,
  result: PruneResult,
): Promise<'busy' | undefined> {
  const { db } = deps;
  const table = sql.identifier(month.name);
  try {
    const [check] = await rowsOf<{ kept: boolean; logs: number }>(
      db,
      sql`select ${keeps(table, cutoff)} as kept, (select count(*) from ${table})::int as logs`,
    );
    if (!check || check.kept) return;
    const keys = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      if (!(await tryPartitionLock(t))) return 'busy';
      // Dropping a partition locks the whole table: wait briefly for readers and writers, never queue them for long.
      await t.execute(sql`set local lock_timeout = '3s'`);
      // The month's files go before the lock, which would hold every log read and write while they are looked up and
      // deleted: a month kept after all (the check below) rolls their deletion back with the rest.
      const gone = await rowsOf<{ key: string }>(
        t,
        sql`delete from files where execution_id in (select ${EXECUTION_ID_OF_E} from ${table} e) returning storage_key as key`,
      );
      await t.execute(sql`lock table executions, ${table} in access exclusive mode`);
      const [recheck] = await rowsOf<{ kept: boolean }>(
        t,
        sql`select exists (select 1 from ${table} e where e.status in ('running', 'paused', 'resuming')
          or ${EXECUTION_ID_OF_E} in (select d.execution_id from deliveries d where d.status = 'pending' and d.execution_id is not null)) as kept`,
      );
      if (recheck?.kept) throw new KeptLog();
      await t.execute(sql`drop table ${table}`);
      return gone.map((r) => r.key);
    });
    if (keys === 'busy') return 'busy';
    await deleteStoredFiles(deps.storage, deps.logger, keys);
    result.files += keys.length;
    result.logs += check.logs;
    result.partitions.push(month.name);
  } catch (err) {
    if (err instanceof KeptLog || databaseErrorCode(err) === UNDEFINED_TABLE) return;
    deps.logger.warn({ err, partition: month.name }, 'could not drop a log partition past retention; its rows are deleted instead');
  }
}

class KeptLog extends Error {}

/** Runs `deleteBatch` until a batch comes back short (nothing more past the cutoff) or MAX_BATCHES have run. */
async function inBatches(deleteBatch: () => Promise<number>): Promise<void> {
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    if ((await deleteBatch()) < BATCH) return;
  }
}

export async function pruneOldLogs(
  deps: { db: Db; storage: FileStorage; logger: Logger },
  retentionDays: number,
  now = Date.now(),
): Promise<PruneResult> {
  const cutoff = new Date(now - retentionDays * DAY_MS);
  const result: PruneResult = { logs: 0, partitions: [], files: 0, deliveries: 0, memories: 0 };
  // Expired logs are never deleted row by row beside a drop: the two deadlock (this delete waiting on the month's
  // file rows the drop holds, the drop on this delete's hold on the table). A worker dropping months this moment
  // ('busy') deletes the rest after; each batch holds the partition lock shared, so no drop starts beside it either.
  const partitioned = await isPartitioned(deps.db);
  let othersDropping = false;
  if (partitioned) {
    for (const month of await monthPartitions(deps.db)) {
      if (month.to > cutoff) break; // oldest first: the rest reach past the bound
      othersDropping = (await dropExpiredPartition(deps, month, cutoff, result)) === 'busy';
      if (othersDropping) break;
    }
  }
  if (!othersDropping) {
    await inBatches(async () => {
      const batch = partitioned
        ? await deps.db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            return (await tryPartitionLock(t, 'shared')) ? deleteLogBatch(t, cutoff) : undefined;
          })
        : await deleteLogBatch(deps.db, cutoff);
      if (!batch) return 0; // a drop (or a month being made) meanwhile: the next pass goes on
      await deleteStoredFiles(deps.storage, deps.logger, batch.keys);
      result.logs += batch.logs;
      result.files += batch.keys.length;
      return batch.logs;
    });
  }
  await inBatches(async () => {
    const deleted = await deleteDeliveryBatch(deps.db, cutoff);
    result.deliveries += deleted;
    return deleted;
  });
  await inBatches(async () => {
    const deleted = await deleteOldMemoryBatch(deps.db, cutoff, BATCH);
    result.memories += deleted;
    return deleted;
  });
  return result;
}
