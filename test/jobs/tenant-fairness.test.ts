// Claims are fair between tenants (src/jobs/claim.ts): a job of a tenant (an async run's workspace) waits its turn
// among that tenant's jobs, counting the ones already running — so one workspace flooding the queue does not make
// another's job wait behind its backlog. Jobs of no tenant keep their oldest-first order.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { jobs } from '../../src/db/schema.js';
import { claimDueJobs } from '../../src/jobs/claim.js';
import { enqueueJobs } from '../../src/jobs/enqueue.js';
import { createWorker, type Worker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/logger.js';
import { eventually } from '../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;
beforeAll(async () => {
  testDb = await createTestDatabase();
  database = testDb.database;
});
afterAll(async () => testDb?.drop());
beforeEach(async () => {
  await database.db.delete(jobs);
});

const KIND = 'execution.run';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
/** Jobs of `workspaceId`, queued `from`…`from - count + 1` minutes ago (oldest first), named `<label>1`, `<label>2`… */
async function queue(label: string, workspaceId: string | undefined, count: number, from: number) {
  await enqueueJobs(
    database.db,
    Array.from({ length: count }, (_, i) => ({
      id: `job_${label}${i + 1}`,
      kind: KIND,
      payload: { n: i },
      runAt: minutesAgo(from - i),
      tenant: workspaceId,
    })),
  );
}
/** The ids claimed, sorted (a claim's rows come back in no particular order). */
const claim = async (limit: number, workerId = 'w1') =>
  (await claimDueJobs(database.db, { workerId, kind: KIND, limit, now: Date.now(), leaseMs: 60_000, fair: true })).map((job) => job.id).sort();

describe('claiming between tenants', () => {
  it("gives the next slot to a workspace with nothing running before a flooding workspace's older backlog", async () => {
    await queue('flood', 'ws_flood', 20, 60); // queued an hour ago
    expect(await claim(3)).toEqual(['job_flood1', 'job_flood2', 'job_flood3']); // alone: oldest first
    await queue('other', 'ws_other', 2, 1); // queued a minute ago
    // ws_flood has 3 running: its next job's turn is 4; ws_other's first is turn 1, its second turn 2.
    expect(await claim(1, 'w2')).toEqual(['job_other1']);
    expect(await claim(2, 'w3')).toEqual(['job_flood4', 'job_other2']);
  });

  it('takes turns between workspaces with equal running work, oldest first within each', async () => {
    await queue('a', 'ws_a', 3, 30);
    await queue('b', 'ws_b', 3, 20);
    expect(await claim(4)).toEqual(['job_a1', 'job_a2', 'job_b1', 'job_b2']);
  });

  it('keeps jobs that name no workspace oldest first, beside tenants', async () => {
    await queue('plain', undefined, 3, 10);
    await queue('t', 'ws_t', 2, 5);
    expect(await claim(4)).toEqual(['job_plain1', 'job_plain2', 'job_plain3', 'job_t1']);
  });

  it('skips rows another worker holds and still fills the claim', async () => {
    await queue('x', 'ws_x', 6, 30);
    const [first, second] = await Promise.all([claim(3, 'w1'), claim(3, 'w2')]);
    expect(new Set([...first, ...second]).size).toBe(first.length + second.length);
    expect([...first, ...second].sort()).toEqual(['job_x1', 'job_x2', 'job_x3', 'job_x4', 'job_x5', 'job_x6']);
  });
});

describe('a worker running a kind that is fair between tenants', () => {
  let worker: Worker | undefined;
  afterAll(async () => worker?.stop(0));

  it("starts another workspace's job while a flood holds the kind's slots", async () => {
    await queue('flood', 'ws_flood', 8, 60);
    await queue('other', 'ws_other', 1, 1);
    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    worker = createWorker({
      db: database.db,
      database,
      logger: createLogger('silent'),
      concurrency: 2,
      pollIntervalMs: 50,
      leaseMs: 60_000,
      handlers: {
        [KIND]: {
          run: async (job) => {
            started.push(job.id);
            await released;
            return { outcome: { type: 'complete', result: null } };
          },
          fairBetweenTenants: true,
        },
      },
    });
    await worker.start();
    // Two slots: the flood's oldest and the other workspace's one, not the flood's two oldest.
    await eventually(() => started.length === 2, 10_000, 'both slots to be taken');
    expect(started.sort()).toEqual(['job_flood1', 'job_other1']);
    release();
  });
});
