// Flow control across processes on PostgreSQL (docs/workflows.md "Flow control"): a `sluice serve` and a `sluice
// worker` share one database, so the slots of a key hold across both; a process killed with SIGKILL mid-run does not
// leave its key blocked — the crash recovery frees its slot. PostgreSQL only: PGlite's data directory belongs to one
// process (flow-control.test.ts runs the same limits in one process on either database).
import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.js';
import { executions, jobs } from '../../src/db/schema.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { QUICK_CRASH_BOUND, startSluice } from '../support/process.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { useFlowCluster } from './flow-cluster.js';
import { noOverlapPerKey } from './flow-support.js';

describe.skipIf(!TEST_DATABASE_URL)('flow control across processes on PostgreSQL', { timeout: 180_000 }, () => {
  const cluster = useFlowCluster('sluice-flow-');
  const { call, deploy } = cluster;

  it('20 async runs with limit 1 per key over 4 keys, run by two processes: a key’s runs never overlap', async () => {
    const serve = await startSluice(cluster.env, ['serve']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(cluster.env);
      const wf = await deploy(serve, 'Per customer', { concurrency: { limit: 1, key: '<api.customer>' } });
      cluster.recorder.visits.length = 0;
      const tasks: string[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await call(serve, 'POST', `/api/workflows/${wf}/execute`, { customer: `c${i % 4}`, tag: String(i) }, { 'X-Execution-Mode': 'async' });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        tasks.push(res.body.taskId);
      }
      for (const taskId of tasks) {
        const done = await eventually(async () => {
          const res = await call(serve, 'GET', `/api/jobs/${taskId}`);
          return ['completed', 'failed'].includes(res.body.status) && res.body;
        }, 120_000, `task ${taskId}`);
        expect(done.status).toBe('completed');
      }
      expect(cluster.recorder.visits).toHaveLength(20);
      expect(noOverlapPerKey(cluster.recorder.visits)).toBe(true);
      expect([...cluster.recorder.peakPerKey().values()]).toEqual([1, 1, 1, 1]);
      expect(cluster.recorder.peak()).toBeGreaterThan(1);
      // Both processes ran some of them (a finished job keeps the worker that ran it; a log, no process).
      const database = await openDatabase({ kind: 'postgres', url: cluster.env.DATABASE_URL });
      try {
        const workers = await database.db.selectDistinct({ workerId: jobs.lockedBy }).from(jobs).where(inArray(jobs.id, tasks));
        expect(workers).toHaveLength(2);
      } finally {
        await database.close();
      }
    } finally {
      await worker?.stop('SIGTERM');
      await serve.stop();
    }
  });

  it('sync calls of one key with limit 3 through two processes: never more than 3 in flight, every call answered', async () => {
    // Each process first tries the slot numbers it does not hold itself; the other's hold them too, so most guesses
    // are taken and the take looks for a free number: the limit holds across both, and no call is refused or lost.
    const one = await startSluice(cluster.env, ['serve', '--no-worker']);
    const other = await startSluice(cluster.env, ['serve', '--no-worker']);
    try {
      const wf = await deploy(one, 'Limit three', { concurrency: { limit: 3, key: '<api.customer>', maxWaitMs: 120_000 } });
      cluster.recorder.visits.length = 0;
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => call(i % 2 === 0 ? one : other, 'POST', `/api/workflows/${wf}/execute`, { customer: 'k', tag: String(i) })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(24).fill(200));
      expect(cluster.recorder.visits.map((v) => v.tag).sort()).toEqual(Array.from({ length: 24 }, (_, i) => String(i)).sort());
      expect(cluster.recorder.peakPerKey().get('k')).toBe(3);
    } finally {
      await one.stop();
      await other.stop();
    }
  });

  it('singleton skip and cancel-running hold across processes: the run in flight on one is seen, or cancelled, by the other', async () => {
    const one = await startSluice(cluster.env, ['serve', '--no-worker']);
    const other = await startSluice(cluster.env, ['serve', '--no-worker']);
    try {
      const singleton = await deploy(one, 'Singleton skip', { singleton: { key: '<api.customer>', mode: 'skip' } });
      let gate = cluster.recorder.hold();
      const first = call(one, 'POST', `/api/workflows/${singleton}/execute`, { customer: 's', tag: 'first' });
      await eventually(async () => cluster.recorder.inFlight('s') === 1, 30_000, 'the singleton run to be in flight');
      const skipped = await call(other, 'POST', `/api/workflows/${singleton}/execute`, { customer: 's', tag: 'skipped' });
      gate.release();
      const done = await first;
      expect(done.status).toBe(200);
      expect(skipped.status).toBe(409);
      expect(skipped.body).toMatchObject({ code: 'ALREADY_RUNNING', runningExecutionId: done.headers.get('x-execution-id') });

      const replace = await deploy(one, 'Cancel running', { concurrency: { limit: 1, key: '<api.customer>', onLimit: 'cancel-running' } });
      gate = cluster.recorder.hold();
      const old = call(one, 'POST', `/api/workflows/${replace}/execute`, { customer: 'x', tag: 'old' });
      await eventually(async () => cluster.recorder.inFlight('x') === 1, 30_000, 'the old run to be in flight');
      const newer = call(other, 'POST', `/api/workflows/${replace}/execute`, { customer: 'x', tag: 'new' });
      const cancelled = await old;
      gate.release();
      expect(cancelled.status).toBe(409);
      expect(cancelled.body.code).toBe('EXECUTION_CANCELLED');
      expect((await newer).status).toBe(200);
      // Its log says so.
      const database = await openDatabase({ kind: 'postgres', url: cluster.env.DATABASE_URL });
      try {
        const status = await eventually(async () => {
          const [log] = await database.db
            .select({ status: executions.status })
            .from(executions)
            .where(isExecution(cancelled.headers.get('x-execution-id')!));
          return log?.status !== 'running' && log?.status;
        }, 30_000, 'the cancelled run\'s log');
        expect(status).toBe('cancelled');
      } finally {
        await database.close();
      }
    } finally {
      await one.stop();
      await other.stop();
    }
  });

  it('priority: runs queued on one process are claimed by two workers highest priority first', async () => {
    const serve = await startSluice(cluster.env, ['serve', '--no-worker']);
    const workers: WorkerProcess[] = [];
    try {
      const wf = await deploy(serve, 'Priority', { concurrency: { limit: 1 }, priority: 0 });
      cluster.recorder.visits.length = 0;
      const tasks: string[] = [];
      for (const [tag, priority] of [['low', '-50'], ['normal', undefined], ['high', '90'], ['higher', '100']] as const) {
        const res = await call(serve, 'POST', `/api/workflows/${wf}/execute`, { customer: 'p', tag }, {
          'X-Execution-Mode': 'async',
          ...(priority ? { 'X-Execution-Priority': priority } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        tasks.push(res.body.taskId);
      }
      // Nothing ran yet (no worker); two start side by side and share the queue.
      expect(cluster.recorder.visits).toHaveLength(0);
      workers.push(...(await Promise.all([startWorkerProcess(cluster.env), startWorkerProcess(cluster.env)])));
      for (const taskId of tasks) expect((await cluster.finished(serve, taskId)).status).toBe('completed');
      expect(cluster.recorder.visits.sort((a, b) => a.start - b.start).map((v) => v.tag)).toEqual(['higher', 'high', 'normal', 'low']);
    } finally {
      await Promise.all(workers.map((w) => w.stop('SIGTERM')));
      await serve.stop();
    }
  });

  it('a process killed with SIGKILL mid-run does not leave its key blocked', async () => {
    // Dead after 6 s rather than 20 s (both processes: each judges the other by its own bound).
    const env = { ...cluster.env, ...QUICK_CRASH_BOUND };
    const survivor = await startSluice(env, ['serve']);
    const doomed = await startSluice(env, ['serve', '--no-worker']);
    try {
      const wf = await deploy(survivor, 'Singleton queue', { singleton: { key: '<api.customer>', mode: 'queue' } });
      const gate = cluster.recorder.hold();
      // A sync run holds the key's slot in the doomed process, and is killed there mid-run.
      const doomedCall = call(doomed, 'POST', `/api/workflows/${wf}/execute`, { customer: 'k', tag: 'killed' }).catch((err: unknown) => err);
      await eventually(async () => cluster.recorder.inFlight('k') === 1, 30_000, 'the run to be in flight');
      doomed.child.kill('SIGKILL');
      await doomedCall;
      gate.release();
      // A run queued for the same key waits for the slot, and runs once the crash recovery has freed it.
      const queued = await call(survivor, 'POST', `/api/workflows/${wf}/execute`, { customer: 'k', tag: 'after' }, { 'X-Execution-Mode': 'async' });
      expect(queued.status).toBe(202);
      const done = await eventually(async () => {
        const res = await call(survivor, 'GET', `/api/jobs/${queued.body.taskId}`);
        return ['completed', 'failed'].includes(res.body.status) && res.body;
      }, 60_000, 'the queued run after the crash');
      expect(done.status).toBe('completed');
      expect(cluster.recorder.visits.filter((v) => v.key === 'k').map((v) => v.tag)).toContain('after');
    } finally {
      await doomed.stop('SIGKILL');
      await survivor.stop();
    }
  });
});
