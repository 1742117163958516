// Writes that may be lost in a crash without losing anything that matters (a rate-limit counter, a session's
// last-seen time, the `running` marker of an execution, a job's claim or outcome) commit without waiting for the
// WAL flush (an fsync; on PGlite it runs on the database thread). PGlite's single-user mode has no WAL writer to put
// such a commit on disk; pglite-wal-flusher.ts does it about a second later, so a SIGKILL loses at most the last
// second of them. Never for a write whose loss would lose work (enqueueing a job, a completed log).
//
// One mechanism: a WITH item of the statement itself, so a relaxed write stays one round trip (a transaction with
// `SET LOCAL` would cost BEGIN, SET and COMMIT on top of the write).
import { sql } from 'drizzle-orm';

/**
 * The WITH item that turns off waiting for the WAL flush for this statement's own (implicit) transaction. PostgreSQL
 * skips a SELECT in WITH that nothing references, so the statement must also use RELAXED_COMMIT_TAKEN.
 */
export const RELAXED_COMMIT = sql`relaxed as (select set_config('synchronous_commit', 'off', true) as on_commit)`;

/**
 * Always true: the reference to RELAXED_COMMIT that makes PostgreSQL evaluate it. Goes in a WHERE clause
 * (`... and ${RELAXED_COMMIT_TAKEN}`) or in the select list (`${RELAXED_COMMIT_TAKEN} as relaxed`).
 */
export const RELAXED_COMMIT_TAKEN = sql`((select on_commit from relaxed) is not null)`;
