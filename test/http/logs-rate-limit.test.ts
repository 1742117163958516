// The logs API rate limit (docs/api.md 6.5): per key owner's plan, one fixed one-minute window shared by
// every server process, headers on every response (429 included), Retry-After in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { freshRateWindow } from '../support/rate-window.js';

function rateHeaders(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: headers.get('x-ratelimit-reset'),
  };
}

describe('logs API rate limit in one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: '5' });
  });
  afterAll(async () => t?.close());

  it('counts every authenticated logs request of the key owner, then answers 429 with Retry-After', async () => {
    await freshRateWindow();
    const ws = t.workspaceId;
    const calls: Array<[string, number, string?]> = [
      [`/api/v1/logs?workspaceId=${ws}`, 200],
      [`/api/v1/logs?workspaceId=${ws}&limit=0`, 400], // a 4xx counts too
      ['/api/v1/logs/log_doesnotexist', 404],
      ['/api/v1/logs/executions/exec_doesnotexist', 404, t.personalKey], // another key of the same owner shares the window
      [`/api/v1/logs?workspaceId=${ws}`, 200],
    ];
    let reset: string | null = null;
    for (const [index, [path, status, apiKey]] of calls.entries()) {
      const res = await t.request('GET', path, { apiKey });
      expect(res.status, path).toBe(status);
      const headers = rateHeaders(res.headers);
      expect(headers.limit).toBe('5');
      expect(headers.remaining).toBe(String(4 - index));
      reset ??= headers.reset;
      expect(headers.reset).toBe(reset);
    }
    expect(new Date(reset!).getTime() % 60_000).toBe(0);
    expect(new Date(reset!).getTime()).toBeGreaterThan(Date.now());

    for (const path of [`/api/v1/logs?workspaceId=${ws}`, '/api/v1/logs/log_doesnotexist', `/api/v1/logs?workspaceId=${ws}&limit=0`]) {
      const limited = await t.request('GET', path);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: expect.stringMatching(/rate limit/i), code: 'RATE_LIMIT_EXCEEDED' });
      expect(rateHeaders(limited.headers)).toEqual({ limit: '5', remaining: '0', reset });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil((new Date(reset!).getTime() - Date.now()) / 1000) + 1);
    }

    // Requests without a key are refused before counting; other endpoints and other users are not limited by it.
    const anonymous = await t.request('GET', `/api/v1/logs?workspaceId=${ws}`, { apiKey: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await t.request('GET', '/api/v1/me')).status).toBe(200);
    const other = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'other@example.com', plan: 'free' });
    const theirs = await t.request('GET', `/api/v1/logs?workspaceId=${other.workspaceId}`, { apiKey: other.apiKey });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('x-ratelimit-remaining')).toBe('4');
  }, 60_000);

  it('follows the key owner’s plan', async () => {
    const pro = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'pro@example.com', plan: 'pro' });
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${pro.workspaceId}`, { apiKey: pro.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    // The body's limits are the workspace owner's execution limits, not the logs limit.
    expect(res.body.limits.workflowExecutionRateLimit.sync.limit).toBe(150);
    expect(res.body.limits.usage).toMatchObject({ plan: 'pro', limit: 100 });
  });
});

describe.runIf(TEST_DATABASE_URL)('logs API rate limit shared by two server processes on one PostgreSQL (needs TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  const servers: SluiceProcess[] = [];
  const apiKey = generateApiKey();

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.database.close();
    const env = {
      DATABASE_URL: database.url!,
      SLUICE_SECRET: 'logs-rate-secret-logs-rate-secret-0123',
      SLUICE_BOOTSTRAP_API_KEY: apiKey,
      SLUICE_LIMIT_LOGS_FREE: '6',
    };
    // One after the other: the first provisions the key, the second finds it.
    servers.push(await startSluice(env));
    servers.push(await startSluice(env));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop().catch(() => undefined);
  });

  it('counts requests to either process in one window', async () => {
    const me = await fetch(`${servers[0]!.url}/api/v1/me`, { headers: { 'x-api-key': apiKey } });
    const workspaceId: string = ((await me.json()) as { workspaces: Array<{ id: string }> }).workspaces[0]!.id;
    await freshRateWindow();
    const get = async (server: SluiceProcess) => {
      const res = await fetch(`${server.url}/api/v1/logs?workspaceId=${workspaceId}`, { headers: { 'x-api-key': apiKey } });
      await res.arrayBuffer();
      return { status: res.status, ...rateHeaders(res.headers), retryAfter: res.headers.get('retry-after') };
    };
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await get(servers[i % 2]!));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(seen.map((r) => r.remaining)).toEqual(['5', '4', '3', '2', '1', '0']);
    expect(new Set(seen.map((r) => r.reset)).size).toBe(1);
    for (const server of servers) {
      const limited = await get(server);
      expect(limited.status).toBe(429);
      expect(limited).toMatchObject({ limit: '6', remaining: '0', reset: seen[0]!.reset });
      expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);
});
