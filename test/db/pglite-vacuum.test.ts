// The embedded database reclaims what housekeeping prunes (db/pglite-vacuum.ts): PGlite has no autovacuum, and
// without one every pruned log's space stayed in the file while new logs took new space, so a data directory with
// retention on still grew for ever. Here, on an embedded database on disk as `sluice serve` opens it, a day of logs
// is pruned by retention and as many new ones are written: the database must not grow by what they take.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { openDatabase, pgliteDataDir, type Database } from '../../src/db/client.js';
import { createPgliteVacuum } from '../../src/db/pglite-vacuum.js';
import { rowsOf } from '../../src/db/rows.js';
import { createLogger } from '../../src/logger.js';
import { createLocalStorage } from '../../src/services/files/local-storage.js';
import { migratedDataDir } from '../support/data-dir.js';

const LOGS = 2_000;
const DAY_MS = 24 * 3_600_000;
let dataDir: string;
let database: Database;

beforeAll(async () => {
  dataDir = migratedDataDir('sluice-vacuum-');
  database = await openDatabase({ kind: 'pglite', dataDir: pgliteDataDir(dataDir) });
  await rowsOf(
    database.db,
    sql`with u as (insert into users (id, email) values ('usr_v', 'v@example.com') returning id),
      w as (insert into workspaces (id, name, owner_id) select 'ws_v', 'V', id from u returning id)
      insert into workflows (id, workspace_id, name, state, state_hash)
      select 'wf_v', id, 'W', '{"blocks":{},"edges":[],"loops":{},"parallels":{}}', 'h' from w`,
  );
  await rowsOf(database.db, sql`insert into state_snapshots (hash, state) values ('h', '{"blocks":{},"edges":[],"loops":{},"parallels":{}}')`);
}, 120_000);
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** LOGS finished logs started `daysAgo`, each with ~1 KB of final output, as the run recorder leaves them. */
async function writeLogs(tag: string, daysAgo: number): Promise<void> {
  const started = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  await rowsOf(
    database.db,
    sql`insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level, started_at,
          ended_at, total_duration_ms, cost_total, final_output)
        select ${tag} || g, ${tag} || 'x' || g, 'ws_v', 'wf_v', 'h', 'api', 'success', 'info',
          ${started}::timestamptz + g * interval '1 ms', ${started}::timestamptz + g * interval '1 ms' + interval '5 ms', 5, 0,
          jsonb_build_object('text', repeat(md5(g::text), 32))
        from generate_series(1, ${LOGS}) g`,
  );
}

const databaseBytes = async () => Number((await rowsOf<{ n: string }>(database.db, sql`select pg_database_size(current_database()) as n`))[0]!.n);
const logCount = async () => (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from executions`))[0]!.n;

describe('embedded database housekeeping', { timeout: 120_000 }, () => {
  it('takes the space of the logs retention pruned for the next ones, so the database stops growing', async () => {
    const vacuum = createPgliteVacuum(database.db);
    const maintain = () =>
      runMaintenance({ db: database.db, logger: createLogger('silent'), storage: createLocalStorage(dataDir), logRetentionDays: 30, vacuum });
    await maintain();
    const empty = await databaseBytes();

    await writeLogs('old_', 40);
    const full = await databaseBytes();
    const logsTook = full - empty;
    expect(logsTook).toBeGreaterThan(2_000_000);

    await maintain();
    expect(await logCount()).toBe(0);
    await writeLogs('new_', 1);
    expect(await logCount()).toBe(LOGS);
    // Without the VACUUM the new logs took new pages: the database grew by all they take again (2× `logsTook`).
    expect(await databaseBytes()).toBeLessThan(full + logsTook / 4);
  });

  it('gives the planner statistics of a table once its row count has moved, again when it moves or a day has passed', async () => {
    let clock = Date.now();
    const vacuum = createPgliteVacuum(database.db, () => clock);
    const statistics = async () =>
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from pg_stats where tablename = 'executions'`))[0]!.n;
    await rowsOf(database.db, sql`delete from executions`);
    await vacuum.run();
    await writeLogs('more_', 1);
    const before = await statistics();
    expect((await vacuum.run()).analyzed).toContain('executions');
    expect(await statistics()).toBeGreaterThan(before);
    expect((await vacuum.run()).analyzed).not.toContain('executions');
    // Retention keeps a table's count level while its rows change: a day on, it is analysed whatever the count did.
    clock += 23 * 3_600_000;
    expect((await vacuum.run()).analyzed).not.toContain('executions');
    clock += 3_600_000;
    expect((await vacuum.run()).analyzed).toContain('executions');
    expect((await vacuum.run()).analyzed).not.toContain('executions');
  });
});
