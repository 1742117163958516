// Log retention (docs/guarantees.md 5): with SLUICE_LOG_RETENTION_DAYS set, maintenance deletes finished logs older
// than that with their stored files, and finished webhook deliveries older than that — never a run still running or
// paused, nor a log whose completion webhook is still being delivered. Runs are made through the API; their age is
// set in the database (the test cannot wait 30 days).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceDeps, runMaintenance } from '../../src/app/maintenance.js';
import { rowsOf } from '../../src/db/rows.js';
import { deliveries, executions, files } from '../../src/db/schema.js';
import { createLogger } from '../../src/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';
import { subscribe } from '../completion-webhooks/support.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LOG_RETENTION_DAYS: '30' });
});
afterAll(async () => t?.close());

const DAY_MS = 24 * 3_600_000;
const logger = createLogger('silent');
/** The housekeeping a worker of this app runs (on PGlite, with the VACUUM it lacks), with the given retention. */
const maintain = (logRetentionDays: number | null) => runMaintenance({ ...maintenanceDeps(t.app, logger), logRetentionDays });

const state = makeState([
  { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'doc', type: 'files' }] } },
]);
const file = { type: 'file', name: 'note.txt', mime: 'text/plain', data: `data:text/plain;base64,${Buffer.from('kept or not').toString('base64')}` };

async function run(workflowId: string): Promise<{ executionId: string; fileUrl: string }> {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { doc: [file] } });
  expect(res.status, res.text).toBe(200);
  const [stored] = res.body.output.doc as Array<{ url: string }>;
  return { executionId: res.body.executionId, fileUrl: stored.url };
}

/** Moves a run `days` into the past (and its deliveries' completion, when `delivered` says how they ended). */
async function age(executionId: string, days: number) {
  const at = new Date(Date.now() - days * DAY_MS);
  await t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(executionId));
}
async function settleDeliveries(executionId: string, status: 'succeeded' | 'failed', daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * DAY_MS);
  await t.app.db.update(deliveries).set({ status, completedAt: at }).where(eq(deliveries.executionId, executionId));
}

const logOf = (executionId: string) => t.request('GET', `/api/v1/logs/executions/${executionId}`);
const download = (url: string) => {
  const { pathname, search } = new URL(url);
  return fetch(t.url + pathname + search);
};
/** Where the bytes of a run's file are on disk (local file storage). */
const fileOnDisk = async (executionId: string) => {
  const [row] = await t.app.db.select().from(files).where(eq(files.executionId, executionId));
  return join(t.config.dataDir, 'files', row.storageKey);
};

describe('log retention', () => {
  it('deletes finished logs (and their files) and finished deliveries past the retention, keeping what a promise still needs', async () => {
    const workflowId = await createAndDeploy(t, state);
    // No worker runs in this app: deliveries stay pending until the test settles them.
    await subscribe(t, workflowId, { url: 'http://127.0.0.1:9/hook' });
    const expired = await run(workflowId); // 40 days old, its webhook delivered 35 days ago
    const undelivered = await run(workflowId); // 40 days old, its webhook still being retried
    const recent = await run(workflowId); // 10 days old, delivered 10 days ago
    const stillPaused = await run(workflowId); // started 40 days ago, waiting for an approval
    const failedLongAgo = await run(workflowId); // 40 days old, its webhook gave up 31 days ago
    for (const r of [expired, undelivered, stillPaused, failedLongAgo]) await age(r.executionId, 40);
    await age(recent.executionId, 10);
    await settleDeliveries(expired.executionId, 'succeeded', 35);
    await settleDeliveries(recent.executionId, 'succeeded', 10);
    await settleDeliveries(failedLongAgo.executionId, 'failed', 31);
    await settleDeliveries(stillPaused.executionId, 'succeeded', 35);
    await t.app.db.update(executions).set({ status: 'paused', endedAt: null }).where(isExecution(stillPaused.executionId));
    const expiredBytes = [await fileOnDisk(expired.executionId), await fileOnDisk(failedLongAgo.executionId)];
    const keptBytes = [await fileOnDisk(undelivered.executionId), await fileOnDisk(recent.executionId)];
    for (const path of [...expiredBytes, ...keptBytes]) expect(existsSync(path)).toBe(true);

    // Without a retention, maintenance deletes nothing.
    await maintain(null);
    for (const r of [expired, undelivered, recent, failedLongAgo]) expect((await logOf(r.executionId)).status).toBe(200);

    await maintain(30);
    for (const gone of [expired, failedLongAgo]) {
      expect((await logOf(gone.executionId)).status).toBe(404);
      expect((await download(gone.fileUrl)).status).toBe(404);
      expect(await t.app.db.select().from(files).where(eq(files.executionId, gone.executionId))).toEqual([]);
    }
    for (const path of expiredBytes) expect(existsSync(path)).toBe(false);
    for (const path of keptBytes) expect(existsSync(path)).toBe(true);
    for (const kept of [undelivered, recent]) {
      expect((await logOf(kept.executionId)).status).toBe(200);
      const downloaded = await download(kept.fileUrl);
      expect(downloaded.status).toBe(200);
      expect(await downloaded.text()).toBe('kept or not');
    }
    const [paused] = await t.app.db.select(executionRow).from(executions).where(isExecution(stillPaused.executionId));
    expect(paused.status).toBe('paused');

    // Deliveries: finished ones past the retention go (whatever their log), pending and recent ones stay.
    const left = await t.app.db
      .select({ executionId: deliveries.executionId, status: deliveries.status })
      .from(deliveries)
      .where(inArray(deliveries.executionId, [expired, undelivered, recent, stillPaused, failedLongAgo].map((r) => r.executionId)));
    expect(left.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { executionId: undelivered.executionId, status: 'pending' },
      { executionId: recent.executionId, status: 'succeeded' },
    ]);

    // Once its webhook is delivered (and that has aged), the remaining old log goes too.
    await settleDeliveries(undelivered.executionId, 'succeeded', 31);
    await maintain(30);
    expect((await logOf(undelivered.executionId)).status).toBe(404);
    expect((await logOf(recent.executionId)).status).toBe(200);

    // The space the pruned rows took is for the next ones: PostgreSQL's autovacuum sees to it; the embedded database
    // has none, and the pass ends with a VACUUM of its own (test/db/pglite-vacuum.test.ts measures the space).
    const [stats] = await rowsOf<{ last_vacuum: Date | null }>(t.app.db, sql`select last_vacuum from pg_stat_user_tables where relname = 'executions'`);
    expect(maintenanceDeps(t.app, logger).vacuum !== undefined).toBe(t.app.database.kind === 'pglite');
    if (t.app.database.kind === 'pglite') expect(stats.last_vacuum).not.toBeNull();
  });

  it('prunes in batches until nothing past the retention is left', async () => {
    const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
      ids.push(res.body.executionId);
    }
    // 1,200 more old logs of this workflow, copied from one real run: more than two batches of 500.
    await t.app.db.execute(sql`insert into executions (id, execution_id, workspace_id, workflow_id, deployment_version,
        snapshot_hash, trigger, status, level, started_at, ended_at, total_duration_ms, cost_total, models)
      select 'log_old' || g, 'exec_old' || g, workspace_id, workflow_id, deployment_version, snapshot_hash, trigger,
        status, level, now() - interval '60 days', now() - interval '60 days', 1, 0, '{}'
      from executions, generate_series(1, 1200) g where ${isExecution(ids[0])}`);
    for (const id of ids) await age(id, 45);
    await maintain(30);
    const remaining = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(executions).where(eq(executions.workflowId, workflowId));
    expect(remaining[0].n).toBe(0);
  });
});

describe('SLUICE_LOG_RETENTION_DAYS', () => {
  it('is a number of days from 1, unset by default (logs kept for ever)', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config.js');
    expect(loadConfig({}).logRetentionDays).toBeNull();
    expect(loadConfig({ SLUICE_LOG_RETENTION_DAYS: '90' }).logRetentionDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'forever']) {
      expect(() => loadConfig({ SLUICE_LOG_RETENTION_DAYS: bad }), bad).toThrow(ConfigError);
    }
  });
});
