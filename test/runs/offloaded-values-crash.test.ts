// A process killed (kill -9) after it stored a log's large value in file storage but before the log was written
// (docs/operations.md "Large values in logs"): the value's row, written before its bytes, is all that records them,
// and housekeeping deletes the bytes (then the row) once they are an hour old. PostgreSQL: another session holds the
// logs table so that the log's write waits, as a slow database would make it, while the process is killed (and the
// waiting statement with it).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { openDatabase } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { createLocalStorage } from '../../src/services/files/local-storage.js';
import { ORPHAN_AGE_MS } from '../../src/services/logs/orphaned-values.js';
import { createBlankPostgresDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { eventually, makeState } from '../support/workflows.js';

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.runIf(TEST_DATABASE_URL)('a large value stored by a process killed before its log was written', { timeout: 120_000 }, () => {
  let blank: Awaited<ReturnType<typeof createBlankPostgresDatabase>>;
  let dataDir: string;
  beforeAll(async () => {
    blank = await createBlankPostgresDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sluice-value-crash-'));
  });
  afterAll(async () => {
    await blank?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One statement on a connection of its own. */
  const sql = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: blank.url });
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  };
  /** The storage keys of the values in the local file storage. */
  const storedValues = () => {
    const root = join(dataDir, 'files', 'executions');
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((id) => {
      const dir = join(root, id, 'values');
      return existsSync(dir) ? readdirSync(dir).map((name) => `executions/${id}/values/${name}`) : [];
    });
  };

  it('is recorded before its bytes are written, and deleted by housekeeping once an hour old', async () => {
    const key = generateApiKey();
    let server: SluiceProcess | undefined = await startSluice({
      DATABASE_URL: blank.url,
      SLUICE_SECRET: 'value-crash-secret-value-crash-secret-01',
      SLUICE_DATA_DIR: dataDir,
      SLUICE_BOOTSTRAP_API_KEY: key,
      SLUICE_INLINE_VALUE_LIMIT: '1024',
      SLUICE_LIMIT_LOGS_FREE: 'unlimited',
    });
    const session = new pg.Client({ connectionString: blank.url });
    await session.connect();
    const valuesDir = join(dataDir, 'files', 'executions');
    try {
      const me = await api(server.url, key, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const state = makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'big', type: 'function', name: 'Big', config: { code: "return { text: 'x'.repeat(5000) };" } },
        ],
        [['start', 'big']],
      );
      const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId, name: 'big', state });
      const workflowId: string = created.body.data.id;
      expect((await api(server.url, key, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);

      // Reads go on; the log's write waits.
      await session.query('begin');
      await session.query('lock table executions in share mode');
      void api(server.url, key, 'POST', `/api/workflows/${workflowId}/execute`, {}).catch(() => undefined);
      await eventually(async () => storedValues().length > 0, 20_000, 'the value to be stored');
      await eventually(async () => {
        const { rows } = await sql(`select count(*)::int as n from pg_locks where relation = 'executions'::regclass and not granted`);
        return rows[0].n > 0;
      }, 20_000, "the log's write to wait for the table");
      await server.stop('SIGKILL');
      server = undefined;
      // Its waiting statement would still run once the table is free (PostgreSQL hears of the lost client only when
      // it next reads from it): ended too, as if the process had died before sending it.
      await sql(`select pg_terminate_backend(pid) from pg_locks where relation = 'executions'::regclass and not granted`);
    } finally {
      await session.query('rollback').catch(() => undefined);
      await session.end();
      await server?.stop();
    }

    // The log was never written; the value's row, without an execution id, says where its bytes are.
    const [value] = storedValues();
    const executionId = value.split('/')[1];
    expect((await sql(`select count(*)::int as n from executions where coalesce(execution_id, 'exec_' || substr(id, 5)) = $1`, [executionId])).rows[0].n).toBe(0);
    expect((await sql('select execution_id from files where storage_key = $1', [value])).rows).toEqual([{ execution_id: null }]);

    const database = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 2 });
    try {
      const deps = { db: database.db, logger: createLogger('silent'), storage: createLocalStorage(join(dataDir, 'files')), logRetentionDays: null };
      await runMaintenance(deps); // within the hour it might still be on its way to a log
      expect(storedValues()).toEqual([value]);
      await runMaintenance(deps, Date.now() + ORPHAN_AGE_MS + 60_000);
      expect(storedValues()).toEqual([]);
      expect((await sql('select count(*)::int as n from files where storage_key = $1', [value])).rows[0].n).toBe(0);
    } finally {
      await database.close();
    }
  });
});
