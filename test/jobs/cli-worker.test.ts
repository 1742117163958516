// The worker as an operator runs it: `sluice serve --no-worker` queues async runs, a restart (or a separate
// `sluice worker` on PostgreSQL) runs each exactly once, and SIGTERM stops a worker cleanly.
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, pgliteDataDir } from '../../src/db/client.js';
import { deliveries, jobs } from '../../src/db/schema.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { runSluice, startSluice, type SluiceProcess } from '../support/process.js';
import { eventually, plainState, startReceiver } from '../completion-webhooks/support.js';
import { startWorkerProcess } from './worker-process.js';

let dataDir: string;
let testDb: TestDatabase | undefined;
let env: Record<string, string>;
let creds: { apiKey: string; workspaceId: string };

beforeAll(async () => {
  dataDir = migratedDataDir('sluice-worker-');
  env = { SLUICE_DATA_DIR: dataDir, LOG_LEVEL: 'info', SLUICE_WORKER_POLL_MS: '100' };
  if (process.env.TEST_DATABASE_URL) {
    testDb = await createTestDatabase();
    await testDb.database.close();
    env.DATABASE_URL = testDb.url!;
    env.SLUICE_SECRET = 'worker-test-secret-worker-test-secret-01';
  }
  const init = await runSluice(['init', '--json'], env);
  expect(init.code, init.stderr).toBe(0);
  creds = JSON.parse(init.stdout);
});
afterAll(async () => {
  if (testDb) await testDb.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(server: SluiceProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'x-api-key': creds.apiKey, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The worker's last log line: its workerId, and the jobs, claim statements and statements since it started. */
function stoppedLine(output: string): { jobs: number; claims: number; statements: number } {
  const line = output.split('\n').find((l) => l.includes('"msg":"worker stopped"'));
  expect(line, output).toBeDefined();
  return JSON.parse(line!);
}

// Each test starts several real processes; on a busy machine one start-up can take seconds.
describe('sluice worker', { timeout: 120_000 }, () => {
  it('runs a run queued before a restart, once', async () => {
    const first = await startSluice(env, ['serve', '--no-worker']);
    let taskId: string;
    let executionId: string;
    let workflowId: string;
    try {
      const created = await call(first, 'POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name: 'Later', state: plainState() });
      workflowId = created.body.data.id;
      expect((await call(first, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
      const queued = await call(first, 'POST', `/api/workflows/${workflowId}/execute`, { q: 'after restart' }, { 'X-Execution-Mode': 'async' });
      expect(queued.status).toBe(202);
      ({ taskId, executionId } = queued.body);
      // No worker in this process: it stays queued.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await call(first, 'GET', `/api/jobs/${taskId}`)).body.status).toBe('queued');
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startSluice(env, ['serve']);
    try {
      const done = await eventually(async () => {
        const res = await call(second, 'GET', `/api/jobs/${taskId}`);
        return res.body.status === 'completed' && res.body;
      }, 20_000, 'the queued run to complete after the restart');
      expect(done.output).toMatchObject({ result: 'AFTER RESTART' });
      const logs = await call(second, 'GET', `/api/v1/logs?workspaceId=${creds.workspaceId}&executionId=${executionId}`);
      expect(logs.body.data).toHaveLength(1);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('starts alone and stops cleanly on SIGTERM', async () => {
    const worker = await startWorkerProcess(env);
    expect(await worker.stop('SIGTERM')).toBe(0);
    // What it cost the database, for sizing: it looked for jobs (at least once, at start) and found none.
    const stopped = stoppedLine(worker.output());
    expect(stopped).toMatchObject({ jobs: 0 });
    expect(stopped.claims).toBeGreaterThanOrEqual(1);
    expect(stopped.statements).toBeGreaterThanOrEqual(stopped.claims);
  });

  it('on SIGTERM hands an in-flight delivery back unattempted, and the next worker delivers it', async () => {
    let answer = false;
    const receiver = await startReceiver((_req, res) => {
      if (answer) res.end('ok'); // otherwise hang: the delivery is in flight when SIGTERM arrives
    });
    try {
      const server = await startSluice({ ...env, SLUICE_ALLOW_PRIVATE_NETWORK: 'true' }, ['serve', '--no-worker']);
      let workflowId: string;
      try {
        const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name: 'Hooked', state: plainState() });
        workflowId = created.body.data.id;
        await call(server, 'POST', `/api/v1/workflows/${workflowId}/deploy`);
        expect((await call(server, 'POST', `/api/v1/workflows/${workflowId}/webhooks`, { url: receiver.url })).status).toBe(201);
        expect((await call(server, 'POST', `/api/workflows/${workflowId}/execute`, { q: 'x' })).status).toBe(200);
      } finally {
        await server.stop();
      }

      const workerEnv = { ...env, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', SLUICE_WORKER_SHUTDOWN_GRACE_MS: '200' };
      const first = await startWorkerProcess(workerEnv);
      await receiver.waitForRequests(1);
      const started = Date.now();
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(stoppedLine(first.output())).toMatchObject({ jobs: 1 });

      // Nothing was recorded as an attempt: the job is back in the queue as it was.
      const database = env.DATABASE_URL
        ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL })
        : await openDatabase({ kind: 'pglite', dataDir: pgliteDataDir(dataDir) });
      try {
        const [delivery] = await database.db.select().from(deliveries).where(eq(deliveries.workflowId, workflowId));
        expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
        const [job] = await database.db.select().from(jobs).where(eq(jobs.kind, 'webhook.deliver'));
        expect(job).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
      } finally {
        await database.close();
      }

      answer = true;
      const second = await startWorkerProcess(workerEnv);
      try {
        await receiver.waitForRequests(2);
        expect(receiver.requests[1].headers['service-delivery-id']).toBe(receiver.requests[0].headers['service-delivery-id']);
      } finally {
        expect(await second.stop('SIGTERM')).toBe(0);
      }
    } finally {
      await receiver.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('serves with --no-worker while a separate worker process runs the jobs', async () => {
    const server = await startSluice(env, ['serve', '--no-worker']);
    const worker = await startWorkerProcess(env);
    try {
      // Ready without a worker of its own: --no-worker says none is expected here.
      const ready = await fetch(`${server.url}/ready`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as any).checks.worker).toEqual({ ok: true, message: 'This process runs no worker' });
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name: 'Split', state: plainState() });
      await call(server, 'POST', `/api/v1/workflows/${created.body.data.id}/deploy`);
      const queued = await call(server, 'POST', `/api/workflows/${created.body.data.id}/execute`, { q: 'elsewhere' }, { 'X-Execution-Mode': 'async' });
      const done = await eventually(async () => {
        const res = await call(server, 'GET', `/api/jobs/${queued.body.taskId}`);
        return res.body.status === 'completed' && res.body;
      }, 20_000);
      expect(done.output).toMatchObject({ result: 'ELSEWHERE' });
    } finally {
      expect(await worker.stop('SIGTERM')).toBe(0);
      await server.stop();
    }
  });
});
