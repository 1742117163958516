// Schedules (README "Other triggers"): deploying registers each schedule_trigger (cron + IANA time zone), a worker
// fires every tick once with `<schedule.firedAt>`, logged with trigger `schedule`; undeploy and redeploy replace the
// schedule; after downtime only one catch-up run happens.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, schedules } from '../../src/db/schema.js';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { SCHEDULE_TICK_JOB } from '../../src/triggers/next-schedule-tick.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { offsetClock } from '../completion-webhooks/support.js';

const HOUR_MS = 3_600_000;

let t: TestApp;
let worker: Worker | undefined;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterEach(async () => {
  await worker?.stop(1000);
  worker = undefined;
});
afterAll(async () => t?.close());

async function startWorker(clock = offsetClock()) {
  worker = createAppWorker(t.app, { clock, pollIntervalMs: 50 });
  await worker.start();
  return worker;
}

const scheduledState = (cron: string, timezone = 'UTC') =>
  makeState(
    [
      { id: 'tick', type: 'schedule_trigger', name: 'Tick', config: { cron, timezone } },
      { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return <schedule.firedAt>;' } },
    ],
    [['tick', 'fn']],
  );

interface ScheduleLog {
  executionId: string;
  trigger: string;
  level: string;
  executionData: { finalOutput: { result: string } };
}

/** Newest first: ascending reads hold back the last second of logs (services/logs/horizon.ts). */
async function scheduleLogs(workflowId: string): Promise<ScheduleLog[]> {
  const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${workflowId}&triggers=schedule&includeFinalOutput=true`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const queuedTicks = (workflowId: string) =>
  t.app.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, SCHEDULE_TICK_JOB), eq(jobs.status, 'queued')))
    .then((rows) => rows.filter((row) => (row.payload as { workflowId: string }).workflowId === workflowId));

describe('schedule trigger', () => {
  it('runs an every-second cron once per tick with <schedule.firedAt>, and stops on undeploy', async () => {
    await startWorker();
    const wf = await createAndDeploy(t, scheduledState('* * * * * *'));
    const logs = await eventually(async () => {
      const found = await scheduleLogs(wf);
      return found.length >= 3 ? found : undefined;
    }, 15_000);
    expect(logs.every((log) => log.trigger === 'schedule' && log.level === 'info')).toBe(true);
    const fired = logs.map((log) => log.executionData.finalOutput.result);
    // Each run saw its own tick: whole seconds, one run per tick.
    expect(fired.every((iso) => iso.endsWith('.000Z'))).toBe(true);
    expect(new Set(fired).size).toBe(fired.length);

    expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    expect(await queuedTicks(wf)).toEqual([]);
    // A tick already running when the workflow was undeployed may still finish; after that nothing more runs.
    await eventually(async () => (worker!.inFlight() === 0 ? true : undefined));
    const final = (await scheduleLogs(wf)).length;
    // Proving that nothing more runs takes time passing: a tick and a half.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await scheduleLogs(wf)).length).toBe(final);
  });

  it('registers the next tick in the schedule’s time zone, and a redeploy replaces it', async () => {
    const wf = await createAndDeploy(t, scheduledState('30 9 * * *', 'America/New_York'));
    const [row] = await t.app.db.select().from(schedules).where(eq(schedules.workflowId, wf));
    expect(row).toMatchObject({ blockId: 'tick', cron: '30 9 * * *', timezone: 'America/New_York', deploymentVersion: 1 });
    // 09:30 in New York is 13:30 or 14:30 UTC depending on daylight saving time.
    expect(row.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect([13, 14]).toContain(row.nextRunAt!.getUTCHours());
    expect(row.nextRunAt!.getUTCMinutes()).toBe(30);
    const [queued] = await queuedTicks(wf);
    expect(queued.runAt.getTime()).toBe(row.nextRunAt!.getTime());

    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: scheduledState('0 0 1 1 *', 'Asia/Tokyo') } });
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    const replaced = await t.app.db.select().from(schedules).where(eq(schedules.workflowId, wf));
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).toMatchObject({ cron: '0 0 1 1 *', timezone: 'Asia/Tokyo', deploymentVersion: 2 });
    const ticks = await queuedTicks(wf);
    expect(ticks.map((job) => job.runAt.getTime())).toEqual([replaced[0].nextRunAt!.getTime()]);

    // Deleting the workflow takes its schedule and queued tick with it.
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}`)).status).toBe(204);
    expect(await queuedTicks(wf)).toEqual([]);
  });

  it('after downtime runs the overdue tick once and skips the missed ones instead of replaying them', async () => {
    // An hourly schedule deployed while no worker runs; the worker starts five and a half hours after its first
    // tick (its clock moved on), so five ticks were missed and the next one is half an hour away.
    const wf = await createAndDeploy(t, scheduledState('0 * * * *'));
    const [{ nextRunAt }] = await t.app.db.select().from(schedules).where(eq(schedules.workflowId, wf));
    const firstTick = nextRunAt!.getTime();
    const clock = offsetClock();
    clock.advance(firstTick - Date.now() + 5.5 * HOUR_MS);
    await startWorker(clock);
    const [log] = await eventually(async () => {
      const found = await scheduleLogs(wf);
      return found.length > 0 ? found : undefined;
    });
    expect(log.executionData.finalOutput.result).toBe(new Date(firstTick).toISOString());
    // The next tick is the first one after the catch-up, not the next missed hour.
    const [next] = await eventually(async () => {
      const ticks = await queuedTicks(wf);
      return ticks.length > 0 ? ticks : undefined;
    });
    expect(next.runAt.getTime()).toBe(firstTick + 6 * HOUR_MS);
    await eventually(async () => (worker!.inFlight() === 0 ? true : undefined));
    expect(await scheduleLogs(wf)).toHaveLength(1);
    await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`);
  });
});
