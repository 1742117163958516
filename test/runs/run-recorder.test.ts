// The run recorder's promise: every completed run gets a log. A run whose full log cannot be written (here: an output
// no JSON can hold) gets a minimal error log that says so, with its completion webhook; the runs it was batched
// with are stored in full.
import { Writable } from 'node:stream';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import type { PreparedStatementClient } from '../../src/db/pglite-prepared.mjs';
import { rowsOf } from '../../src/db/rows.js';
import { deliveryBodies } from '../../src/services/completion-webhooks/delivery-body.js';
import { deliveries, executions, files, jobs, webhookSubscriptions } from '../../src/db/schema.js';
import { newExecutionId, newId } from '../../src/ids.js';
import { createLogger } from '../../src/logger.js';
import { createRunRecorder } from '../../src/runs/run-recorder.js';
import { recordStatement, type ExecutionRecord } from '../../src/runs/record-statement.js';
import { completionDeliveries } from '../../src/services/completion-webhooks/outbox.js';
import { deleteWorkflow } from '../../src/services/workflows.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';
import { startReceiver, subscribe } from '../completion-webhooks/support.js';
import { readTrace, storeTrace } from '../../src/services/logs/stored-trace.js';
import { logRowColumns } from '../../src/services/logs/columns.js';
import { withPackedFinalOutput } from '../../src/services/logs/packed-trace.js';
import { runMaintenance } from '../../src/app/maintenance.js';
import { offloadValues } from '../../src/services/logs/offloaded-values.js';
import { ORPHAN_AGE_MS, reserveValueRows } from '../../src/services/logs/orphaned-values.js';
import { isExecution } from '../../src/db/execution-lookup.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

function completedRun(workflowId: string, finalOutput: Record<string, unknown>) {
  const startedAt = new Date();
  const marker: ExecutionRecord = {
    id: newId('log'),
    executionId: newExecutionId(),
    workspaceId: t.workspaceId,
    workflowId,
    deploymentVersion: 1,
    snapshotHash: `test-${workflowId}`,
    trigger: 'api',
    status: 'running',
    level: null,
    startedAt,
    endedAt: null,
    totalDurationMs: null,
    costTotal: 0,
    cost: null,
    models: [],
    finalOutput: null,
    traceSpans: null,
    files: null,
    error: null,
    blockErrorCount: 0,
    runnerId: null,
    parentExecutionId: null,
    requestId: null,
    pause: null,
    rerunOf: null,
    rerunFromBlock: null,
    queuedMs: null,
    flowControl: null,
  };
  const started = { marker, state: { blocks: {}, edges: [], loops: {}, parallels: {} } };
  const log: ExecutionRecord = {
    ...marker,
    status: 'success',
    level: 'info',
    endedAt: new Date(),
    totalDurationMs: 1,
    costTotal: 0.001,
    finalOutput,
    traceSpans: [],
  };
  return {
    started,
    log,
    ownerId: t.userId,
    deliveries: (stored: ExecutionRecord) => completionDeliveries(t.app, stored),
  };
}


/**
 * `db` as the recorder sees it when an answer is lost on the way: each batch statement `answer` says so of (given its
 * text and values) commits, then its caller hears an error, as when a connection drops between the commit and its
 * answer; one it says is `late` is answered a second after its commit.
 */
function losingAnswers(db: Db, answer: (statement: string) => 'lost' | 'late' | undefined): Db {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const isBatch = (text: string) => text.includes('insert into executions');
  const afterwards = async <T>(query: { sql: string; params: unknown[] }, run: () => Promise<T>): Promise<T> => {
    const rows = await run();
    const how = isBatch(query.sql) ? answer(query.sql + JSON.stringify(query.params)) : undefined;
    if (how === 'lost') throw new Error('Connection terminated unexpectedly');
    if (how === 'late') await new Promise((resolve) => setTimeout(resolve, 1_000));
    return rows;
  };
  // PGlite's client runs the batch as a prepared statement of its own (db/pglite-prepared.mjs).
  const client = (target: PreparedStatementClient): PreparedStatementClient =>
    new Proxy(target, {
      get(inner, prop) {
        const value = Reflect.get(inner, prop, inner) as unknown;
        if (prop !== 'queryPrepared') return typeof value === 'function' ? value.bind(inner) : value;
        return (name: string, text: string, params: unknown[]) => afterwards({ sql: text, params }, () => inner.queryPrepared(name, text, params));
      },
    });
  const session = new Proxy(db._.session, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'client' && typeof (value as Partial<PreparedStatementClient>)?.queryPrepared === 'function') return client(value as PreparedStatementClient);
      if (prop !== 'prepareQuery') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: Parameters<typeof target.prepareQuery>) => {
        const prepared = target.prepareQuery(...args);
        return { execute: () => afterwards(args[0], () => prepared.execute()) };
      };
    },
  });
  return new Proxy(db, {
    get(target, prop) {
      if (prop === '_') return { ...target._, session };
      if (prop === 'execute') return (statement: SQL) => afterwards(dialect.sqlToQuery(statement), () => target.execute(statement));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('run recorder', () => {
  it('stores a minimal error log (with its webhook) for a run whose full log cannot be written, and the rest of its batch in full', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
      await subscribe(t, workflowId, { url: receiver.url });
      const good = Array.from({ length: 5 }, (_, i) => completedRun(workflowId, { n: i }));
      // A BigInt has no JSON form: this log cannot be written as it is.
      const bad = completedRun(workflowId, { n: 10n as unknown as number });
      const stored = await Promise.all([...good, bad].map((run) => t.app.recorder.complete(run)));
      expect(stored).toEqual(['full', 'full', 'full', 'full', 'full', 'minimal']);

      // As the services read them: the trace unpacked, the final output from wherever the row keeps it.
      const rows = (await t.app.db.select(logRowColumns).from(executions).where(eq(executions.workflowId, workflowId))).map((row) => withPackedFinalOutput(row));
      expect(rows).toHaveLength(6);
      const minimal = rows.find((r) => r.id === bad.log.id)!;
      expect(minimal).toMatchObject({ status: 'error', level: 'error', finalOutput: {} });
      expect(readTrace(minimal.traceSpans, minimal.finalOutput).spans).toEqual([]);
      expect(minimal.error).toContain('could not be stored');
      expect(rows.filter((r) => r.status === 'success').map((r) => r.finalOutput).sort((a, b) => Number(a!.n) - Number(b!.n))).toEqual(
        good.map((_, i) => ({ n: i })),
      );
      // One delivery per run, the minimal one included, each saying what the log says.
      const outbox = await t.app.db.select().from(deliveries).where(eq(deliveries.workflowId, workflowId));
      expect(outbox).toHaveLength(6);
      const [badBody] = await deliveryBodies({ db: t.app.db, storage: t.app.files.storage }, [outbox.find((d) => d.executionId === bad.log.executionId)!]);
      const badEvent = JSON.parse(badBody!);
      expect(badEvent.data).toMatchObject({ status: 'error', level: 'error' });
    } finally {
      await receiver.close();
    }
  });

  it('writes runs that complete together in one statement (group commit)', async () => {
    const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const runs = Array.from({ length: 40 }, (_, i) => completedRun(workflowId, { n: i }));
    await completionDeliveries(t.app, runs[0].log); // the workflow's (empty) subscription list, cached
    // A recorder of its own, so the count is of its writes alone (the app's job runner polls the same database).
    const commits: number[] = [];
    const recorder = createRunRecorder({
      db: t.app.db,
      logger: createLogger('silent'),
      onCharged: () => undefined,
      onCommitted: (runsWritten) => commits.push(runsWritten),
    });
    const statementsBefore = t.app.database.statements();
    expect(new Set(await Promise.all(runs.map((run) => recorder.complete(run))))).toEqual(new Set(['full']));
    // The first completion is written at once; the 39 that arrived meanwhile share the next statement.
    expect(commits.length).toBeLessThanOrEqual(2);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(40);
    // Far fewer statements than runs, whatever else the app did meanwhile.
    expect(t.app.database.statements() - statementsBefore).toBeLessThan(10);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, workflowId))).toHaveLength(40);
    // The batch statement is prepared once per session (db/rows.ts rowsOfPrepared), not planned at every batch. PGlite
    // has one session, so its list holds it; on PostgreSQL each pooled connection has its own (test/db covers that).
    if (!TEST_DATABASE_URL) {
      const prepared = await rowsOf<{ statement: string }>(t.app.db, sql`select statement from pg_prepared_statements`);
      expect(prepared.some((p) => /^with [\s\S]*insert into executions/.test(p.statement))).toBe(true);
    }
  });

  it('leaves a log closed meanwhile (an orphan sweep) as it is, and sends no second webhook for it', async () => {
    const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    await subscribe(t, workflowId, { url: 'http://127.0.0.1:9/hook' });
    const run = completedRun(workflowId, { late: true });
    // Closed by someone else first, as the crash sweep closes a run it wrongly judged orphaned.
    await t.app.recorder.begin(run.started, { markNow: true });
    await t.app.db
      .update(executions)
      .set({ status: 'error', level: 'error', endedAt: new Date(), error: 'Interrupted' })
      .where(eq(executions.id, run.log.id));
    await t.app.db.insert(deliveries).values({
      id: 'dlv_sweep0000000000000000',
      eventId: 'evt_sweep0000000000000000',
      subscriptionId: (await t.app.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.workflowId, workflowId)))[0].id,
      workflowId,
      executionId: run.log.executionId,
      eventType: 'workflow.execution.completed',
      body: '{}',
      nextAttemptAt: new Date(),
    });
    expect(await t.app.recorder.complete(run)).toBe('full');
    const [row] = await t.app.db.select(executionRow).from(executions).where(eq(executions.id, run.log.id));
    expect(row).toMatchObject({ status: 'error', error: 'Interrupted' });
    expect(await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, run.log.executionId))).toHaveLength(1);
  });

  it('queues a follow-up job (an approval time-out) with its log, and none for a log closed meanwhile', async () => {
    const workflowId = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const followUp = (executionId: string) => [
      { executionId, id: `job_test_${executionId}`, kind: 'test.follow-up', payload: { executionId }, runAt: new Date(Date.now() + 60_000) },
    ];
    const written = completedRun(workflowId, {});
    const closed = completedRun(workflowId, {});
    await t.app.recorder.begin(closed.started, { markNow: true });
    await t.app.db.update(executions).set({ status: 'error', level: 'error', endedAt: new Date() }).where(eq(executions.id, closed.log.id));
    const results = await Promise.all(
      [written, closed].map((run) => t.app.recorder.complete({ ...run, followUps: followUp(run.log.executionId) })),
    );
    expect(results).toEqual(['full', 'full']);
    const queued = await t.app.db.select().from(jobs).where(eq(jobs.kind, 'test.follow-up'));
    expect(queued.map((job) => job.payload)).toEqual([{ executionId: written.log.executionId }]);
    await t.app.db.delete(jobs).where(eq(jobs.kind, 'test.follow-up'));
  });

  it('does not write a log for a workflow deleted while it ran, and does not fail the runs batched with it', async () => {
    const kept = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const doomed = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const runs = [completedRun(kept, { kept: true }), completedRun(doomed, { kept: false })];
    expect((await t.request('DELETE', `/api/v1/workflows/${doomed}`)).status).toBe(204);
    expect(await Promise.all(runs.map((run) => t.app.recorder.complete(run)))).toEqual(['full', 'full']);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, kept))).toHaveLength(1);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, doomed))).toHaveLength(0);
  });

  it('deletes the logs of a deleted workflow, and only those', async () => {
    const kept = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const doomed = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const runs = [completedRun(kept, { kept: true }), completedRun(doomed, { kept: false }), completedRun(doomed, { kept: false })];
    expect(await Promise.all(runs.map((run) => t.app.recorder.complete(run)))).toEqual(['full', 'full', 'full']);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, doomed))).toHaveLength(2);
    expect((await t.request('DELETE', `/api/v1/workflows/${doomed}`)).status).toBe(204);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, doomed))).toHaveLength(0);
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, kept))).toHaveLength(1);
    const listed = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${doomed}`);
    expect(listed.body).toMatchObject({ data: [] });
  });

  it('writes a log whose values housekeeping took meanwhile (its process stalled over an hour) without recording them again', async () => {
    const wf = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const run = completedRun(wf, { result: 'done' });
    const spans = [{ blockId: 'a', type: 'function', duration: 1, input: {}, output: { text: 'x'.repeat(2048) } }];
    const stored = await offloadValues({
      storage: t.app.files.storage,
      executionId: run.log.executionId,
      trace: storeTrace(spans, run.log.finalOutput),
      finalOutput: run.log.finalOutput,
      limit: 1024,
      reserve: reserveValueRows(t.app.db, t.workspaceId),
    });
    expect(stored.files).toHaveLength(1);
    const rowsOfValues = () => t.app.db.select({ executionId: files.executionId }).from(files).where(eq(files.id, stored.files[0].id));
    expect(await rowsOfValues()).toEqual([{ executionId: null }]);
    // An hour on, housekeeping takes the value as an orphan: bytes, then row.
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null }, Date.now() + ORPHAN_AGE_MS + 60_000);
    expect(await rowsOfValues()).toEqual([]);
    // The log is written then: it is kept, and no row points at the bytes housekeeping deleted.
    const log = { ...run.log, traceSpans: spans, stored };
    const batch = { snapshots: [{ hash: log.snapshotHash, state: run.started.state }], markers: [], completions: [log], usage: [], deliveries: [], idempotency: [], followUps: [] };
    await t.app.db.transaction(async (tx) => {
      await tx.execute(recordStatement(batch, { durable: true }));
    });
    expect(await t.app.db.select({ status: executions.status }).from(executions).where(isExecution(log.executionId))).toEqual([{ status: 'success' }]);
    expect(await rowsOfValues()).toEqual([]);
  });

  it('keeps the stored values of logs whose batch committed but whose answer was lost (one alone, two batched)', async () => {
    const wf = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const big = (n: number) => ({ text: `${n}`.repeat(2048) });
    const runs = [0, 1, 2, 3].map((n) => completedRun(wf, big(n)));
    const said: string[] = [];
    // The first statement writing the lone run, and the first writing two runs at once, lose their answers. The next
    // run's answer is late, so that the two after it, completing meanwhile, share a batch.
    const lostFor = new Set<string>();
    let lateSent!: () => void;
    const secondWritten = new Promise<void>((resolve) => (lateSent = resolve));
    const answer = (statement: string) => {
      const carried = runs.filter((run) => statement.includes(run.log.executionId));
      if (carried.length === 1 && carried[0] === runs[1]) {
        lateSent();
        return 'late';
      }
      const key = carried.length === 1 && carried[0] === runs[0] ? 'alone' : carried.length >= 2 ? 'batched' : '';
      if (!key || lostFor.has(key)) return undefined;
      lostFor.add(key);
      return 'lost';
    };
    const recorder = createRunRecorder({
      db: losingAnswers(t.app.db, answer),
      logger: createLogger('warn', new Writable({ write: (line: Buffer, _e, done) => done(void said.push(JSON.parse(line.toString()).msg)) })),
      onCharged: () => undefined,
      offload: { storage: t.app.files.storage, limit: 1024 },
    });
    const first = await recorder.complete(runs[0]);
    const second = recorder.complete(runs[1]);
    await secondWritten;
    const rest = await Promise.all([second, ...runs.slice(2).map((run) => recorder.complete(run))]);
    // The lone run's retry is its minimal log (not written: the full one is there); the two batched are retried one by one.
    expect(lostFor).toEqual(new Set(['alone', 'batched']));
    expect(said).toEqual(['could not store the full log of a run; storing a minimal one', 'batched run write failed; writing run by run']);
    expect([first, ...rest]).toEqual(['minimal', 'full', 'full', 'full']);
    // Housekeeping an hour on, when values nothing records would be deleted.
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null }, Date.now() + ORPHAN_AGE_MS + 60_000);
    for (const [n, run] of runs.entries()) {
      const detail = await logDetailOf(t, run.log.executionId);
      expect(detail.status, `run ${n}`).toBe('success');
      expect(detail.executionData.finalOutput, `run ${n}`).toEqual(big(n));
      const rows = await t.app.db.select({ executionId: files.executionId }).from(files).where(eq(files.executionId, run.log.executionId));
      expect(rows, `run ${n}`).toHaveLength(1);
    }
  });

  // Two sessions at once: PostgreSQL only (PGlite has one session, so a deletion cannot run inside a batch's write).
  it.runIf(TEST_DATABASE_URL)('a workflow deleted while a batch writes its log waits for that batch, then deletes the log too', async () => {
    const doomed = await createAndDeploy(t, makeState([{ id: 'start', type: 'api_trigger', name: 'API' }]));
    const run = completedRun(doomed, { late: true });
    const batch = { snapshots: [{ hash: run.log.snapshotHash, state: run.started.state }], markers: [], completions: [run.log], usage: [], deliveries: [], idempotency: [], followUps: [] };
    let deleting: Promise<void> | undefined;
    let deleted = false;
    await t.app.db.transaction(async (tx) => {
      await tx.execute(recordStatement(batch, { durable: true }));
      deleting = deleteWorkflow(t.app.db, doomed).then(() => {
        deleted = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The batch holds the workflow's row (`for key share`): the deletion cannot go ahead of its commit.
      expect(deleted).toBe(false);
    });
    await deleting;
    expect(await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, doomed))).toHaveLength(0);
  });
});
