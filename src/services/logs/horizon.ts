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
import { and, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { executions } from '../../db/schema.js';
import { knownAtStartFilters } from './filters.js';
import type { LogsQuery } from './params.js';

export const SETTLE_MS = 1_000;
export const STALE_GRACE_MS = 60_000;

export async function visibilityHorizon(
  db: Db,
  config: Pick<Config, 'executionTimeoutMs'>,
  q: LogsQuery,
): Promise<Date> {
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
  const settled = Math.floor(Number(row.nowMs)) - SETTLE_MS;
  const oldest = row.oldestRunningMs === null ? Infinity : Number(row.oldestRunningMs);
  return new Date(Math.min(oldest, settled));
}
