// GET /health (the process answers; no database call) and GET /ready (database answers, every shipped migration
// applied, worker running where this process should run one): 200, or 503 naming the failing check.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { createAppWorker } from '../../src/app/worker.js';
import { createLogger } from '../../src/logger.js';
import { createReadiness } from '../../src/services/readiness.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: Array<{ tag: string; when: number }> };
const lastMigration = journal.entries.at(-1)!;

const apps: TestApp[] = [];
async function app(): Promise<TestApp> {
  const t = await startTestApp();
  apps.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

async function probe(t: TestApp, path: '/health' | '/ready') {
  const res = await fetch(t.url + path);
  return { status: res.status, body: (await res.json()) as any, cacheControl: res.headers.get('cache-control') };
}

describe('GET /ready', () => {
  it('answers 200 with every check passing, without an API key', async () => {
    const t = await app();
    const ready = await probe(t, '/ready');
    expect(ready).toEqual({
      status: 200,
      cacheControl: 'no-store',
      body: {
        status: 'ok',
        checks: {
          database: { ok: true },
          migrations: { ok: true },
          worker: { ok: true, message: 'This process runs no worker' },
        },
      },
    });
  });

  it('answers 503 naming the database when it is unreachable, while /health still answers 200', async () => {
    const t = await app();
    await t.app.database.close();
    const ready = await probe(t, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: {
        database: { ok: false, message: 'The database is unreachable' },
        migrations: { ok: false, message: 'Not checked: the database is unreachable' },
        worker: { ok: true, message: 'This process runs no worker' },
      },
    });
    expect(await probe(t, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 naming the migrations the database lacks, and caches the check once it has passed', async () => {
    const t = await app();
    const removeLast = sql`delete from drizzle.__drizzle_migrations where created_at = ${lastMigration.when}`;
    await t.app.db.execute(removeLast);
    const missing = await probe(t, '/ready');
    expect(missing.status).toBe(503);
    expect(missing.body.checks.migrations).toEqual({ ok: false, message: `1 migration not applied: ${lastMigration.tag}` });
    expect(missing.body.checks.database).toEqual({ ok: true });

    await t.app.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('restored', ${lastMigration.when})`);
    expect((await probe(t, '/ready')).status).toBe(200);
    // Passed once, not asked again: migrations are only ever added under a running process.
    await t.app.db.execute(removeLast);
    expect((await probe(t, '/ready')).status).toBe(200);
  });

  it('lists every migration when the database has no migrations table', async () => {
    const t = await app();
    await t.app.db.execute(sql`drop schema drizzle cascade`);
    const ready = await probe(t, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.migrations).toEqual({
      ok: false,
      message: `${journal.entries.length} migrations not applied: ${journal.entries.map((entry) => entry.tag).join(', ')}`,
    });
  });

  it('answers 503 while a process that should run the worker has none running: before start and after stop', async () => {
    const t = await app();
    t.app.readiness.expectWorker();
    const before = await probe(t, '/ready');
    expect(before.status).toBe(503);
    expect(before.body.checks.worker).toEqual({ ok: false, message: 'The worker has not started' });

    const worker = createAppWorker(t.app);
    await worker.start();
    t.app.readiness.workerStarted(worker);
    const running = await probe(t, '/ready');
    expect(running.status).toBe(200);
    expect(running.body.checks.worker).toEqual({ ok: true });

    await worker.stop(0);
    const stopped = await probe(t, '/ready');
    expect(stopped.status).toBe(503);
    expect(stopped.body.checks.worker).toEqual({ ok: false, message: 'The worker has stopped' });
  });
});

describe('GET /health', () => {
  it('answers 200 {status:"ok"} without an API key, and both probes are in the OpenAPI document as public', async () => {
    const t = await app();
    expect(await probe(t, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const openapi = (await t.request('GET', '/api/openapi.json', { apiKey: null })).body;
    expect(openapi.paths['/health'].get.security).toEqual([]);
    expect(openapi.paths['/ready'].get.security).toEqual([]);
  });
});

describe.runIf(TEST_DATABASE_URL)('readiness against a PostgreSQL that stops answering (needs TEST_DATABASE_URL)', () => {
  it('fails the database check after its timeout when the connection hangs, and at once when it is cut', async () => {
    const testDb = await createTestDatabase();
    const target = new URL(testDb.url!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const database = await openDatabase({ kind: 'postgres', url: proxied.toString(), poolSize: 2 });
    try {
      const readiness = createReadiness(database.db, createLogger('silent'), { databaseTimeoutMs: 300 });
      expect((await readiness.check()).ready).toBe(true);

      proxy.hang();
      const hung = await readiness.check();
      expect(hung.ready).toBe(false);
      expect(hung.checks.database).toEqual({ ok: false, message: 'The database did not answer within 300 ms' });
      // Migrations passed before: the hang does not make them fail too.
      expect(hung.checks.migrations).toEqual({ ok: true });

      await proxy.cut();
      const cut = await readiness.check();
      expect(cut.checks.database).toEqual({ ok: false, message: 'The database is unreachable' });
    } finally {
      await proxy.cut().catch(() => undefined);
      await database.close();
      await testDb.drop();
    }
  });
});
