// Offloaded log values that no log records (offloaded-values.ts, docs/operations.md "Large values in logs"): a value's
// `files` row has no foreign key to its log (a log's key holds its start time, partitioned on PostgreSQL), so nothing
// but these rows finds its bytes. A row without an execution id is a value no log records (yet): one whose log was
// deleted by another way than retention, or one whose log was never written.
//
// Never written: a value's row is reserved, without an execution id, before its bytes are written
// (reserveValueRows), and given the log's execution id by the statement writing the log (runs/record-statement.ts).
// A process dying in between, or a log left out of its batch, leaves an orphan; as a log is written within seconds of
// its values, housekeeping takes only orphans older than ORPHAN_AGE_MS, never a value on its way to its log.
//
// Deleted: a deleted workflow's logs go by cascade; deleting the workflow takes its values' execution id away in the
// transaction that deletes its logs, after them (markValuesOfDeletedLogs).
//
// Either way the rows are orphans a small partial index holds (files_orphaned_values_idx: nothing else, but values on
// their way to their log), so finding them costs nothing while there are none — looking for values without a log
// instead read every log's id, ~0.6 s per pass at a million logs. Housekeeping deletes the bytes first and the rows
// after (pruneOrphanedValues): the rows are the only record of where the bytes are, so a crash or a storage failure
// in between leaves rows to try again, never bytes nothing points at.
//
// Uploaded files of a run (a `files` input) are not values and keep their execution id: they are the run's input,
// reachable by their signed URL until it expires, as with a workflow still there.
import { and, inArray, isNull, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { isExecutionNamedBy } from '../../db/execution-lookup.js';
import { files } from '../../db/schema.js';
import type { Logger } from '../../logger.js';
import type { FileStorage } from '../files/storage.js';
import type { OffloadedFile } from './offloaded-values.js';

const BATCH = 500;
const MAX_BATCHES = 20;
/** How old an orphan must be to go: a log is written within seconds of its values being stored, never an hour. */
export const ORPHAN_AGE_MS = 3_600_000;
/** The keys of offloaded values (offloaded-values.ts valuesPrefix), as a LIKE pattern; files_orphaned_values_idx's. */
const VALUE_KEYS = 'executions/%/values/%';
/** files_orphaned_values_idx's predicate, which a query must state as it is for the index to serve it. */
const orphaned = and(isNull(files.executionId), like(files.storageKey, VALUE_KEYS));

/**
 * Part of deleting a workflow, in its transaction once its logs are gone: the workspace's values whose log no longer
 * exists become orphans. Looked for after the delete, in a statement of its own, so it sees what a batch holding one of
 * those logs committed while the delete waited for it: a running log completed in place takes no lock on the
 * workflow's row, so a mark made before the delete could miss the values such a batch gave its log in between. A
 * log is written, and its values' rows given its execution id, in one statement, and retention deletes both in one:
 * a value of a live log is never taken.
 */
export async function markValuesOfDeletedLogs(tx: Db, workspaceId: string): Promise<void> {
  await tx.execute(sql`update files f set execution_id = null
    where f.workspace_id = ${workspaceId} and f.storage_key like ${VALUE_KEYS} and f.execution_id is not null
      and not exists (select 1 from executions where ${isExecutionNamedBy(sql`f.execution_id`)})`);
}

/**
 * For offloadValues' `reserve`: records a log's values as orphans before their bytes are written, so a process dying
 * before the log is written leaves rows housekeeping finds, not bytes nothing points at.
 */
export function reserveValueRows(db: Db, workspaceId: string): (values: OffloadedFile[]) => Promise<void> {
  return async (values) => {
    await db.insert(files).values(
      values.map((v, i) => ({
        id: v.id,
        workspaceId,
        executionId: null,
        name: `value-${i}.json`,
        mime: 'application/json',
        size: v.bytes,
        storageKey: v.key,
      })),
    );
  };
}

/** One batch: answers how many orphans were found and how many went (with their bytes). */
async function deleteOrphanBatch(deps: { db: Db; storage: FileStorage; logger: Logger }, before: Date): Promise<{ found: number; deleted: number }> {
  const rows = await deps.db
    .select({ id: files.id, key: files.storageKey })
    .from(files)
    .where(and(orphaned, lt(files.createdAt, before)))
    .limit(BATCH);
  const ids: string[] = [];
  for (const row of rows) {
    try {
      await deps.storage.delete(row.key);
      ids.push(row.id);
    } catch (err) {
      // The row stays, so the next pass tries again.
      deps.logger.warn({ err, storageKey: row.key }, 'could not delete the stored value of a deleted log; retried at the next pass');
    }
  }
  if (ids.length > 0) await deps.db.delete(files).where(and(inArray(files.id, ids), orphaned));
  return { found: rows.length, deleted: ids.length };
}

/** Housekeeping: deletes the values no log records, bytes then rows, once ORPHAN_AGE_MS old; answers how many went. */
export async function pruneOrphanedValues(deps: { db: Db; storage: FileStorage; logger: Logger }, now = Date.now()): Promise<number> {
  let deleted = 0;
  const before = new Date(now - ORPHAN_AGE_MS);
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const done = await deleteOrphanBatch(deps, before);
    deleted += done.deleted;
    // A short batch was the last; one whose bytes storage refused would find the same rows again.
    if (done.found < BATCH || done.deleted < done.found) break;
  }
  return deleted;
}

