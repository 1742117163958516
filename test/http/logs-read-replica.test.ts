// DATABASE_READ_URL: the logs API reads (list, detail) go to that connection. The "replica" here is the test
// database itself through a role that may only SELECT, in read-only transactions (what a hot standby allows): the
// logs answer through it, so their reads write nothing; and with SELECT on executions taken from that role the
// logs API fails while the rest of the API still works, so the reads do go through it. PostgreSQL only.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadReplica } from '../../src/db/client.js';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

describe.skipIf(!TEST_DATABASE_URL)('logs API on a read replica', () => {
  let t: TestApp;
  let replica: ReturnType<typeof openReadReplica>;
  const role = `sluice_reader_${randomBytes(4).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    await admin(`create role ${role} login; grant select on all tables in schema public to ${role}`);
    const url = new URL(t.databaseUrl!);
    url.username = role;
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    replica = openReadReplica(url.toString());
    // As createAppContext wires DATABASE_READ_URL (config.databaseReadUrl).
    t.app.logsDb = replica.db;
  });
  afterAll(async () => {
    await replica?.close();
    if (t) await admin(`drop owned by ${role}; drop role if exists ${role}`).catch(() => undefined);
    await t?.close();
  });

  it('is read from DATABASE_READ_URL', () => {
    const config = loadConfig({ SLUICE_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://a@h/db', DATABASE_READ_URL: 'postgres://r@h/db' });
    expect(config.databaseReadUrl).toBe('postgres://r@h/db');
  });

  it('lists and shows logs through the read-only connection, and fails without it', async () => {
    const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API', config: {} }]));
    const run = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
    expect(run.status, run.text).toBe(200);
    const { executionId } = run.body;

    const list = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((l: { executionId: string }) => l.executionId)).toContain(executionId);
    // The list shows a run from its running marker on; the detail only once its log is complete.
    const detail = await eventually(async () => {
      const res = await t.request('GET', `/api/v1/logs/executions/${executionId}`);
      return res.status === 200 ? res : undefined;
    }, 10_000, 'the execution detail through the replica');
    expect(detail.text).toContain(executionId);

    await admin(`revoke select on executions from ${role}`);
    const refused = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(refused.status).toBe(500);
    expect((await t.request('GET', `/api/v1/workflows/${workflowId}`)).status).toBe(200);
  });
});
