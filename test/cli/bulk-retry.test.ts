// `sluice runs retry --since 1h --level error` without an execution id: every failed run the filters select is retried
// as one batch, and the command follows it to the end. Against a real `sluice serve` (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), counted with a real local upstream: the blocks before the failed one make no call.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { json, startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { createBlankPostgresDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { SLUICE_BIN, startSluice, type SluiceProcess } from '../support/process.js';
import { eventually, makeState } from '../support/workflows.js';

let upstream: FakeUpstream;
let failB = true;
let dataDir: string;
let home: string;
let dropDatabase: (() => Promise<void>) | undefined;
let server: SluiceProcess | undefined;
const key = generateApiKey();
const env: Record<string, string> = {};

beforeAll(async () => {
  upstream = await startUpstream((_req, res, recorded) => {
    const path = new URL(recorded.url, 'http://upstream').pathname;
    if (path === '/b' && failB) return json(res, 500, { down: true });
    json(res, 200, { path });
  });
  // Not a first start (that is serve.test.ts's): a copy of the migrated database, as an earlier start left it.
  dataDir = migratedDataDir('sluice-bulk-');
  home = mkdtempSync(join(tmpdir(), 'sluice-bulk-home-'));
  Object.assign(env, { SLUICE_DATA_DIR: dataDir, SLUICE_BOOTSTRAP_API_KEY: key, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  if (TEST_DATABASE_URL) {
    const database = await createBlankPostgresDatabase();
    Object.assign(env, { DATABASE_URL: database.url, SLUICE_SECRET: 'bulk-test-secret-bulk-test-secret-0123' });
    dropDatabase = database.drop;
  }
  server = await startSluice(env);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function sluice(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete clean[name];
  const child = spawn(process.execPath, [SLUICE_BIN, ...args], {
    env: { ...clean, XDG_CONFIG_HOME: home, SLUICE_URL: server!.url, SLUICE_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(server!.url + path, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const callsTo = (path: string, since: number) => upstream.requests.slice(since).filter((r) => new URL(r.url, 'http://upstream').pathname === path);

describe('sluice runs retry, in bulk', { timeout: 180_000 }, () => {
  it('retries the failed runs of the last hour from their failed block, follows them to the end, and says how they ended', async () => {
    const me = await call('GET', '/api/v1/me');
    const workspaceId: string = me.body.workspaces[0].id;
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
        { id: 'a', type: 'api', name: 'Fetch A', config: { url: `${upstream.url}/a`, method: 'GET' } },
        { id: 'b', type: 'api', name: 'Post B', config: { url: `${upstream.url}/b`, method: 'POST', retries: 0 } },
        { id: 'check', type: 'function', name: 'Check', config: { code: 'if (<postb.status> !== 200) throw new Error("B is down"); return { item: <api.item> };' } },
      ],
      [
        ['start', 'a'],
        ['a', 'b'],
        ['b', 'check'],
      ],
    );
    const created = await call('POST', '/api/v1/workflows', { workspaceId, name: 'Orders', state });
    const workflowId: string = created.body.data.id;
    expect((await call('POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
    const failed: string[] = [];
    for (const item of ['sofa', 'lamp', 'rug']) {
      failB = item !== 'lamp';
      const res = await call('POST', `/api/workflows/${workflowId}/execute`, { item });
      expect(res.status).toBe(failB ? 500 : 200);
      if (failB) failed.push(res.body.executionId);
    }
    failB = false;
    await eventually(async () => (await call('GET', `/api/v1/logs?workspaceId=${workspaceId}`)).body.data.length === 3, 15_000, 'the logs');

    const before = upstream.requests.length;
    const retried = await sluice(['runs', 'retry', '--since', '1h', '--level', 'error', '--workflow', 'Orders']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('2 of 2 failed runs queued for a retry');
    expect(retried.stdout).toContain('2 succeeded, 0 failed of 2');
    for (const original of failed) expect(retried.stdout).toMatch(new RegExp(`${original}\\s+exec_\\w+\\s+succeeded`));
    expect(callsTo('/a', before)).toHaveLength(0);
    expect(callsTo('/b', before)).toHaveLength(2);

    // --no-wait: the batch, printed, and the command returns; the progress endpoint follows it.
    const queued = await sluice(['runs', 'retry', '--since', '1h', '--limit', '1', '--no-wait', '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    const batch = JSON.parse(queued.stdout);
    expect(batch).toMatchObject({ total: 1, queued: 1 });
    const progress = await eventually(async () => {
      const res = await call('GET', `/api/v1/executions/rerun/${batch.batchId}`);
      return res.body.data.done === true && res.body.data;
    }, 20_000, 'the batch');
    expect(progress).toMatchObject({ succeeded: 1, failed: 0 });

    const badSince = await sluice(['runs', 'retry', '--since', 'yesterday']);
    expect(badSince.code).toBe(2);
    expect(badSince.stderr).toContain('--since');
    const mixed = await sluice(['runs', 'retry', failed[0]!, '--since', '1h']);
    expect(mixed.code).toBe(2);
    const tooMany = await sluice(['runs', 'retry', '--limit', '1001']);
    expect(tooMany.code).toBe(5);
    expect(tooMany.stderr).toContain('limit');
  });
});
