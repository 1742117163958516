// A run in flight when its process is killed (kill -9) must not stay `running`: it is closed as an error log
// ("Interrupted: …") — at the restart on PGlite, within about 30 s by another process on PostgreSQL — and its
// completion webhook is sent, so pollers are not held back and subscribers hear of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { DEAD_AFTER_MS, HEARTBEAT_MS } from '../../src/runs/runners.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { QUICK_CRASH_BOUND, startSluice, type SluiceProcess } from '../support/process.js';
import { eventually, makeState } from '../support/workflows.js';
import { executionRow } from '../support/log-rows.js';

let hanging: FakeUpstream;
let receiver: FakeUpstream;
beforeAll(async () => {
  hanging = await startUpstream(() => undefined); // never answers: the run stays in flight
  receiver = await startUpstream((_req, res) => res.end('ok'));
});
afterAll(async () => {
  await hanging?.close();
  await receiver?.close();
});

const stuckState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'call', type: 'api', name: 'Call', config: { url: `${hanging.url}/slow`, method: 'GET', retries: 0, timeoutMs: 120_000 } },
    ],
    [['start', 'call']],
  );

async function api(url: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function setUp(server: SluiceProcess, key: string) {
  const me = await api(server.url, key, 'GET', '/api/v1/me');
  const workspaceId: string = me.body.workspaces[0].id;
  const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId, name: 'stuck', state: stuckState() });
  const workflowId: string = created.body.data.id;
  expect((await api(server.url, key, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
  expect((await api(server.url, key, 'POST', `/api/v1/workflows/${workflowId}/webhooks`, { url: receiver.url })).status).toBe(201);
  return { workspaceId, workflowId };
}

async function interruptedLog(server: SluiceProcess, key: string, workspaceId: string, executionId: string) {
  return eventually(
    async () => {
      const res = await api(server.url, key, 'GET', `/api/v1/logs?workspaceId=${workspaceId}&executionId=${executionId}&details=full`);
      return res.body.data?.[0];
    },
    DEAD_AFTER_MS + 3 * HEARTBEAT_MS,
    'the interrupted run to be logged',
  );
}

const deliveredFor = (executionId: string) =>
  receiver.requests.map((r) => JSON.parse(r.body.toString())).find((event) => event.data.executionId === executionId);

describe('runs interrupted by a killed process', { timeout: 120_000 }, () => {
  // The embedded database of a data directory: run by the PGlite pass alone. Its processes ignore TEST_DATABASE_URL, so
  // on the PostgreSQL pass they would repeat these checks exactly (after making a PGlite database from nothing: that
  // pass has no template). That pass checks its own kind below.
  describe.skipIf(TEST_DATABASE_URL)('embedded PGlite', () => {
    it('PGlite: an async run in flight at kill -9 is closed at the restart, its webhook sent and its job failed', async () => {
      const dataDir = migratedDataDir('sluice-orphan-');
      const key = generateApiKey();
      const env = { SLUICE_DATA_DIR: dataDir, SLUICE_BOOTSTRAP_API_KEY: key, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', SLUICE_WORKER_POLL_MS: '100', SLUICE_LIMIT_LOGS_FREE: 'unlimited' };
      let server: SluiceProcess | undefined;
      try {
        server = await startSluice(env);
        const { workspaceId, workflowId } = await setUp(server, key);
        const queued = await api(server.url, key, 'POST', `/api/workflows/${workflowId}/execute`, {}, { 'x-execution-mode': 'async' });
        expect(queued.status).toBe(202);
        // An async run's marker is written before it starts, so once the upstream sees it the run is on record.
        await eventually(() => hanging.requests.length > 0, 20_000, 'the run to reach the upstream');
        await server.stop('SIGKILL');

        server = await startSluice(env);
        const log = await interruptedLog(server, key, workspaceId, queued.body.executionId);
        expect(log).toMatchObject({ level: 'error', trigger: 'api', executionId: queued.body.executionId });
        const job = await eventually(async () => {
          const status = await api(server!.url, key, 'GET', `/api/jobs/${queued.body.taskId}`);
          return status.body.status === 'failed' ? status.body : undefined;
        }, 30_000, 'the job to end');
        expect(job.error).toMatch(/interrupted|stopped/i);
        await eventually(() => deliveredFor(queued.body.executionId), 30_000, 'the completion webhook');
        expect(deliveredFor(queued.body.executionId).data).toMatchObject({ status: 'error', level: 'error' });
        expect(hanging.requests).toHaveLength(1); // not started a second time
      } finally {
        await server?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('PGlite: a sync run in flight for two seconds at kill -9 is closed at the restart, with its webhook', async () => {
      // A sync run's marker is a relaxed commit; with nothing committing after it, only the WAL flusher puts it on disk.
      const dataDir = migratedDataDir('sluice-orphan-sync-');
      const key = generateApiKey();
      const env = { SLUICE_DATA_DIR: dataDir, SLUICE_BOOTSTRAP_API_KEY: key, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', SLUICE_LIMIT_LOGS_FREE: 'unlimited' };
      let server: SluiceProcess | undefined;
      try {
        server = await startSluice(env);
        const { workspaceId, workflowId } = await setUp(server, key);
        // Started afresh, the server's first heartbeat (a flushed commit that would carry the marker along) is 5 s
        // away: the run below is killed well before it, so the flusher is the only thing that can save its marker.
        await server.stop();
        server = await startSluice(env);
        const before = hanging.requests.length;
        void api(server.url, key, 'POST', `/api/workflows/${workflowId}/execute`, {}).catch(() => undefined);
        await eventually(() => hanging.requests.length > before, 20_000, 'the run to reach the upstream');
        // The thing under test is a time bound: the marker (written after MARKER_DELAY_MS) is on disk about a second later.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await server.stop('SIGKILL');

        server = await startSluice(env);
        const log = await eventually(async () => {
          const res = await api(server!.url, key, 'GET', `/api/v1/logs?workspaceId=${workspaceId}&workflowIds=${workflowId}`);
          return res.body.data?.[0];
        }, 10_000, 'the interrupted run to be logged');
        expect(log).toMatchObject({ level: 'error', trigger: 'api', workflowId });
        const detail = await api(server.url, key, 'GET', `/api/v1/logs/${log.id}`);
        expect(detail.body.data.error).toMatch(/interrupted/i);
        await eventually(() => deliveredFor(log.executionId), 30_000, 'the completion webhook');
        expect(deliveredFor(log.executionId).data).toMatchObject({ status: 'error', level: 'error' });
      } finally {
        await server?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe.runIf(TEST_DATABASE_URL)('PostgreSQL', () => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await createTestDatabase();
    });
    afterAll(async () => testDb?.drop());

    it('a sync run of a killed process is closed by another process, with its webhook', async () => {
      const key = generateApiKey();
      const dataDir = mkdtempSync(join(tmpdir(), 'sluice-orphan-pg-'));
      const env = {
        DATABASE_URL: testDb.url!,
        SLUICE_SECRET: 'orphan-test-secret-orphan-test-secret-01',
        SLUICE_DATA_DIR: dataDir,
        SLUICE_BOOTSTRAP_API_KEY: key,
        SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
        SLUICE_WORKER_POLL_MS: '100',
        // The test polls the logs API; its per-minute limit is not what it is about.
        SLUICE_LIMIT_LOGS_FREE: 'unlimited',
        // Dead after 6 s rather than 20 s: the survivor notices the same way, sooner.
        ...QUICK_CRASH_BOUND,
      };
      const survivor = await startSluice(env);
      const doomed = await startSluice(env, ['serve', '--no-worker']);
      try {
        const { workspaceId, workflowId } = await setUp(survivor, key);
        const before = hanging.requests.length;
        void api(doomed.url, key, 'POST', `/api/workflows/${workflowId}/execute`, {}).catch(() => undefined);
        await eventually(() => hanging.requests.length > before, 20_000, 'the run to reach the upstream');
        const running = await eventually(async () => {
          const [row] = await testDb.database.db
            .select(executionRow)
            .from(executions)
            .where(and(eq(executions.workflowId, workflowId), eq(executions.status, 'running')));
          return row;
        }, 10_000, 'the running marker');
        await doomed.stop('SIGKILL');

        const log = await interruptedLog(survivor, key, workspaceId, running.executionId);
        expect(log.level).toBe('error');
        await eventually(() => deliveredFor(running.executionId), 30_000, 'the completion webhook');
      } finally {
        await doomed.stop('SIGKILL');
        await survivor.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
