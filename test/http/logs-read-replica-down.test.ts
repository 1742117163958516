// DATABASE_READ_URL unreachable: the logs API answers 503 READ_REPLICA_UNAVAILABLE, naming the read replica, within its
// time-outs — a replica that refuses connections, one that accepts them and never answers (a network partition), one
// that stops answering on a connection already open, and one that hangs at the setup of a new connection (its SET) —
// while the rest of the API, on the primary, goes on.
// The "replica" is the test database behind a TCP proxy (test/support/tcp-proxy.ts). PostgreSQL only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openReadReplica } from '../../src/db/client.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

describe.skipIf(!TEST_DATABASE_URL)('logs API with its read replica down', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let replica: ReturnType<typeof openReadReplica> | undefined;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(async () => {
    await replica?.close();
    replica = undefined;
    t.app.logsDb = t.app.db;
  });
  afterAll(async () => {
    await proxy?.cut();
    await t?.close();
  });

  /** A replica pool through a fresh proxy, with time-outs short enough for a test. */
  const replicaBehindProxy = async () => {
    const target = new URL(t.databaseUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const url = new URL(t.databaseUrl!);
    url.host = `127.0.0.1:${proxy.port}`;
    replica = openReadReplica(url.toString(), { connectTimeoutMs: 500, statementTimeoutMs: 500 });
    t.app.logsDb = replica.db;
  };

  const expectReplicaUnavailable = async (path: string) => {
    const started = Date.now();
    const res = await t.request('GET', path);
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('READ_REPLICA_UNAVAILABLE');
    expect(res.body.error).toMatch(/read replica \(DATABASE_READ_URL\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
    return res;
  };

  it('answers 503 when the replica refuses connections, and the rest of the API still works', async () => {
    await replicaBehindProxy();
    expect((await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`)).status).toBe(200);
    await proxy.cut();
    const res = await expectReplicaUnavailable(`/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(res.body.error).toMatch(/unavailable/);
    await expectReplicaUnavailable(`/api/v1/logs/log_does_not_matter`);
    expect((await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`)).status).toBe(200);
  });

  it('answers 503 in time when the replica accepts connections and never answers', async () => {
    await replicaBehindProxy();
    proxy.hang();
    const res = await expectReplicaUnavailable(`/api/v1/logs?workspaceId=${t.workspaceId}&order=asc`);
    expect(res.body.error).toMatch(/did not answer in time/);
    await proxy.cut();
  });

  it('answers 503 in time when the replica lets a connection in and hangs at its setup, and serves again after', async () => {
    await replicaBehindProxy();
    // The connection's startup passes; the pool's setup statement (jit, statement_timeout) never gets an answer.
    proxy.hangAt('statement_timeout');
    const res = await expectReplicaUnavailable(`/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(res.body.error).toMatch(/did not answer in time/);
    expect((await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`)).status).toBe(200);
    // The hung connection was not handed out: once the replica answers, a read gets a connection of its own.
    proxy.resume();
    const again = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(again.status, again.text).toBe(200);
    await proxy.cut();
  });

  it('answers 503 in time when an open connection to the replica stops answering', async () => {
    await replicaBehindProxy();
    // The pool now holds an idle connection; the next request is sent on it into the partition.
    expect((await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`)).status).toBe(200);
    proxy.hang();
    const res = await expectReplicaUnavailable(`/api/v1/logs?workspaceId=${t.workspaceId}`);
    expect(res.body.error).toMatch(/did not answer in time/);
    await proxy.cut();
  });
});
