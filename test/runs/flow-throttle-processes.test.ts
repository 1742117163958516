// Throttle and debounce across processes on PostgreSQL (docs/workflows.md "Flow control"): two `sluice serve`
// processes take the calls and a `sluice worker` with the first serve runs them, so the throttle's starts and the
// debounce burst hold across processes. PostgreSQL only (flow-throttle-debounce.test.ts: one process, either database).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.js';
import { executions } from '../../src/db/schema.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { eventually } from '../support/eventually.js';
import { runSluice, startSluice, type SluiceProcess } from '../support/process.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { flowState, mostStartsInWindow, startRecordingServer, type RecordingServer } from './flow-support.js';

let dataDir: string;
let testDb: TestDatabase | undefined;
let env: Record<string, string>;
let creds: { apiKey: string; workspaceId: string };
let recorder: RecordingServer;

describe.skipIf(!TEST_DATABASE_URL)('throttle and debounce across processes on PostgreSQL', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    dataDir = migratedDataDir('sluice-throttle-');
    testDb = await createTestDatabase();
    await testDb.database.close();
    env = {
      SLUICE_DATA_DIR: dataDir,
      DATABASE_URL: testDb.url!,
      SLUICE_SECRET: 'flow-test-secret-flow-test-secret-0123456',
      SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
      SLUICE_WORKER_POLL_MS: '100',
      SLUICE_JOB_LEASE_MS: '5000',
    };
    const init = await runSluice(['init', '--json'], env);
    expect(init.code, init.stderr).toBe(0);
    creds = JSON.parse(init.stdout);
    recorder = await startRecordingServer(150);
  });
  afterAll(async () => {
    await recorder?.close();
    if (testDb) await testDb.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(server: SluiceProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(server.url + path, {
      method,
      headers: { 'x-api-key': creds.apiKey, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  async function deploy(server: SluiceProcess, name: string, flowControl: Record<string, unknown>): Promise<string> {
    const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name, state: flowState(recorder.url, flowControl) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call(server, 'POST', `/api/v1/workflows/${created.body.data.id}/deploy`)).status).toBe(200);
    return created.body.data.id;
  }

  async function finished(server: SluiceProcess, taskId: string) {
    return eventually(async () => {
      const res = await call(server, 'GET', `/api/jobs/${taskId}`);
      return ['completed', 'failed'].includes(res.body.status) && res.body;
    }, 120_000, `task ${taskId}`);
  }

  it('debounce: 10 calls in 300 ms to two processes become one run with the last input', async () => {
    const serve = await startSluice(env, ['serve']);
    const other = await startSluice(env, ['serve', '--no-worker']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(env);
      const wf = await deploy(serve, 'Debounced', { debounce: { periodMs: 1000, key: '<api.customer>' } });
      recorder.visits.length = 0;
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
        expect(recorder.visits.filter((v) => v.key === 'd').map((v) => v.tag)).toEqual(['9']);
      }
    } finally {
      await worker?.stop('SIGTERM');
      await other.stop();
      await serve.stop();
    }
  });

  it('throttle: start times respect the rate across processes; a sync call over it gets 429 THROTTLED with Retry-After', async () => {
    const serve = await startSluice(env, ['serve']);
    const other = await startSluice(env, ['serve', '--no-worker']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(env);
      const periodMs = 1000;
      const wf = await deploy(serve, 'Throttled', { throttle: { limit: 2, periodMs, key: '<api.customer>' } });
      const tasks: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await call(i % 2 === 0 ? serve : other, 'POST', `/api/workflows/${wf}/execute`, { customer: 't', tag: String(i) }, { 'X-Execution-Mode': 'async' });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        tasks.push(res.body.taskId);
      }
      for (const taskId of tasks) expect((await finished(serve, taskId)).status).toBe('completed');
      const database = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL });
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
