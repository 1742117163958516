// The database block against the real local PostgreSQL and MariaDB (issue 26): parameters sent apart from the SQL,
// rows of a table the test made, the row cap, and a syntax error, a constraint error and a time-out taking the
// block's error edge; SQL text with a reference refused at save; credentials of another workspace unusable; one
// statement per block; the pool capped per credential; the password nowhere in answers, logs or log lines.
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_POOL_MAX } from '../../src/connectors/sql.js';
import { startTestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { createCredential, deployBlock, execute, executeKeepingSecret, startConnectorApp, uniqueName, type ConnectorApp } from './support.js';

const PASSWORD = 'db-Secret-pw-71q';
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const MY = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' };

let app: ConnectorApp;
let otherWorkspace: string;
const table = uniqueName('sluice_orders');
const mysqlUser = uniqueName('sluice_u');
const pgRole = uniqueName('sluice_pool');
let admin: pg.Client;
let myAdmin: mysql.Connection;

/** One engine's SQL dialect and credential. */
interface Engine {
  name: 'postgres' | 'mysql';
  credentialId: string;
  placeholders: [string, string];
  sleep: string;
  series: string;
  exec(sql: string): Promise<unknown>;
}
const engines: Record<'postgres' | 'mysql', Engine> = {
  postgres: {
    name: 'postgres',
    credentialId: '',
    placeholders: ['$1', '$2'],
    sleep: 'select pg_sleep(5)',
    series: 'select g as n from generate_series(1, 1500) g',
    exec: (sql) => admin.query(sql),
  },
  mysql: {
    name: 'mysql',
    credentialId: '',
    placeholders: ['?', '?'],
    sleep: 'select sleep(5)',
    // MariaDB's sequence engine (a recursive CTE stops at max_recursive_iterations, 1,000 by default).
    series: 'select seq as n from seq_1_to_1500',
    exec: (sql) => myAdmin.query(sql),
  },
};

beforeAll(async () => {
  admin = new pg.Client(PG);
  await admin.connect();
  myAdmin = await mysql.createConnection(MY);
  await admin.query(`create table ${table} (id serial primary key, name text unique not null, qty int not null)`);
  await admin.query(`create role ${pgRole} login`);
  await admin.query(`grant all on table ${table} to ${pgRole}`);
  await myAdmin.query(`create table ${table} (id int auto_increment primary key, name varchar(200) unique not null, qty int not null)`);
  await myAdmin.query(`create user '${mysqlUser}'@'%' identified by '${PASSWORD}'`);
  await myAdmin.query(`grant all on test.* to '${mysqlUser}'@'%'`);

  app = await startConnectorApp();
  otherWorkspace = (await app.t.request('POST', '/api/v1/workspaces', { apiKey: app.t.personalKey, body: { name: 'Elsewhere' } })).body.data.id;
  // PostgreSQL here trusts loopback, so the password is not checked — but it is stored, and must never show.
  engines.postgres.credentialId = await createCredential(app.t, 'postgres', { ...PG, password: PASSWORD });
  engines.mysql.credentialId = await createCredential(app.t, 'mysql', { ...MY, user: mysqlUser, password: PASSWORD });
});

afterAll(async () => {
  await app?.t.close();
  await admin?.query(`drop table if exists ${table}`);
  await admin?.query(`drop role if exists ${pgRole}`).catch(() => {});
  await admin?.end();
  await myAdmin?.query(`drop table if exists ${table}`);
  await myAdmin?.query(`drop user if exists '${mysqlUser}'@'%'`);
  await myAdmin?.end();
});

const OUTPUTS = ['rows', 'rowCount', 'truncated'];

describe.each(['postgres', 'mysql'] as const)('database block on %s', (which) => {
  const engine = () => engines[which];
  const block = (config: Record<string, unknown>) => ({ type: 'database', config: { credentialId: engine().credentialId, ...config } });

  it('inserts with parameters from the trigger, stores hostile text as data, and reads the rows back', async () => {
    const [p1, p2] = engine().placeholders;
    const insert = await deployBlock(app.t, block({ query: `insert into ${table} (name, qty) values (${p1}, ${p2})`, params: ['<api.name>', '<api.qty>'] }), OUTPUTS, [
      { name: 'name', type: 'string' },
      { name: 'qty', type: 'number' },
    ]);
    const select = await deployBlock(app.t, block({ query: `select name, qty from ${table} where qty >= ${p1} order by qty`, params: ['<api.min>'] }), OUTPUTS, [
      { name: 'min', type: 'number' },
    ]);

    const hostile = `x'); drop table ${table}; --`;
    for (const [name, qty] of [['widget', 3], ['gadget', 7], [hostile, 9]] as const) {
      const run = await executeKeepingSecret(app, insert, { name, qty }, PASSWORD);
      expect(run.status, run.text).toBe(200);
      expect(run.body).toEqual({ rows: [], rowCount: 1, truncated: false });
    }

    const read = await executeKeepingSecret(app, select, { min: 5 }, PASSWORD);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ rows: [{ name: 'gadget', qty: 7 }, { name: hostile, qty: 9 }], rowCount: 2, truncated: false });
  });

  it('takes the error edge with the server’s message on a syntax error and on a constraint error', async () => {
    const syntax = await deployBlock(app.t, block({ query: 'selec 1' }), OUTPUTS);
    const failed = await executeKeepingSecret(app, syntax, {}, PASSWORD);
    expect(failed.status, failed.text).toBe(422);
    expect(failed.body.error).toMatch(/syntax/i);

    const [p1, p2] = engine().placeholders;
    const name = uniqueName('dup');
    const insert = await deployBlock(app.t, block({ query: `insert into ${table} (name, qty) values (${p1}, ${p2})`, params: [name, 1] }), OUTPUTS);
    expect((await execute(app.t, insert)).status).toBe(200);
    const duplicate = await execute(app.t, insert);
    expect(duplicate.status, duplicate.text).toBe(422);
    expect(duplicate.body.error).toMatch(/duplicate/i);
  });

  it('cancels a statement that runs past its time-out and takes the error edge', async () => {
    const slow = await deployBlock(app.t, block({ query: engine().sleep, timeoutMs: 300 }), OUTPUTS);
    const run = await execute(app.t, slow);
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toBe('The statement ran longer than its time-out of 300 ms and was cancelled');
    // The pool is still usable afterwards.
    const quick = await deployBlock(app.t, block({ query: 'select 1 as one' }), OUTPUTS);
    expect((await execute(app.t, quick)).body).toEqual({ rows: [{ one: 1 }], rowCount: 1, truncated: false });
  });

  it('keeps at most maxRows rows (1,000 by default), counts them all and says it truncated', async () => {
    const capped = await deployBlock(app.t, block({ query: engine().series }), OUTPUTS);
    const run = await execute(app.t, capped);
    expect(run.status, run.text).toBe(200);
    expect(run.body.rows).toHaveLength(1000);
    expect(run.body.rows[999]).toEqual({ n: 1000 });
    expect(run.body).toMatchObject({ rowCount: 1500, truncated: true });

    const five = await deployBlock(app.t, block({ query: engine().series, maxRows: 5 }), OUTPUTS);
    const small = await execute(app.t, five);
    expect(small.body).toEqual({ rows: [1, 2, 3, 4, 5].map((n) => ({ n })), rowCount: 1500, truncated: true });
  });

  it('runs one statement only: a second one after a semicolon is refused by the server', async () => {
    const two = await deployBlock(app.t, block({ query: `select 1; drop table ${table}` }), OUTPUTS);
    const run = await execute(app.t, two);
    expect(run.status, run.text).toBe(422);
    await engine().exec(`select count(*) from ${table}`);
  });

  it('answers the credential test with the server version', async () => {
    const tested = await app.t.request('POST', `/api/v1/credentials/${engine().credentialId}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.data.ok, tested.text).toBe(true);
    expect(tested.body.data.message).toMatch(which === 'postgres' ? /^PostgreSQL \d+/ : /MariaDB/);
    expect(tested.text).not.toContain(PASSWORD);
  });
});

describe('database block safety', () => {
  it('refuses, at save, SQL text holding a reference, pointing at params', async () => {
    const state = {
      blocks: {
        start: { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 0 }, config: { inputFormat: [{ name: 'name', type: 'string' }] } },
        db: {
          id: 'db',
          type: 'database',
          name: 'db',
          position: { x: 200, y: 0 },
          config: { credentialId: engines.postgres.credentialId, query: `select * from ${table} where name = '<api.name>'` },
        },
      },
      edges: [{ id: 'e1', source: 'start', target: 'db' }],
      loops: {},
      parallels: {},
    };
    const saved = await app.t.request('POST', '/api/v1/workflows', { body: { workspaceId: app.t.workspaceId, name: uniqueName('spliced'), state } });
    expect(saved.status, saved.text).toBe(400);
    const detail = saved.body.details.find((d: { path: string }) => d.path === 'state.blocks.db.config.query');
    expect(detail?.message, saved.text).toMatch(/must not hold references \(found <api\.name>\).*params/);
  });

  it('cannot use a credential of another workspace: the block fails with "not found"', async () => {
    const theirs = await createCredential(app.t, 'postgres', { ...PG, password: PASSWORD }, { workspaceId: otherWorkspace, apiKey: app.t.personalKey });
    const wf = await deployBlock(app.t, { type: 'database', config: { credentialId: theirs, query: 'select 1' } }, OUTPUTS);
    const run = await executeKeepingSecret(app, wf, {}, PASSWORD);
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toBe(`Credential "${theirs}" not found in this workspace`);
  });

  it('refuses a credential of another type', async () => {
    const redis = await createCredential(app.t, 'redis', { host: '127.0.0.1' });
    const wf = await deployBlock(app.t, { type: 'database', config: { credentialId: redis, query: 'select 1' } }, OUTPUTS);
    const run = await execute(app.t, wf);
    expect(run.body.error).toMatch(/is of type redis; this block needs postgres or mysql/);
  });

  it(`opens at most ${SQL_POOL_MAX} connections per credential, however many runs wait`, async () => {
    const credentialId = await createCredential(app.t, 'postgres', { ...PG, user: pgRole });
    const wf = await deployBlock(app.t, { type: 'database', config: { credentialId, query: 'select pg_sleep(0.4) is null as slept' } }, OUTPUTS);
    let most = 0;
    let running = true;
    const watch = (async () => {
      while (running) {
        const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where usename = $1', [pgRole]);
        most = Math.max(most, rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const runs = await Promise.all(Array.from({ length: 12 }, () => execute(app.t, wf)));
    running = false;
    await watch;
    expect(runs.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(SQL_POOL_MAX);
  });

  it('refuses a private database host unless the private network is allowed', async () => {
    const strict = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
    try {
      const credentialId = await createCredential(strict, 'postgres', { ...PG, password: PASSWORD });
      const wf = await deployBlock(strict, { type: 'database', config: { credentialId, query: 'select 1' } }, OUTPUTS);
      const run = await execute(strict, wf);
      expect(run.status, run.text).toBe(422);
      expect(run.body.error).toMatch(/^Refused to connect to 127\.0\.0\.1 .*SLUICE_ALLOW_PRIVATE_NETWORK/);
      const tested = await strict.request('POST', `/api/v1/credentials/${credentialId}/test`);
      expect(tested.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/^Refused to connect/) });
    } finally {
      await strict.close();
    }
  });

  it('says what the server answered when the password is wrong, without the password', async () => {
    const wrong = 'not-the-Right-one-4';
    const credentialId = await createCredential(app.t, 'mysql', { ...MY, user: mysqlUser, password: wrong });
    const tested = await app.t.request('POST', `/api/v1/credentials/${credentialId}/test`);
    expect(tested.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/Access denied/) });
    const wf = await deployBlock(app.t, { type: 'database', config: { credentialId, query: 'select 1' } }, OUTPUTS);
    const run = await executeKeepingSecret(app, wf, {}, wrong);
    expect(run.status).toBe(422);
    expect(run.body.error).toMatch(/Access denied/);
  });

  it('runs the README example (examples/database.workflow.json) with a postgres credential', async () => {
    const text = readFileSync(new URL('../../examples/database.workflow.json', import.meta.url), 'utf8');
    const document = JSON.parse(text.replaceAll('CREDENTIAL_ID', engines.postgres.credentialId));
    const imported = await app.t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: app.t.workspaceId, document, name: uniqueName('Squares') } });
    expect(imported.status, imported.text).toBe(201);
    expect((await app.t.request('POST', `/api/v1/workflows/${imported.body.data.id}/deploy`)).status).toBe(200);
    const run = await execute(app.t, imported.body.data.id, { n: 3 });
    expect(run.body).toEqual({ rows: [{ n: 1, square: 1 }, { n: 2, square: 4 }, { n: 3, square: 9 }], rowCount: 3, truncated: false });
  });

  it.each(['postgres', 'mysql'] as const)('stops the statement on the %s server when the caller goes away (the run is cancelled)', async (which) => {
    const credentialId =
      which === 'postgres' ? await createCredential(app.t, 'postgres', { ...PG, user: pgRole }) : engines.mysql.credentialId;
    const marker = uniqueName('slow');
    const query = which === 'postgres' ? `select pg_sleep(30) as ${marker}` : `select sleep(30) as ${marker}`;
    const wf = await deployBlock(app.t, { type: 'database', config: { credentialId, query, timeoutMs: 60_000 } }, OUTPUTS);
    const running = async () =>
      which === 'postgres'
        ? (await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like $1`, [`%as ${marker}`])).rows[0]!.n
        : Number(((await myAdmin.query(`select count(*) as n from information_schema.processlist where info like ?`, [`%as ${marker}`]))[0] as Array<{ n: number }>)[0]!.n);

    const caller = new AbortController();
    const call = fetch(`${app.t.url}/api/workflows/${wf}/execute`, {
      method: 'POST',
      headers: { 'x-api-key': app.t.apiKey, 'content-type': 'application/json' },
      body: '{}',
      signal: caller.signal,
    }).catch(() => undefined);
    await eventually(async () => (await running()) === 1, 15_000, 'the statement to start');
    caller.abort();
    await call;
    // Well before the statement's 30 s: the server was told to stop it.
    await eventually(async () => (await running()) === 0, 10_000, 'the statement to stop on the server');
  });
});
