// The schedule trigger (README "Other triggers"): the `schedule.tick` job fires one tick of a schedule. Before running,
// it moves the schedule on and queues the next tick in one transaction, guarded on the schedule still expecting this
// tick — so a tick of a replaced or removed schedule does nothing, and the chain of ticks continues even if this run
// fails or its worker dies. The next tick is computed from now, not from this tick: after downtime the overdue tick
// runs once (the one catch-up run) and the ticks missed meanwhile are skipped, never replayed in a burst.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { schedules } from '../db/schema.js';
import type { ClaimedJob, JobHandler, JobResult, JobRunContext } from '../jobs/types.js';
import type { AppContext } from '../services/app-context.js';
import {
  type FlowWait,
  loadDeploymentVersion,
  runExecution,
  runFlowOf,
  runHoldingSlot,
  runThrottleOf,
  settleEarlierAttempt,
  takeStartInBackground,
} from '../runs/index.js';
import { runTimeLimitMs } from '../workflow/index.js';
import { enqueueTick, nextTick, type TickPayload } from './next-schedule-tick.js';

const tickPayload = z.object({
  workflowId: z.string(),
  blockId: z.string(),
  deploymentVersion: z.number().int(),
  fireAt: z.number().int(),
  executionId: z.string(),
}) satisfies z.ZodType<TickPayload>;

const REFUSALS = {
  ALREADY_RUNNING: 'a run for the key is in flight',
  CONCURRENCY_LIMIT: 'the concurrency limit is reached',
  THROTTLED: 'the throttle has no start free',
} as const;

const skipped = (reason: string): JobResult => ({ outcome: { type: 'complete', result: { skipped: reason } } });

/**
 * Moves the schedule past this tick and queues the next one. False when the schedule no longer expects this tick
 * (replaced, removed, or already moved on by someone else). A re-claimed job whose first attempt already moved it
 * on finds `lastRunAt` at this tick and may still run.
 */
async function advanceSchedule(app: AppContext, tick: TickPayload, attempts: number, now: number): Promise<boolean> {
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.workflowId, tick.workflowId), eq(schedules.blockId, tick.blockId)))
      .for('update');
    if (!row || row.deploymentVersion !== tick.deploymentVersion) return false;
    if (row.nextRunAt?.getTime() !== tick.fireAt) return attempts > 1 && row.lastRunAt?.getTime() === tick.fireAt;
    const next = nextTick(row.cron, row.timezone, new Date(Math.max(tick.fireAt, now)));
    await tx.update(schedules).set({ nextRunAt: next, lastRunAt: new Date(tick.fireAt) }).where(
      and(eq(schedules.workflowId, tick.workflowId), eq(schedules.blockId, tick.blockId)),
    );
    if (next) {
      await enqueueTick(tx, { workflowId: tick.workflowId, blockId: tick.blockId, deploymentVersion: row.deploymentVersion, fireAt: next.getTime() });
    }
    return true;
  });
}

async function runTick(app: AppContext, job: ClaimedJob, context: JobRunContext): Promise<JobResult> {
  const parsed = tickPayload.safeParse(job.payload);
  if (!parsed.success) return { outcome: { type: 'fail', error: 'Malformed schedule tick payload' } };
  const tick = parsed.data;
  if (job.attempts > 1 && (await settleEarlierAttempt(app, tick.executionId)) === 'finished') {
    return skipped('ran in an earlier attempt');
  }
  if (!(await advanceSchedule(app, tick, job.attempts, context.clock.now()))) return skipped('the schedule was replaced or removed');

  const target = await loadDeploymentVersion(app, tick.workflowId, tick.deploymentVersion);
  if (!target) return skipped('the deployment no longer exists');
  // Nobody waits on a schedule to receive a 402, so an exhausted plan skips the tick and says so in the server log.
  if ((await app.usage.current(target.owner)).isExceeded) {
    app.logger.warn({ workflowId: tick.workflowId, blockId: tick.blockId }, 'scheduled run skipped: usage limit reached');
    return skipped('usage limit reached');
  }
  const input = { firedAt: new Date(tick.fireAt).toISOString() };
  // Flow control (runs/flow-background.ts): the tick waits, claimed, for a slot of its key and then for a start of its
  // throttle — or is skipped when the workflow refuses runs over its limit (reject; a singleton's skip: the usual
  // "never overlap" of a schedule), the same rule over the throttle's rate. Debounce does not apply to ticks: a
  // schedule's ticks are its cron's, never a burst.
  const flow = runFlowOf(tick.workflowId, target.state, input);
  const throttle = runThrottleOf(tick.workflowId, target.state, input);
  let flowWait: FlowWait | undefined;
  let startedAt: Date | undefined;
  if (flow || throttle) {
    const refuseThrottled = flow?.mode === 'reject' || flow?.mode === 'skip';
    const start = await takeStartInBackground(app, { flow, throttle, refuseThrottled }, tick.executionId, target.owner, context.signal);
    if ('refused' in start) return skipped(`flow control: ${REFUSALS[start.refused]}`);
    // Stopped while waiting: tried again (as a second attempt, which finds the schedule already moved past this tick).
    if ('stopped' in start) return { outcome: { type: 'retry', runAt: context.clock.now(), error: 'stopped while waiting for flow control' } };
    flowWait = start.taken;
    startedAt = start.startedAt;
  }
  const run = () =>
    runExecution(app, {
      ...target,
      trigger: 'schedule',
      triggerBlockId: tick.blockId,
      input,
      executionId: tick.executionId,
      signal: context.signal,
      timeoutMs: runTimeLimitMs(target.state.flowControl, app.config.executionTimeoutMs, false),
      canPark: true,
      markBeforeStart: true,
      ...(startedAt ? { startedAt } : {}),
      ...(flowWait ? { flowWait } : {}),
      ...(flow ? { holdsFlowSlot: true } : {}),
    });
  const outcome = flow ? await runHoldingSlot(app, tick.executionId, run) : await run();
  return { outcome: { type: 'complete', result: { executionId: outcome.executionId, success: outcome.result.success } } };
}

export function createScheduleTickHandler(app: AppContext): JobHandler {
  return {
    run: (job, context) => runTick(app, job, context),
    // Like async executions, scheduled runs may take at most half the worker's slots, leaving room for deliveries.
    concurrency: Math.max(1, Math.ceil(app.config.worker.concurrency / 2)),
    maxClaims: 3,
  };
}
