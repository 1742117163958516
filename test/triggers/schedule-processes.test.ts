// PostgreSQL only: two Sluice processes (`sluice serve` with its worker, and `sluice worker`) share one database and
// both claim jobs; an every-second schedule must still run each tick exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { openDatabase } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { runSluice, startSluice, type SluiceProcess } from '../support/process.js';
import { eventually, makeState } from '../support/workflows.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { executionRow } from '../support/log-rows.js';

describe.runIf(process.env.TEST_DATABASE_URL)('schedules across processes (PostgreSQL)', () => {
  let dataDir: string;
  let testDb: TestDatabase;
  let env: Record<string, string>;
  let creds: { apiKey: string; workspaceId: string };
  let server: SluiceProcess | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sluice-sched-'));
    testDb = await createTestDatabase();
    await testDb.database.close();
    env = {
      SLUICE_DATA_DIR: dataDir,
      DATABASE_URL: testDb.url!,
      SLUICE_SECRET: 'schedule-test-secret-schedule-test-secret',
      SLUICE_WORKER_POLL_MS: '50',
      SLUICE_LIMIT_LOGS_FREE: 'unlimited',
    };
    const init = await runSluice(['init', '--json'], env);
    expect(init.code, init.stderr).toBe(0);
    creds = JSON.parse(init.stdout);
  });
  afterAll(async () => {
    await server?.stop();
    await worker?.stop();
    await testDb?.drop().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(server!.url + path, {
      method,
      headers: { 'x-api-key': creds.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('runs each tick of an every-second schedule once', async () => {
    [server, worker] = await Promise.all([startSluice(env), startWorkerProcess(env)]);
    const state = makeState(
      [
        { id: 'tick', type: 'schedule_trigger', name: 'Tick', config: { cron: '* * * * * *' } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return <tick.firedAt>;' } },
      ],
      [['tick', 'fn']],
    );
    const created = await call('POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name: 'Every second', state });
    const wf = created.body.data.id as string;
    expect((await call('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    const logsPath = `/api/v1/logs?workspaceId=${creds.workspaceId}&workflowIds=${wf}&triggers=schedule&includeFinalOutput=true&limit=1000`;
    await eventually(async () => ((await call('GET', logsPath)).body.data.length >= 8 ? true : undefined), 30_000);
    expect((await call('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);

    // Give a tick that was running at the undeploy time to finish, then read the final set.
    const database = await openDatabase({ kind: 'postgres', url: testDb.url!, poolSize: 1 });
    try {
      const rows = await eventually(async () => {
        const all = await database.db.select(executionRow).from(executions);
        return all.every((row) => row.status !== 'running') ? all : undefined;
      });
      const logs = (await call('GET', logsPath)).body.data as Array<{ executionId: string; executionData: { finalOutput: { result: string } } }>;
      expect(logs).toHaveLength(rows.length);
      const ticks = logs.map((log) => log.executionData.finalOutput.result);
      expect(new Set(ticks).size).toBe(ticks.length);
    } finally {
      await database.close();
    }
  });
});
