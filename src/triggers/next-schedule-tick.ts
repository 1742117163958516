// Cron arithmetic and the tick jobs of schedules. A schedule's next tick is one queued job whose id is derived
// from (workflow, block, tick time): whoever computes that tick — a deploy, or the previous tick's worker, in any
// process — inserts the same id, and ON CONFLICT DO NOTHING keeps it to one job, so one run.
import { Cron } from 'croner';
import type { Db } from '../db/client.js';
import { newExecutionId } from '../ids.js';
import { enqueueJobs } from '../jobs/enqueue.js';

export const SCHEDULE_TICK_JOB = 'schedule.tick';

export interface TickPayload {
  workflowId: string;
  blockId: string;
  deploymentVersion: number;
  /** The tick this job fires, epoch ms. */
  fireAt: number;
  /** Assigned when the tick is queued, so a worker that takes over a crashed tick can find its run. */
  executionId: string;
}

/** The first tick strictly after `after`, in the schedule's time zone; null when the pattern never fires again. */
export function nextTick(cron: string, timezone: string, after: Date): Date | null {
  return new Cron(cron, { paused: true, timezone }).nextRun(after);
}

export function tickJobId(workflowId: string, blockId: string, fireAt: number): string {
  return `sched_${workflowId}_${blockId}_${fireAt}`;
}

/** Queues the tick unless a job for it already exists (in the caller's transaction, when given one). */
export async function enqueueTick(tx: Db, tick: Omit<TickPayload, 'executionId'>): Promise<void> {
  const payload: TickPayload = { ...tick, executionId: newExecutionId() };
  await enqueueJobs(
    tx,
    [{ id: tickJobId(tick.workflowId, tick.blockId, tick.fireAt), kind: SCHEDULE_TICK_JOB, payload, runAt: new Date(tick.fireAt) }],
    { skipQueuedIds: true },
  );
}
