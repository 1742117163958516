// The service as a user runs it: `sluice init`, `sluice serve`, stop, start again, data still there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { runSluice, startSluice } from '../support/process.js';
import { echoState } from '../support/states.js';

let dataDir: string;
let testDb: TestDatabase | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
  env = { SLUICE_DATA_DIR: dataDir };
  if (process.env.TEST_DATABASE_URL) {
    testDb = await createTestDatabase();
    await testDb.database.close();
    env.DATABASE_URL = testDb.url!;
    env.SLUICE_SECRET = 'cli-test-secret-cli-test-secret-0123456';
  }
});
afterAll(async () => {
  if (testDb) await testDb.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(url: string, key: string) {
  const res = await fetch(url, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as any };
}

// Each test spawns real processes that initialise PGlite from scratch: allow for a loaded CI machine.
describe('sluice command', { timeout: 120_000 }, () => {
  it('init --json provisions offline; serve answers for that key; data survives a restart', async () => {
    const init = await runSluice(['init', '--json'], env);
    expect(init.code, init.stderr).toBe(0);
    const creds = JSON.parse(init.stdout);
    expect(creds.apiKey).toMatch(/^sk-sluice-/);
    expect(creds.workspaceId).toMatch(/^ws_/);

    const first = await startSluice(env);
    try {
      // `serve` runs the worker in-process, so /ready checks it too.
      const ready = await fetch(`${first.url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ok',
        checks: { database: { ok: true }, migrations: { ok: true }, worker: { ok: true } },
      });
      const me = await get(`${first.url}/api/v1/me`, creds.apiKey);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ userId: creds.userId, workspaces: [{ id: creds.workspaceId, name: 'Default' }] });
      const created = await fetch(`${first.url}/api/v1/workflows`, {
        method: 'POST',
        headers: { 'x-api-key': creds.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ workspaceId: creds.workspaceId, name: 'Survivor', state: echoState() }),
      });
      expect(created.status).toBe(201);
      expect(first.output()).not.toContain(creds.apiKey);
      // Nothing a user would take for a fault: node-postgres warned at every start when a new connection's first query
      // queued behind its LISTEN.
      expect(first.output()).not.toMatch(/DeprecationWarning|Warning:/);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startSluice(env);
    try {
      const list = await get(`${second.url}/api/v1/workflows?workspaceId=${creds.workspaceId}`, creds.apiKey);
      expect(list.body.data.map((w: { name: string }) => w.name)).toEqual(['Survivor']);
    } finally {
      await second.stop();
    }
  });

  it('SLUICE_BOOTSTRAP_API_KEY provisions the admin on start, once', async () => {
    const key = generateApiKey();
    const withKey = { ...env, SLUICE_BOOTSTRAP_API_KEY: key, SLUICE_ADMIN_EMAIL: 'boss@example.com' };
    for (let i = 0; i < 2; i++) {
      const server = await startSluice(withKey);
      try {
        const me = await get(`${server.url}/api/v1/me`, key);
        expect(me.status).toBe(200);
        expect(me.body.email).toBe('boss@example.com');
        expect(me.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['Default']);
        expect(server.output()).not.toContain(key);
      } finally {
        await server.stop();
      }
    }
  });

  it('refuses bad configuration with a message naming the variable', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /PORT/],
      [{ SLUICE_ALLOW_PRIVATE_NETWORK: 'maybe' }, /SLUICE_ALLOW_PRIVATE_NETWORK/],
      [{ SLUICE_TRUST_PROXY: 'maybe' }, /SLUICE_TRUST_PROXY/],
      [{ SLUICE_BOOTSTRAP_API_KEY: 'short' }, /SLUICE_BOOTSTRAP_API_KEY/],
      [{ SLUICE_LIMIT_LOGS_FREE: '-3' }, /SLUICE_LIMIT_LOGS_FREE/],
      [{ DATABASE_URL: 'postgres://127.0.0.1/x', SLUICE_SECRET: '' }, /SLUICE_SECRET/],
    ];
    for (const [bad, message] of cases) {
      const result = await runSluice(['serve'], { ...env, ...bad });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
