// The job queue at a glance, for the metrics scrape: per kind, how many jobs are due and waiting, waiting for a later
// time, and running, and how long the oldest due one has waited. One statement over the queued and running rows only
// (finished rows, the bulk of the table, are never read).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

export interface QueueStats {
  kind: string;
  queued: number;
  scheduled: number;
  running: number;
  oldestQueuedSeconds: number | null;
}

export async function queueStats(db: Db): Promise<QueueStats[]> {
  const rows = await rowsOf(db, sql`
    select kind,
      count(*) filter (where status = 'queued' and run_at <= now()) as queued,
      count(*) filter (where status = 'queued' and run_at > now()) as scheduled,
      count(*) filter (where status = 'running') as running,
      extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())) as oldest
    from jobs where status in ('queued', 'running') group by kind`);
  return rows.map((row) => ({
    kind: String(row.kind),
    queued: Number(row.queued),
    scheduled: Number(row.scheduled),
    running: Number(row.running),
    oldestQueuedSeconds: row.oldest === null ? null : Number(row.oldest),
  }));
}
