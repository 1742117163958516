// Flow control across processes on PostgreSQL (docs/workflows.md "Flow control"): a `sluice serve` and a `sluice
// worker` share one database, so the slots of a key hold across both; a process killed with SIGKILL mid-run does not
// leave its key blocked — the crash recovery frees its slot. PostgreSQL only: PGlite's data directory belongs to one
// process (flow-control.test.ts runs the same limits in one process on either database).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.js';
import { executions } from '../../src/db/schema.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { eventually } from '../support/eventually.js';
import { runSluice, startSluice, type SluiceProcess } from '../support/process.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { flowState, noOverlapPerKey, startRecordingServer, type RecordingServer } from './flow-support.js';

let dataDir: string;
let testDb: TestDatabase | undefined;
let env: Record<string, string>;
let creds: { apiKey: string; workspaceId: string };
let recorder: RecordingServer;

describe.skipIf(!TEST_DATABASE_URL)('flow control across processes on PostgreSQL', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    dataDir = migratedDataDir('sluice-flow-');
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

  it('20 async runs with limit 1 per key over 4 keys, run by two processes: a key’s runs never overlap', async () => {
    const serve = await startSluice(env, ['serve']);
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(env);
      const wf = await deploy(serve, 'Per customer', { concurrency: { limit: 1, key: '<api.customer>' } });
      recorder.visits.length = 0;
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
      expect(recorder.visits).toHaveLength(20);
      expect(noOverlapPerKey(recorder.visits)).toBe(true);
      expect([...recorder.peakPerKey().values()]).toEqual([1, 1, 1, 1]);
      expect(recorder.peak()).toBeGreaterThan(1);
      // Both processes ran some of them.
      const database = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL });
      try {
        const runners = await database.db.selectDistinct({ runnerId: executions.runnerId }).from(executions).where(eq(executions.workflowId, wf));
        expect(runners).toHaveLength(2);
      } finally {
        await database.close();
      }
    } finally {
      await worker?.stop('SIGTERM');
      await serve.stop();
    }
  });

  it('a process killed with SIGKILL mid-run does not leave its key blocked', async () => {
    const survivor = await startSluice(env, ['serve']);
    const doomed = await startSluice(env, ['serve', '--no-worker']);
    try {
      const wf = await deploy(survivor, 'Singleton queue', { singleton: { key: '<api.customer>', mode: 'queue' } });
      const gate = recorder.hold();
      // A sync run holds the key's slot in the doomed process, and is killed there mid-run.
      const doomedCall = call(doomed, 'POST', `/api/workflows/${wf}/execute`, { customer: 'k', tag: 'killed' }).catch((err: unknown) => err);
      await eventually(async () => recorder.inFlight('k') === 1, 30_000, 'the run to be in flight');
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
      expect(recorder.visits.filter((v) => v.key === 'k').map((v) => v.tag)).toContain('after');
    } finally {
      await doomed.stop('SIGKILL');
      await survivor.stop();
    }
  });
});
