// Outcomes are recorded in batches, like a group commit: the first one goes at once, and whatever finishes while
// that write is under way goes together in the next. Under load this turns one statement (and one commit) per job
// into one per handful, at no extra latency when idle.
import type { Db } from '../db/client.js';
import { settleJobs, type Settlement } from './settle.js';
import type { ClaimedJob, Clock, JobResult } from './types.js';

/** Most outcomes recorded in one statement. */
const MAX_BATCH = 64;

type Pending = Settlement & { done: (held: boolean | Error) => void };

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/** Returns `settle(job, result, keepFinished)`: resolves to whether the job was still this worker's to settle. */
export function createSettleQueue(db: Db, workerId: string, clock: Clock) {
  const queue: Pending[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        const held = await settleJobs(db, workerId, batch, clock.now());
        batch.forEach((item, i) => item.done(held[i]));
      } catch (err) {
        if (batch.length === 1) {
          batch[0].done(asError(err));
          continue;
        }
        // One bad write must not hold back the others: record them one by one.
        for (const item of batch) {
          try {
            item.done((await settleJobs(db, workerId, [item], clock.now()))[0]);
          } catch (single) {
            item.done(asError(single));
          }
        }
      }
    }
    flushing = false;
  }

  return (job: ClaimedJob, result: JobResult, keepFinished: boolean): Promise<boolean> =>
    new Promise((resolve, reject) => {
      queue.push({ job, result, keepFinished, done: (held) => (held instanceof Error ? reject(held) : resolve(held)) });
      if (!flushing) void flush();
    });
}
