// Throttle and debounce across processes on PostgreSQL (docs/workflows.md "Flow control"): two `sluice serve`
// processes take the calls and a `sluice worker` with the first serve runs them, so the throttle's starts and the
// debounce burst hold across processes. PostgreSQL only (flow-throttle-debounce.test.ts: one process, either database).
import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.js';
import { executions } from '../../src/db/schema.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { startSluice } from '../support/process.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { useFlowCluster } from './flow-cluster.js';
import { mostStartsInWindow } from './flow-support.js';

describe.skipIf(!TEST_DATABASE_URL)('throttle and debounce across processes on PostgreSQL', { timeout: 180_000 }, () => {
  const cluster = useFlowCluster('sluice-throttle-');
  const { call, deploy, finished } = cluster;

  it('debounce: 10 calls in 300 ms to two processes become one run with the last input', async () => {
    const serve = await startSluice(cluster.env, ['serve']);
    const other = await startSluice(cluster.env, ['serve', '--no-worker']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(cluster.env);
      const wf = await deploy(serve, 'Debounced', { debounce: { periodMs: 1000, key: '<api.customer>' } });
      cluster.recorder.visits.length = 0;
      const answers = [];
      const began = Date.now();
      for (let i = 0; i < 10; i++) {
        answers.push(await call(i % 2 === 0 ? serve : other, 'POST', `/api/workflows/${wf}/execute`, { customer: 'd', tag: String(i) }, { 'X-Execution-Mode': 'async' }));
      }
      const spent = Date.now() - began;
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
      expect(new Set(answers.map((a) => a.body.executionId)).size).toBe(1);
      // The calls went within the period, so they are one burst (a slower machine would make two: not this check's concern).
      if (spent < 1000) {
        expect((await finished(serve, answers[0].body.taskId)).status).toBe('completed');
        expect(cluster.recorder.visits.filter((v) => v.key === 'd').map((v) => v.tag)).toEqual(['9']);
      }
    } finally {
      await worker?.stop('SIGTERM');
      await other.stop();
      await serve.stop();
    }
  });

  it('throttle: start times respect the rate across processes; a sync call over it gets 429 THROTTLED with Retry-After', async () => {
    const serve = await startSluice(cluster.env, ['serve']);
    const other = await startSluice(cluster.env, ['serve', '--no-worker']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(cluster.env);
      const periodMs = 1000;
      const wf = await deploy(serve, 'Throttled', { throttle: { limit: 2, periodMs, key: '<api.customer>' } });
      const tasks: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await call(i % 2 === 0 ? serve : other, 'POST', `/api/workflows/${wf}/execute`, { customer: 't', tag: String(i) }, { 'X-Execution-Mode': 'async' });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        tasks.push(res.body.taskId);
      }
      for (const taskId of tasks) expect((await finished(serve, taskId)).status).toBe('completed');
      const database = await openDatabase({ kind: 'postgres', url: cluster.env.DATABASE_URL });
      try {
        const rows = await database.db.select({ startedAt: executions.startedAt }).from(executions).where(eq(executions.workflowId, wf)).orderBy(asc(executions.startedAt));
        expect(rows).toHaveLength(8);
        expect(mostStartsInWindow(rows.map((r) => r.startedAt.getTime()), periodMs)).toBeLessThanOrEqual(2);
      } finally {
        await database.close();
      }
      const slow = await deploy(serve, 'Throttled sync', { throttle: { limit: 1, periodMs: 60_000 } });
      expect((await call(serve, 'POST', `/api/workflows/${slow}/execute`, { customer: 's', tag: '1' })).status).toBe(200);
      const refused = await call(other, 'POST', `/api/workflows/${slow}/execute`, { customer: 's', tag: '2' });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('THROTTLED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await worker?.stop('SIGTERM');
      await other.stop();
      await serve.stop();
    }
  });
});
