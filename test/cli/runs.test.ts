// `sluice runs show | rerun | retry` against a real `sluice serve`, for an execution logged before the server
// restarted: the re-run reads everything it needs from the log (PGlite, or PostgreSQL with TEST_DATABASE_URL).
// Counted with a real local upstream: blocks replayed from the log make no call.
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
import { makeState } from '../support/workflows.js';

let upstream: FakeUpstream;
let failB = true;
let dataDir: string;
let home: string;
let dropDatabase: (() => Promise<void>) | undefined;
const key = generateApiKey();
const env: Record<string, string> = {};

beforeAll(async () => {
  upstream = await startUpstream((_req, res, recorded) => {
    const path = new URL(recorded.url, 'http://upstream').pathname;
    if (path === '/b' && failB) return json(res, 500, { down: true });
    json(res, 200, { path });
  });
  // Not a first start (that is serve.test.ts's): a copy of the migrated database, as an earlier start left it.
  dataDir = migratedDataDir('sluice-runs-');
  home = mkdtempSync(join(tmpdir(), 'sluice-runs-home-'));
  Object.assign(env, { SLUICE_DATA_DIR: dataDir, SLUICE_BOOTSTRAP_API_KEY: key, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  if (TEST_DATABASE_URL) {
    const database = await createBlankPostgresDatabase();
    Object.assign(env, { DATABASE_URL: database.url, SLUICE_SECRET: 'runs-test-secret-runs-test-secret-0123' });
    dropDatabase = database.drop;
  }
});
afterAll(async () => {
  await upstream?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function sluice(server: SluiceProcess, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete clean[name];
  const child = spawn(process.execPath, [SLUICE_BIN, ...args], {
    env: { ...clean, XDG_CONFIG_HOME: home, SLUICE_URL: server.url, SLUICE_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

async function call(server: SluiceProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const callsTo = (path: string, since: number) => upstream.requests.slice(since).filter((r) => new URL(r.url, 'http://upstream').pathname === path);

describe('sluice runs, across a restart', { timeout: 180_000 }, () => {
  it('shows a failed run logged before the restart, previews and retries it from the failed block, and re-runs it from a block', async () => {
    let server = await startSluice(env);
    let executionId: string;
    try {
      const me = await call(server, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const state = makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
          { id: 'a', type: 'api', name: 'Fetch A', config: { url: `${upstream.url}/a`, method: 'GET' } },
          { id: 'b', type: 'api', name: 'Post B', config: { url: `${upstream.url}/b`, method: 'POST', retries: 0 } },
          { id: 'check', type: 'function', name: 'Check', config: { code: 'if (<postb.status> !== 200) throw new Error("B is down"); return { item: <api.item>, b: <postb.data>.path };' } },
        ],
        [
          ['start', 'a'],
          ['a', 'b'],
          ['b', 'check'],
        ],
      );
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId, name: 'Orders', state });
      expect((await call(server, 'POST', `/api/v1/workflows/${created.body.data.id}/deploy`)).status).toBe(200);
      const failed = await call(server, 'POST', `/api/workflows/${created.body.data.id}/execute`, { item: 'sofa' });
      expect(failed.status).toBe(500);
      executionId = failed.body.executionId;
    } finally {
      await server.stop();
    }

    server = await startSluice(env);
    try {
      const shown = await sluice(server, ['runs', 'show', executionId, '--json']);
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({ executionId, status: 'error', rerunOf: null, reruns: [] });

      const preview = await sluice(server, ['runs', 'retry', executionId, '--dry-run', '--json']);
      expect(preview.code, preview.stderr).toBe(0);
      expect(JSON.parse(preview.stdout)).toMatchObject({ rerunOf: executionId, fromBlock: 'b', replayed: ['a'] });
      expect(JSON.parse(preview.stdout).willRun).toContainEqual({ blockId: 'b', type: 'api', sideEffects: true });

      failB = false;
      const before = upstream.requests.length;
      const retried = await sluice(server, ['runs', 'retry', executionId]);
      expect(retried.code, retried.stderr).toBe(0);
      expect(JSON.parse(retried.stdout)).toEqual({ result: { item: 'sofa', b: '/b' }, stdout: '' });
      expect(retried.stderr).toContain(`a re-run of ${executionId}`);
      expect(callsTo('/a', before)).toHaveLength(0);
      expect(callsTo('/b', before)).toHaveLength(1);
      expect(upstream.requests.at(-1)!.headers['idempotency-key']).toBe(`${executionId}:b:0`);

      const rerun = await sluice(server, ['runs', 'rerun', executionId, '--from', 'check', '--input', '{"item":"bed"}', '--json']);
      expect(rerun.code, rerun.stderr).toBe(0);
      const answer = JSON.parse(rerun.stdout);
      expect(answer).toMatchObject({ rerunOf: executionId, status: 200 });

      const listed = await sluice(server, ['runs', 'show', executionId]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`re-run ${answer.executionId}  success`);

      // The re-run itself succeeded: there is nothing to retry.
      const refused = await sluice(server, ['runs', 'retry', answer.executionId]);
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain('EXECUTION_NOT_FAILED');
      const unknown = await sluice(server, ['runs', 'show', 'exec_nothere']);
      expect(unknown.code).toBe(4);
    } finally {
      await server.stop();
    }
  });
});
