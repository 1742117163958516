// The set-up shared by the flow control tests across processes on PostgreSQL: a migrated data directory, a throw-away
// database, `sluice init`'s key, a recording upstream, and calls to any of the started processes. Registers its own
// beforeAll/afterAll in the describe that calls it.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { eventually } from '../support/eventually.js';
import { runSluice, type SluiceProcess } from '../support/process.js';
import { flowState, startRecordingServer, type RecordingServer } from './flow-support.js';

export interface FlowCluster {
  /** The environment every `sluice` process of the test starts with. */
  readonly env: Record<string, string>;
  readonly recorder: RecordingServer;
  call(server: SluiceProcess, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  deploy(server: SluiceProcess, name: string, flowControl: Record<string, unknown>): Promise<string>;
  /** The async task once it completed or failed. */
  finished(server: SluiceProcess, taskId: string): Promise<any>;
}

export function useFlowCluster(dataDirPrefix: string): FlowCluster {
  let dataDir: string;
  let testDb: TestDatabase | undefined;
  let env: Record<string, string>;
  let creds: { apiKey: string; workspaceId: string };
  let recorder: RecordingServer;

  beforeAll(async () => {
    dataDir = migratedDataDir(dataDirPrefix);
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

  const call: FlowCluster['call'] = async (server, method, path, body, headers = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { 'x-api-key': creds.apiKey, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  return {
    get env() {
      return env;
    },
    get recorder() {
      return recorder;
    },
    call,
    async deploy(server, name, flowControl) {
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId: creds.workspaceId, name, state: flowState(recorder.url, flowControl) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await call(server, 'POST', `/api/v1/workflows/${created.body.data.id}/deploy`)).status).toBe(200);
      return created.body.data.id;
    },
    finished(server, taskId) {
      return eventually(async () => {
        const res = await call(server, 'GET', `/api/jobs/${taskId}`);
        return ['completed', 'failed'].includes(res.body.status) && res.body;
      }, 120_000, `task ${taskId}`);
    },
  };
}
