// Cron schedules of active deployments (README "Other triggers"): deploying or activating a version replaces the
// workflow's schedules with that version's `schedule_trigger` blocks; undeploying removes them. Each schedule row
// records the next tick, which is also queued as a job (next-schedule-tick.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs, schedules } from '../db/schema.js';
import type { WorkflowState } from '../workflow/index.js';
import { enqueueTick, nextTick, SCHEDULE_TICK_JOB } from './next-schedule-tick.js';
import { scheduleTriggers } from './trigger-blocks.js';

export async function replaceSchedules(
  tx: Db,
  input: { workflowId: string; state: WorkflowState; deploymentVersion: number; now?: Date },
): Promise<void> {
  const wanted = scheduleTriggers(input.state);
  await removeSchedules(tx, input.workflowId);
  const now = input.now ?? new Date();
  for (const { blockId, config } of wanted) {
    const next = nextTick(config.cron, config.timezone, now);
    await tx.insert(schedules).values({
      workflowId: input.workflowId,
      blockId,
      cron: config.cron,
      timezone: config.timezone,
      deploymentVersion: input.deploymentVersion,
      nextRunAt: next,
    });
    if (next) {
      await enqueueTick(tx, { workflowId: input.workflowId, blockId, deploymentVersion: input.deploymentVersion, fireAt: next.getTime() });
    }
  }
}

/**
 * Drops the schedules and their queued ticks. A tick already running finishes (its schedule is gone, so it
 * queues no successor); a stray queued tick would also find no schedule and do nothing.
 */
export async function removeSchedules(tx: Db, workflowId: string): Promise<void> {
  await tx.delete(schedules).where(eq(schedules.workflowId, workflowId));
  await tx
    .delete(jobs)
    .where(and(eq(jobs.kind, SCHEDULE_TICK_JOB), eq(jobs.status, 'queued'), sql`${jobs.payload}->>'workflowId' = ${workflowId}`));
}
