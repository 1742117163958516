// Migration 0029 (docs/operations.md "Upgrades"): the offloaded values of logs deleted with their workflow before it
// had no log left and were never deleted. Upgrading marks them, and the first housekeeping pass deletes their bytes
// and rows; a live log's values and a run's uploaded file are left as they are. PostgreSQL only: a database from
// before is made with the migrations up to 0028 (PGlite's test databases come from a template of all of them).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { openDatabase } from '../../src/db/client.js';
import { files } from '../../src/db/schema.js';
import { createLogger } from '../../src/logger.js';
import { createLocalStorage } from '../../src/services/files/local-storage.js';
import { ORPHAN_AGE_MS } from '../../src/services/logs/orphaned-values.js';
import { createBlankPostgresDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { migrationsUpTo } from '../support/migrations.js';

const PREVIOUS_MIGRATION = '0028_failures_models_index';


describe.skipIf(!TEST_DATABASE_URL)('migration 0029: values of workflows deleted before', () => {
  it('are deleted by the first housekeeping pass after the upgrade; live values and uploads stay', async () => {
    const blank = await createBlankPostgresDatabase();
    const folder = migrationsUpTo(PREVIOUS_MIGRATION);
    const filesDir = mkdtempSync(join(tmpdir(), 'sluice-files-'));
    const storage = createLocalStorage(filesDir);
    const keys = {
      orphan: 'executions/exec_gone/values/a-0.json', // its log went with its workflow
      live: 'executions/exec_live/values/a-0.json',
      upload: 'ws_1/file_upload', // a run's uploaded file, stored before its log exists
    };
    try {
      for (const key of Object.values(keys)) await storage.put(key, Buffer.from('{}'), 2);
      const client = new pg.Client({ connectionString: blank.url });
      await client.connect();
      try {
        await migrate(drizzle({ client }), { migrationsFolder: folder });
        await client.query(`insert into users (id, email, plan) values ('usr_1', 'a@example.com', 'free')`);
        await client.query(`insert into workspaces (id, name, owner_id) values ('ws_1', 'W', 'usr_1')`);
        await client.query(
          `insert into workflows (id, workspace_id, name, description, state, state_hash) values ('wf_1', 'ws_1', 'F', '', '{}', 'h')`,
        );
        await client.query(`insert into state_snapshots (hash, state) values ('snap', '{}')`);
        await client.query(
          `insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
             started_at, ended_at, total_duration_ms, models, block_error_count)
           values ('log_live', 'exec_live', 'ws_1', 'wf_1', 'snap', 'api', 'success', 'info', now(), now(), 1, '{}', 0)`,
        );
        await client.query(
          `insert into files (id, workspace_id, execution_id, name, mime, size, storage_key) values
             ('file_orphan', 'ws_1', 'exec_gone', 'value-0.json', 'application/json', 2, $1),
             ('file_live', 'ws_1', 'exec_live', 'value-0.json', 'application/json', 2, $2),
             ('file_upload', 'ws_1', 'exec_queued', 'in.txt', 'text/plain', 2, $3)`,
          [keys.orphan, keys.live, keys.upload],
        );
      } finally {
        await client.end();
      }

      const database = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 2 });
      try {
        await runMaintenance({ db: database.db, logger: createLogger('silent'), storage, logRetentionDays: null }, Date.now() + ORPHAN_AGE_MS + 60_000);
        const left = await database.db.select({ id: files.id, executionId: files.executionId }).from(files).orderBy(files.id);
        expect(left).toEqual([
          { id: 'file_live', executionId: 'exec_live' },
          { id: 'file_upload', executionId: 'exec_queued' },
        ]);
      } finally {
        await database.close();
      }
      const onDisk = (key: string) => existsSync(join(filesDir, key));
      expect(onDisk(keys.orphan)).toBe(false);
      expect(onDisk(keys.live)).toBe(true);
      expect(onDisk(keys.upload)).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(filesDir, { recursive: true, force: true });
      await blank.drop();
    }
  });
});
