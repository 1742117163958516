// Writes that may be lost in a crash without losing anything that matters (a rate-limit counter, the `running`
// marker of an execution, a content-addressed snapshot) commit without waiting for the WAL flush. On this class
// of disk a flushed commit costs milliseconds, and on PGlite it is a synchronous fsync on the event loop, so each
// execution keeps exactly one flushed commit: the one that records its outcome and its webhook deliveries.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

export async function withRelaxedCommit<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    return work(tx as unknown as Db);
  });
}
