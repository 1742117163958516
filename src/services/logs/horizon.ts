// The visibility horizon of ascending reads — how incremental polling (order=asc + startDate + cursor;
// docs/guarantees.md 2) never skips a log.
//
// A log is listed only once its run is complete, but it is ordered by when the run *started*. A slow run that
// started before a fast one completes after it: a poller whose cursor already passed the fast run's position would
// never see the slow one. So an ascending read only returns logs that started before the horizon:
//
//   horizon = min(earliest startedAt among the workspace's still-running executions, database now − SETTLE_MS)
//
// Only running rows the query could return count (same workflows, folders, triggers, start range): a poller of
// one workflow is not held back by a long run of another.
// Everything before the horizon is final: no run that started earlier can still complete, so a cursor never has
// to move back. Running rows older than the execution time-out + STALE_GRACE_MS are ignored: they belong to a
// process that died mid-run (nothing will ever complete them), and must not stall every poller forever.
// SETTLE_MS covers the moment between a run taking its start time and its `running` row becoming visible to
// other transactions (and clock differences between server processes); within that gap the run is invisible
// even to the running-rows lookup. Descending reads are not affected: they are for browsing, not resuming.
//
// On a streaming standby (DATABASE_READ_URL) "now" is not what the data shows: the standby holds the primary's
// state as of its last replayed commit, so `now − SETTLE_MS` there would pass a slow run whose running row is still
// in the unreplayed WAL, and its fast successor, already replayed, would be listed ahead of it (and the slow one
// skipped for good). There the horizon's clock is the time the standby's data stands at (`replicaAsOf`).
import { and, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { executions } from '../../db/schema.js';
import { knownAtStartFilters } from './filters.js';
import type { LogsQuery } from './params.js';

export const SETTLE_MS = 1_000;
export const STALE_GRACE_MS = 60_000;

/**
 * `primary` is set when `db` is a separate read connection (DATABASE_READ_URL): the replica's position is then
 * checked against it before the running rows are read from `db`.
 */
export async function visibilityHorizon(
  db: Db,
  config: Pick<Config, 'executionTimeoutMs'>,
  q: LogsQuery,
  primary?: Db,
): Promise<Date> {
  // Read before the running rows: the statement below takes its snapshot later, so it holds at least this much.
  const asOfMs = primary ? await replicaAsOf(db, primary) : null;
  const staleAfterMs = config.executionTimeoutMs + STALE_GRACE_MS;
  // Epoch milliseconds as float8 read the same from PGlite and node-postgres; `status = 'running'` is written as
  // a literal so the planner can match the partial index executions_running_idx.
  const [row] = await db
    .select({
      oldestRunningMs: sql<number | null>`(extract(epoch from min(${executions.startedAt})) * 1000)::float8`,
      nowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
    })
    .from(executions)
    .where(
      and(
        sql`${executions.status} = 'running'`,
        ...knownAtStartFilters(q),
        sql`${executions.startedAt} > now() - ${staleAfterMs}::float8 * interval '1 millisecond'`,
      ),
    );
  const settled = Math.floor(Math.min(Number(row.nowMs), asOfMs ?? Infinity)) - SETTLE_MS;
  const oldest = row.oldestRunningMs === null ? Infinity : Number(row.oldestRunningMs);
  return new Date(Math.min(oldest, settled));
}

/**
 * The primary's time the replica's data stands at, in epoch ms (null: the read connection is no standby, its data
 * is current). Caught up with where the primary's WAL was a moment ago (its insert position, which covers commits
 * made with synchronous_commit off too), it holds the primary's state of that moment: the primary's clock then —
 * which also keeps an idle primary's logs from waiting for a next commit. Behind it, it holds the primary's state
 * as of its last replayed commit; none replayed since the standby started (null) shows nothing new yet, until the
 * next replayed commit or catching up, which never takes longer than the replication lag.
 */
async function replicaAsOf(db: Db, primary: Db): Promise<number | null> {
  // Both at once: either order proves the same (the replica had replayed at least that far when it was asked).
  const [replica, source] = await Promise.all([
    oneRow<{ recovering: boolean; replayed: string | null; lastCommitMs: number | null }>(
      db,
      sql`select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as replayed,
        (extract(epoch from pg_last_xact_replay_timestamp()) * 1000)::float8 as "lastCommitMs"`,
    ),
    oneRow<{ written: string; nowMs: number }>(
      primary,
      sql`select pg_current_wal_insert_lsn()::text as written, (extract(epoch from now()) * 1000)::float8 as "nowMs"`,
    ),
  ]);
  if (!replica.recovering) return null;
  if (replica.replayed !== null && lsn(replica.replayed) >= lsn(source.written)) return Number(source.nowMs);
  return replica.lastCommitMs === null ? 0 : Number(replica.lastCommitMs);
}

/** node-postgres and PGlite both answer `execute` with a result carrying `rows`. */
async function oneRow<T>(db: Db, query: SQL): Promise<T> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows[0];
}

/** A WAL position (`16/B374D848`) as a comparable number. */
function lsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}
