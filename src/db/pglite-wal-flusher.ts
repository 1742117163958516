// The WAL writer PGlite lacks. A commit with `synchronous_commit = off` (relaxed.ts) leaves its WAL in
// Postgres's buffers; on PostgreSQL the WAL writer puts it on disk within a fraction of a second, but PGlite runs
// Postgres in single-user mode, with no WAL writer: such a commit stayed in memory until the next flushed commit, and a
// SIGKILL with nothing else committing lost it — the running marker of a lone slow run, and with it any trace of the
// run. So a second after the first statement since the last look, pending WAL is written and fsynced: at most one
// look per second under load; a look is a read-only query that flushes only when something is pending.

/** The longest a relaxed commit stays in memory only (plus the transaction the flush may queue behind). */
export const WAL_FLUSH_DELAY_MS = 1_000;

/**
 * Flushes the WAL when some of it is not on disk yet, else does nothing (and writes nothing). A non-transactional
 * logical message with `flush` (PostgreSQL 17+) is the one way SQL offers to flush the WAL without committing a write
 * of its own: one tiny record, no transaction id, no table. A CHECKPOINT would also write every dirty page.
 */
export const FLUSH_PENDING_WAL = `select case when pg_current_wal_insert_lsn() > pg_current_wal_flush_lsn()
  then pg_logical_emit_message(false, 'sluice-wal-flush', '', true) end`;

export interface WalFlusher {
  /** A statement was sent: it may have left WAL in memory only. */
  noteStatement(): void;
  /** No more flushes; waits for one under way. */
  stop(): Promise<void>;
}

/** `flush` runs FLUSH_PENDING_WAL in turn with the other statements (never inside someone else's transaction). */
export function startWalFlusher(flush: () => Promise<unknown>, delayMs = WAL_FLUSH_DELAY_MS): WalFlusher {
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<unknown> | undefined;
  let stopped = false;
  return {
    noteStatement() {
      if (timer || stopped) return;
      timer = setTimeout(() => {
        timer = undefined;
        // A failure (the thread died, the database is closing) is not this flusher's to report: the next statement
        // fails the same way and says so to its caller.
        flushing = flush()
          .catch(() => undefined)
          .finally(() => (flushing = undefined));
      }, delayMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await flushing;
    },
  };
}
