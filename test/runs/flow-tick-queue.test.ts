// A schedule tick waiting for flow control waits in the queue, as a queued async run does, not on a worker's slot
// (docs/workflows.md "Flow control"): with one worker slot, ticks of a workflow whose key is held do not keep an
// unrelated async run from starting, and the tick still runs once the key frees. One process (PGlite, or PostgreSQL
// with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { noOverlapPerKey, type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited', SLUICE_WORKER_CONCURRENCY: '1' }, 100);
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

/** Whether a tick of the workflow has been taken by the worker and now waits for flow control (claimed or queued). */
async function tickWaits(workflowId: string): Promise<boolean> {
  const rows = await rowsOf(
    t.app.db,
    sql`select 1 from jobs where kind = 'schedule.tick' and payload ->> 'workflowId' = ${workflowId}
      and (status = 'running' or (status = 'queued' and flow_key is not null))`,
  );
  return rows.length > 0;
}

describe('schedule ticks waiting for a slot', { timeout: 90_000 }, () => {
  it('hold no worker slot: an unrelated async run starts while they wait, and a tick runs once the key frees', async () => {
    const key = `tickq-${randomUUID().slice(0, 8)}`;
    const ticking = await createAndDeploy(
      t,
      {
        ...makeState(
          [
            { id: 'start', type: 'schedule_trigger', name: 'T', config: { cron: '* * * * * *', timezone: 'UTC' } },
            { id: 'call', type: 'api', name: 'Call', config: { url: `${server.url}?key=${key}`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
          ],
          [['start', 'call']],
        ),
        flowControl: { singleton: { mode: 'queue' } },
      },
      'Ticking singleton',
    );
    const other = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [] } },
          { id: 'answer', type: 'response', name: 'Answer', config: { body: { ok: true } } },
        ],
        [['start', 'answer']],
      ),
      'Unrelated',
    );
    try {
      // The editor's Run holds the singleton's one slot (it runs in the server, not on the worker) until released.
      const gate = server.hold();
      const held = t.request('POST', `/api/v1/workflows/${ticking}/run?stream=false`, { body: {} });
      await eventually(async () => server.inFlight(key) === 1 || undefined, 20_000, 'the editor run to hold the slot');
      await flow.startWorker();
      await eventually(async () => (await tickWaits(ticking)) || undefined, 20_000, 'a tick to wait for the slot');

      const queued = await t.request('POST', `/api/workflows/${other}/execute`, { body: {}, headers: { 'X-Execution-Mode': 'async' } });
      expect(queued.status, queued.text).toBe(202);
      const job = await eventually(async () => {
        const res = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
        return res.body.status === 'completed' ? res.body : undefined;
      }, 20_000, 'the unrelated async run to finish on the worker’s one slot');
      expect(job.output).toMatchObject({ body: { ok: true } });
      expect(server.inFlight(key)).toBe(1);

      gate.release();
      expect((await held).status).toBe(200);
      // The waiting tick goes once the slot frees, never beside the run that held it.
      await eventually(async () => server.visits.filter((v) => v.key === key).length >= 2 || undefined, 30_000, 'a tick to run');
    } finally {
      expect((await t.request('DELETE', `/api/v1/workflows/${ticking}/deploy`)).status).toBe(200);
    }
    expect(noOverlapPerKey(server.visits.filter((v) => v.key === key))).toBe(true);
    expect(server.peakPerKey().get(key)).toBe(1);
  });
});
