// Writes that may be lost in a crash without losing anything that matters (a rate-limit counter, the `running`
// marker of an execution, a content-addressed snapshot) commit without waiting for the WAL flush (an fsync; on
// PGlite it runs on the database thread). On PGlite such a commit becomes durable only with the next flushed one:
// there is no WAL writer in its single-user mode, so a SIGKILL loses what came after the last flushed commit.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

export async function withRelaxedCommit<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    return work(tx as unknown as Db);
  });
}
