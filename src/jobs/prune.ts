// Forgetting finished jobs that were kept (for status queries) long enough.
import { and, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema.js';

export async function pruneFinishedJobs(db: Db, finishedBefore: Date): Promise<void> {
  await db.delete(jobs).where(and(inArray(jobs.status, ['completed', 'failed']), lt(jobs.completedAt, finishedBefore)));
}
