// Writes that may be lost in a crash without losing anything that matters (a rate-limit counter, the `running`
// marker of an execution, a content-addressed snapshot) commit without waiting for the WAL flush (an fsync; on
// PGlite it runs on the database thread). PGlite's single-user mode has no WAL writer to put such a commit on disk;
// pglite-wal-flusher.ts does it about a second later, so a SIGKILL loses at most the last second of them.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

export async function withRelaxedCommit<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    return work(tx as unknown as Db);
  });
}
