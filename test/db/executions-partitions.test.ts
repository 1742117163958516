// Logs partitioned by month on PostgreSQL (db/executions-partitions.ts): a database with logs written before the
// partitioning upgrades and keeps every log as it was; housekeeping makes the months ahead; retention drops a month
// wholly past the bound (with its files) unless a log in it must be kept, and deletes rows in the boundary month.
// PostgreSQL only: PGlite keeps a plain table.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { openDatabase, type Db } from '../../src/db/client.js';
import { ensureExecutionPartitions, monthPartition, tryPartitionLock } from '../../src/db/executions-partitions.js';
import { rowsOf } from '../../src/db/rows.js';
import { logExecutionId, executions, files } from '../../src/db/schema.js';
import { createLogger } from '../../src/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBlankPostgresDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { migrationsUpTo } from '../support/migrations.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { executionRow } from '../support/log-rows.js';

const DAY_MS = 24 * 3_600_000;
const PREVIOUS_MIGRATION = '0021_flow_control';


const relkind = async (db: Db) =>
  (await rowsOf<{ kind: string }>(db, sql`select relkind::text as kind from pg_class where oid = 'executions'::regclass`))[0]?.kind;
const allLogs = (db: Db) => rowsOf(db, sql`select to_jsonb(e) as row from executions e order by id`);
const partitionsOf = async (db: Db) =>
  (
    await rowsOf<{ name: string }>(
      db,
      sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'executions'::regclass order by 1`,
    )
  ).map((r) => r.name);

describe.skipIf(!TEST_DATABASE_URL)('log partitions on PostgreSQL', () => {
  it('upgrades a database holding logs from before the partitioning: every log kept as it was, by month', async () => {
    const blank = await createBlankPostgresDatabase();
    const folder = migrationsUpTo(PREVIOUS_MIGRATION);
    try {
      const client = new pg.Client({ connectionString: blank.url });
      await client.connect();
      const months = [-3, -2, -1, 0].map((m) => {
        const at = new Date();
        at.setUTCDate(10);
        at.setUTCMonth(at.getUTCMonth() + m);
        return at;
      });
      try {
        await migrate(drizzle({ client }), { migrationsFolder: folder });
        await client.query(`insert into users (id, email, plan) values ('usr_1', 'a@example.com', 'free')`);
        await client.query(`insert into workspaces (id, name, owner_id) values ('ws_1', 'W', 'usr_1')`);
        await client.query(
          `insert into workflows (id, workspace_id, name, description, state, state_hash) values ('wf_1', 'ws_1', 'F', '', '{}', 'h')`,
        );
        await client.query(`insert into state_snapshots (hash, state) values ('snap', '{}')`);
        // 25 logs per month over four months, with the columns a log carries.
        await client.query(
          `insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
             started_at, ended_at, total_duration_ms, models, final_output, trace_spans, block_error_count)
           select 'log_' || m || '_' || g, 'exec_' || m || '_' || g, 'ws_1', 'wf_1', 'snap', 'api',
             case when g % 5 = 0 then 'error' else 'success' end, case when g % 5 = 0 then 'error' else 'info' end,
             s.at + g * interval '1 minute', s.at + g * interval '1 minute' + interval '20 ms', 20,
             array['gpt-4o'], jsonb_build_object('n', g), jsonb_build_array(jsonb_build_object('blockId', 'start')), 0
           from unnest($1::timestamptz[]) with ordinality as s(at, m), generate_series(1, 25) g`,
          [months],
        );
      } finally {
        await client.end();
      }

      const database = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 2 });
      let before: unknown[];
      try {
        expect(await relkind(database.db)).toBe('p');
        before = await allLogs(database.db);
        expect(before).toHaveLength(100);
        const names = await partitionsOf(database.db);
        const wanted = [...months.map((m) => monthPartition(m).name), 'executions_default'];
        for (const name of wanted) expect(names).toContain(name);
        // Housekeeping's months ahead exist from the start.
        expect(names).toContain(monthPartition(new Date(monthPartition(monthPartition(new Date()).to).to)).name);
        // Each log sits in its month, none in the default partition.
        const placed = await rowsOf<{ part: string; n: number }>(
          database.db,
          sql`select tableoid::regclass::text as part, count(*)::int as n from executions group by 1 order by 1`,
        );
        expect(placed).toEqual(months.map((m) => ({ part: monthPartition(m).name, n: 25 })));
        // The keys the log writer relies on came across.
        const keys = await rowsOf<{ name: string }>(database.db, sql`select conname as name from pg_constraint where conrelid = 'executions'::regclass order by 1`);
        expect(keys.map((k) => k.name)).toEqual(
          expect.arrayContaining(['executions_id_started_at_pk', 'executions_workspace_id_workspaces_id_fk', 'executions_workflow_id_workflows_id_fk']),
        );
      } finally {
        await database.close();
      }

      // Opening again (another process starting) leaves the partitioned table as it is.
      const again = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 2 });
      try {
        expect(await relkind(again.db)).toBe('p');
        expect(await allLogs(again.db)).toEqual(before);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await blank.drop();
    }
  });

  describe('with an app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => t?.close());

    const logger = createLogger('silent');
    const maintain = (now: number, logRetentionDays: number | null) =>
      runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays }, now);
    const state = makeState([
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'doc', type: 'files' }] } },
    ]);
    const file = { type: 'file', name: 'note.txt', mime: 'text/plain', data: `data:text/plain;base64,${Buffer.from('x').toString('base64')}` };
    const run = async (workflowId: string) => {
      const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { doc: [file] } });
      expect(res.status, res.text).toBe(200);
      return res.body.executionId as string;
    };
    const moveTo = async (executionId: string, at: Date) =>
      t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(executionId));
    const fileOnDisk = async (executionId: string) => {
      const [row] = await t.app.db.select().from(files).where(eq(files.executionId, executionId));
      return join(t.config.dataDir, 'files', row.storageKey);
    };

    it('housekeeping makes the months ahead; retention drops whole months past the bound, keeping one a waiting run needs', async () => {
      const now = Date.now();
      // Months as housekeeping made them ~4 months ago (that month and two after), and today's.
      const early = new Date(now - 120 * DAY_MS);
      await ensureExecutionPartitions(t.app.db, early);
      await maintain(now, null);
      const m1 = monthPartition(early);
      const m2 = monthPartition(m1.to);
      const m3 = monthPartition(m2.to);
      const current = monthPartition(new Date(now));
      const ahead = [monthPartition(current.to), monthPartition(monthPartition(current.to).to)];
      for (const name of [m1.name, m2.name, m3.name, current.name, ...ahead.map((m) => m.name)]) {
        expect(await partitionsOf(t.app.db)).toContain(name);
      }

      const workflowId = await createAndDeploy(t, state);
      const expired = await run(workflowId); // in m1: its month goes whole, with its file
      const waiting = await run(workflowId); // in m2, still waiting for an approval: its month stays
      const expiredBeside = await run(workflowId); // in m2 too, finished: deleted as a row
      const boundary = await run(workflowId); // 40 days old, in a month reaching past the bound (or the default)
      const recent = await run(workflowId);
      await moveTo(expired, new Date(m1.from.getTime() + DAY_MS));
      await moveTo(waiting, new Date(m2.from.getTime() + DAY_MS));
      await moveTo(expiredBeside, new Date(m2.from.getTime() + 2 * DAY_MS));
      await moveTo(boundary, new Date(now - 40 * DAY_MS));
      await t.app.db.update(executions).set({ status: 'paused', endedAt: null }).where(isExecution(waiting));
      const expiredFile = await fileOnDisk(expired);
      expect(existsSync(expiredFile)).toBe(true);

      await maintain(now, 30);

      const names = await partitionsOf(t.app.db);
      expect(names).not.toContain(m1.name);
      expect(names).toContain(m2.name);
      expect(names).toContain(current.name);
      expect(existsSync(expiredFile)).toBe(false);
      expect(await t.app.db.select().from(files).where(eq(files.executionId, expired))).toEqual([]);
      const left = await t.app.db.select({ executionId: logExecutionId }).from(executions);
      const ids = left.map((r) => r.executionId).sort();
      expect(ids).toEqual([waiting, recent].sort());
      expect((await t.request('GET', `/api/v1/logs/executions/${expired}`)).status).toBe(404);
      expect((await t.request('GET', `/api/v1/logs/executions/${boundary}`)).status).toBe(404);
      expect((await t.request('GET', `/api/v1/logs/executions/${recent}`)).status).toBe(200);
    });
  });

  describe('housekeeping beside other sessions', () => {
    let t: TestApp;
    let workflowId: string;
    beforeAll(async () => {
      t = await startTestApp();
      workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    });
    afterAll(async () => t?.close());

    /** A logger whose warnings the test reads, as an operator would. */
    const recordingLogger = () => {
      const lines: Array<{ msg: string; partitions?: string[] }> = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      });
      return { logger: createLogger('warn', stream), lines };
    };
    /** Another session holding a lock on a table until `release` — what pg_dump does with every table it dumps. */
    const holdLock = async (table: string) => {
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      await client.query('begin');
      await client.query(`lock table "${table}" in access share mode`);
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          await client.query('commit');
          await client.end();
        },
      };
    };
    /** How many sessions are queued for a lock on one of `tables` they were not granted. */
    const waitersOn = async (tables: string[]) => {
      const [row] = await rowsOf<{ n: number }>(
        t.app.db,
        sql`select count(distinct pid)::int as n from pg_locks
          where relation in (select to_regclass(x) from unnest(string_to_array(${tables.join(',')}, ',')) x) and not granted`,
      );
      return row.n;
    };
    /** Waits until `sessions` sessions are queued for a lock on one of `tables`. */
    const waitingOn = (tables: string[], sessions = 1) =>
      eventually(async () => (await waitersOn(tables)) >= sessions, 10_000, `${sessions} session(s) waiting for a lock on ${tables.join(' or ')}`);
    /**
     * Another worker's drop (`exclusive`) or row-by-row batch (`shared`) holding the partition lock: its transaction
     * stays open until `release`.
     */
    const holdPartitionLock = async (mode: 'exclusive' | 'shared') => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding: () => void = () => {};
      const holds = new Promise<void>((resolve) => (holding = resolve));
      const transaction = t.app.db.transaction(async (tx) => {
        expect(await tryPartitionLock(tx, mode)).toBe(true);
        holding();
        await held;
      });
      await Promise.race([holds, transaction]);
      return {
        release: async () => {
          release();
          await transaction;
        },
      };
    };
    /** A log of the deployed workflow, made to have started and ended in `month`. */
    const logIn = async (month: { from: Date }) => {
      const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
      const executionId = res.body.executionId as string;
      await eventually(async () => (await t.app.db.select(executionRow).from(executions).where(isExecution(executionId))).length === 1);
      const at = new Date(month.from.getTime() + DAY_MS);
      await t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(executionId));
      return executionId;
    };

    it('makes no month while a backup holds the logs table, so runs and the logs API go on; the next pass makes it', async () => {
      // A month past the ones made ahead at start, as on the first pass of a new month.
      const later = new Date(Date.now() + 150 * DAY_MS);
      const wanted = monthPartition(later).name;
      expect(await partitionsOf(t.app.db)).not.toContain(wanted);
      const { logger, lines } = recordingLogger();
      const backup = await holdLock('executions');
      // Whatever happens, the lock goes after 10 s: a pass waiting on it for good then shows as a slow run below.
      const releaseAnyway = setTimeout(() => void backup.release(), 10_000);
      try {
        const started = Date.now();
        const pass = runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: null }, later.getTime());
        await waitingOn(['executions']); // the pass asks for the table to add the month
        const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
        expect(res.status, res.text).toBe(200);
        const executionId = res.body.executionId as string;
        const listed = await eventually(async () => {
          const page = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
          return page.status === 200 && page.body.data.length === 1 ? page.body.data[0] : undefined;
        });
        expect(listed).toMatchObject({ executionId, level: 'info' });
        // Answered after the pass gave up waiting (2 s), well before the backup ended.
        expect(Date.now() - started).toBeLessThan(6_000);
        await pass;
        expect(await partitionsOf(t.app.db)).not.toContain(wanted);
        expect(lines).toContainEqual(
          expect.objectContaining({
            msg: 'could not create log partitions ahead: the logs table stayed locked (a backup running?); retried at the next pass',
            partitions: expect.arrayContaining([wanted]),
          }),
        );
      } finally {
        clearTimeout(releaseAnyway);
        await backup.release();
      }

      const after = recordingLogger();
      await runMaintenance({ db: t.app.db, logger: after.logger, storage: t.app.files.storage, logRetentionDays: null }, later.getTime());
      expect(await partitionsOf(t.app.db)).toContain(wanted);
      expect(after.lines).toEqual([]);
    });

    it('two workers dropping the same expired month at once: both passes complete, the month is gone', async () => {
      const now = Date.now();
      const early = new Date(now - 240 * DAY_MS);
      const month = monthPartition(early);
      await ensureExecutionPartitions(t.app.db, early);
      expect(await partitionsOf(t.app.db)).toContain(month.name);
      const executionId = await logIn(month);

      // Held so both passes reach the month before either drops it. Each reads it first (the check), so two drops
      // each holding that read while asking for the table would deadlock: one worker drops at a time.
      const reader = await holdLock(month.name);
      const first = recordingLogger();
      const second = recordingLogger();
      let settled = 0;
      const pass = (logger: ReturnType<typeof recordingLogger>['logger']) =>
        runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: 30 }, now).finally(() => settled++);
      let passes: Promise<unknown>;
      try {
        passes = Promise.allSettled([pass(first.logger), pass(second.logger)]);
        // The one dropping waits for the month; the other queues behind it to read the month, or finds the drop
        // taken and ends its pass.
        await waitingOn(['executions', month.name], 1);
        await eventually(async () => settled === 1 || (await waitersOn(['executions', month.name])) >= 2);
      } finally {
        await reader.release();
      }
      expect(await passes).toEqual([
        { status: 'fulfilled', value: undefined },
        { status: 'fulfilled', value: undefined },
      ]);
      expect(await partitionsOf(t.app.db)).not.toContain(month.name);
      expect([...first.lines, ...second.lines]).toEqual([]);
      expect((await t.request('GET', `/api/v1/logs/executions/${executionId}`)).status).toBe(404);
    });

    it.each([
      ['dropping months', 'exclusive', 270],
      ['deleting expired logs row by row', 'shared', 300],
    ] as const)('a pass finding another worker %s leaves the expired logs to it, then the next pass drops the month', async (_what, mode, daysAgo) => {
      const now = Date.now();
      const early = new Date(now - daysAgo * DAY_MS);
      const month = monthPartition(early);
      await ensureExecutionPartitions(t.app.db, early);
      const executionId = await logIn(month);

      const other = await holdPartitionLock(mode);
      const { logger, lines } = recordingLogger();
      try {
        await runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: 30 }, now);
        // Neither dropped nor deleted row by row: deleting the rows the other worker is dropping could deadlock it.
        expect(await partitionsOf(t.app.db)).toContain(month.name);
        expect((await t.request('GET', `/api/v1/logs/executions/${executionId}`)).status).toBe(200);
        expect(lines).toEqual([]);
      } finally {
        await other.release();
      }

      await runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: 30 }, now);
      expect(await partitionsOf(t.app.db)).not.toContain(month.name);
      expect((await t.request('GET', `/api/v1/logs/executions/${executionId}`)).status).toBe(404);
      expect(lines).toEqual([]);
    });

    it('deletes no expired log row by row while another worker drops a month; the next pass does', async () => {
      // Past the bound (30 days) in the month the bound falls in: deleted row by row, that month never dropped.
      const now = Date.now();
      const executionId = await logIn({ from: new Date(now - 32 * DAY_MS) });
      const drop = await holdPartitionLock('exclusive');
      const { logger, lines } = recordingLogger();
      try {
        await runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: 30 }, now);
        expect((await t.request('GET', `/api/v1/logs/executions/${executionId}`)).status).toBe(200);
      } finally {
        await drop.release();
      }
      await runMaintenance({ db: t.app.db, logger, storage: t.app.files.storage, logRetentionDays: 30 }, now);
      expect((await t.request('GET', `/api/v1/logs/executions/${executionId}`)).status).toBe(404);
      expect(lines).toEqual([]);
    });
  });
});
