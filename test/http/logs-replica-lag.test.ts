// Ascending polling (docs/guarantees.md 2) through DATABASE_READ_URL on a real streaming standby that lags: a slow
// run's running row still unreplayed must hold back a fast run that started after it and was replayed already, so a
// poller following the cursors sees both, in start order, once each — and nothing is held back once the standby has
// caught up with an idle primary. And a log's detail, read there, still follows the primary for who may see it and
// for its re-runs. Needs the PostgreSQL 15 server binaries (test/support/standby.ts); PostgreSQL pass only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openReadReplica, type Database } from '../../src/db/client.js';
import type { FileStorage } from '../../src/services/files/storage.js';
import type { Principal } from '../../src/services/api-keys.js';
import { getExecutionDetail, getLogDetail, listLogs, logsQuerySchema } from '../../src/services/logs/index.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { canStartStandby, startStandbyPair, type StandbyPair } from '../support/standby.js';

const config = { executionTimeoutMs: 60_000 };
// Nothing here asks for offloaded values, so the storage is never read.
const storage = {} as FileStorage;

// In the PostgreSQL pass only, as the other PostgreSQL-only files (the pair is its own servers, not TEST_DATABASE_URL's).
describe.skipIf(!TEST_DATABASE_URL || !canStartStandby)('logs API on a lagging streaming standby', () => {
  let pair: StandbyPair;
  let primary: Database;
  let replica: ReturnType<typeof openReadReplica>;

  beforeAll(async () => {
    pair = await startStandbyPair();
    primary = await openDatabase({ kind: 'postgres', url: pair.primaryUrl, poolSize: 2 });
    replica = openReadReplica(pair.standbyUrl);
    await primary.db.execute(sql`insert into users (id, email, plan) values ('usr_lag', 'lag@example.com', 'free')`);
    await primary.db.execute(sql`insert into workspaces (id, name, owner_id) values ('ws_lag', 'Lag', 'usr_lag')`);
    await primary.db.execute(sql`insert into state_snapshots (hash, state) values ('snap_lag', '{}')`);
    await primary.db.execute(
      sql`insert into workflows (id, workspace_id, name, description, state, state_hash) values ('wf_lag', 'ws_lag', 'Lag', '', '{}', 'h')`,
    );
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await primary?.close();
    await pair?.stop();
  }, 30_000);

  const insertLog = (id: string, startedAt: Date, status: 'running' | 'success') =>
    primary.db.execute(sql`
      insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level, started_at,
        ended_at, total_duration_ms, final_output, trace_spans)
      values (${id}, ${`exec_${id}`}, 'ws_lag', 'wf_lag', 'snap_lag', 'api', ${status}, ${status === 'success' ? 'info' : null},
        ${startedAt.toISOString()}, ${status === 'success' ? new Date().toISOString() : null}, ${status === 'success' ? 50 : null},
        '{}'::jsonb, '[]'::jsonb)`);

  /** One poll as a client makes it: asc from `since`, resuming from `cursor` when it has one. */
  const poll = async (since: Date, cursor?: string) => {
    const q = logsQuerySchema.parse({ workspaceId: 'ws_lag', order: 'asc', startDate: since.toISOString(), ...(cursor ? { cursor } : {}) });
    const page = await listLogs(replica.db, config, q, storage, primary.db);
    return { ids: page.data.map((log) => log.id), cursor: page.nextCursor ?? cursor };
  };

  it('never passes a slow run whose running row the standby has not replayed yet', async () => {
    const since = new Date(Date.now() - 1_000);
    // S starts; A starts 100 ms later, is quick, and its log is committed and replayed before S's running row
    // (written 200 ms after S started) is: replay is paused in between.
    const sStart = new Date();
    await insertLog('lag_a', new Date(sStart.getTime() + 100), 'success');
    await pair.caughtUp();
    await pair.onStandby('select pg_wal_replay_pause()');
    await new Promise((resolve) => setTimeout(resolve, 200 - (Date.now() - sStart.getTime())));
    await insertLog('lag_s', sStart, 'running');

    // Well past the settle time on every clock: only the standby's lag can hold A back now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const seen: string[] = [];
    let cursor: string | undefined;
    const first = await poll(since);
    seen.push(...first.ids);
    cursor = first.cursor;
    // Through the primary the same poll is empty (S is running there); through the standby it must not be ahead of it.
    expect(first.ids).toEqual([]);

    // S completes; the standby replays everything and the primary goes idle: both logs show, in start order, each
    // once, within a few polls — the horizon of an idle primary does not wait for a next commit.
    await primary.db.execute(sql`update executions set status = 'success', level = 'info', ended_at = now(), total_duration_ms = 400 where id = 'lag_s'`);
    await pair.onStandby('select pg_wal_replay_resume()');
    await pair.caughtUp();
    const deadline = Date.now() + 5_000;
    while (seen.length < 2 && Date.now() < deadline) {
      const next = await poll(since, cursor);
      seen.push(...next.ids);
      cursor = next.cursor;
      if (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen).toEqual(['lag_s', 'lag_a']);

    // A quick run on a primary that then stays idle: its own commit is the last the standby replays, and it started
    // after that commit's time minus the settle time — it still shows, once the settle time has passed.
    await insertLog('lag_b', new Date(), 'success');
    const idleDeadline = Date.now() + 5_000;
    while (seen.length < 3 && Date.now() < idleDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await poll(since, cursor);
      seen.push(...next.ids);
      cursor = next.cursor;
    }
    expect(seen).toEqual(['lag_s', 'lag_a', 'lag_b']);
  }, 30_000);

  it("takes a log detail's access and re-runs from the primary, not from the lagging standby", async () => {
    await primary.db.execute(sql`insert into users (id, email, plan) values ('usr_gone', 'gone@example.com', 'free')`);
    await primary.db.execute(sql`insert into workspace_members (workspace_id, user_id, role) values ('ws_lag', 'usr_gone', 'viewer')`);
    await insertLog('lag_d', new Date(Date.now() - 5_000), 'success');
    await pair.caughtUp();
    const gone: Principal = { userId: 'usr_gone', email: 'gone@example.com', plan: 'free', keyId: 'key_gone', keyWorkspaceId: null };
    expect((await getLogDetail(replica.db, gone, 'lag_d', storage, primary.db)).value.id).toBe('lag_d');

    await pair.onStandby('select pg_wal_replay_pause()');
    try {
      // Removed from the workspace, and a re-run asked for: the standby has seen neither.
      await primary.db.execute(sql`delete from workspace_members where user_id = 'usr_gone'`);
      await insertLog('lag_rerun', new Date(), 'running');
      await primary.db.execute(sql`update executions set rerun_of = 'exec_lag_d' where id = 'lag_rerun'`);
      await expect(getLogDetail(replica.db, gone, 'lag_d', storage, primary.db)).rejects.toMatchObject({ httpStatus: 404 });
      await expect(getExecutionDetail(replica.db, gone, 'exec_lag_d', primary.db)).rejects.toMatchObject({ httpStatus: 404 });
      const owner: Principal = { userId: 'usr_lag', email: 'lag@example.com', plan: 'free', keyId: 'key_lag', keyWorkspaceId: null };
      await primary.db.execute(sql`insert into workspace_members (workspace_id, user_id, role) values ('ws_lag', 'usr_lag', 'owner') on conflict do nothing`);
      const detail = await getLogDetail(replica.db, owner, 'lag_d', storage, primary.db);
      expect(detail.value.reruns.map((r) => r.executionId)).toEqual(['exec_lag_rerun']);
    } finally {
      await pair.onStandby('select pg_wal_replay_resume()');
    }
  }, 30_000);
});
