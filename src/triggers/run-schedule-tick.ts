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
  takeStartOrQueue,
} from '../runs/index.js';
import { runTimeLimitMs } from '../workflow/index.js';
import { enqueueTick, nextTick, type TickPayload } from './next-schedule-tick.js';

const tickPayload = z.object({
  workflowId: z.string(),
  blockId: z.string(),
  deploymentVersion: z.number().int(),
  fireAt: z.number().int(),
  executionId: z.string(),
  /** Set once the tick's job went back to the queue to wait for flow control (epoch ms): the schedule moved on then. */
  flowWaitSince: z.number().optional(),
  /** The throttle held it back (the log's reason). */
  throttled: z.boolean().optional(),
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
async function advanceSchedule(app: AppContext, tick: TickPayload, attempts: number, now: number, waited: boolean): Promise<boolean> {
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.workflowId, tick.workflowId), eq(schedules.blockId, tick.blockId)))
      .for('update');
    if (!row || row.deploymentVersion !== tick.deploymentVersion) return false;
    // A tick back from waiting for flow control moved the schedule on before it waited (later ticks may have since).
    if (waited) return true;
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
  const waited = tick.flowWaitSince !== undefined;
  if (!(await advanceSchedule(app, tick, job.attempts, context.clock.now(), waited))) return skipped('the schedule was replaced or removed');

  const target = await loadDeploymentVersion(app, tick.workflowId, tick.deploymentVersion);
  if (!target) return skipped('the deployment no longer exists');
  // Nobody waits on a schedule to receive a 402, so an exhausted plan skips the tick and says so in the server log.
  if ((await app.usage.current(target.owner)).isExceeded) {
    app.logger.warn({ workflowId: tick.workflowId, blockId: tick.blockId }, 'scheduled run skipped: usage limit reached');
    return skipped('usage limit reached');
  }
  const input = { firedAt: new Date(tick.fireAt).toISOString() };
  // Flow control (runs/flow-background.ts): a tick that finds its key full or its throttle over the rate goes back to
  // the queue, like a queued async run, holding no worker slot: passed over by the claim until its key has a free slot
  // (jobs/claim.ts), or due when its next throttle start frees. It is skipped instead when the workflow refuses runs
  // over its limit (reject; a singleton's skip: the usual "never overlap" of a schedule), the same rule over the
  // throttle's rate. Debounce does not apply to ticks: a schedule's ticks are its cron's, never a burst.
  const flow = runFlowOf(tick.workflowId, target.state, input);
  const throttle = runThrottleOf(tick.workflowId, target.state, input);
  let flowWait: FlowWait | undefined;
  let startedAt: Date | undefined;
  if (flow || throttle) {
    const refuseThrottled = flow?.mode === 'reject' || flow?.mode === 'skip';
    const start = await takeStartOrQueue(app, { flow, throttle, refuseThrottled }, tick.executionId, target.owner);
    if ('refused' in start) return skipped(`flow control: ${REFUSALS[start.refused]}`);
    const flowWaitSince = tick.flowWaitSince ?? context.clock.now();
    if ('waitSlot' in start) {
      if (!waited) app.metrics.flowWaited(start.waitSlot.workflowId, start.waitSlot.reason);
      const waitFlow = { key: start.waitSlot.flowKey, limit: start.waitSlot.limit };
      return { outcome: { type: 'release', keepPlace: true, flow: waitFlow, payloadPatch: { flowWaitSince } } };
    }
    if ('waitStart' in start) {
      if (!tick.throttled) app.metrics.flowWaited(tick.workflowId, 'throttle');
      return { outcome: { type: 'release', runAt: start.waitStart, payloadPatch: { flowWaitSince, throttled: true } } };
    }
    const reason = tick.throttled ? 'throttle' : waited ? flow?.reason : undefined;
    flowWait = { queuedMs: waited ? Math.max(0, context.clock.now() - flowWaitSince) : 0, ...(reason ? { reason } : {}) };
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
