// Large values out of the log row (issue 28, docs/operations.md "Large values"): a value of a log larger than
// SLUICE_INLINE_VALUE_LIMIT (64 KB by default) goes to file storage under its execution, and every answer — the log
// detail, the logs list, a completion webhook with the trace and final output, a re-run from a block or whole — is the one an inline log gives. A webhook body is built from the log when it is sent
// (its delivery row stores no copy of the values), so it too fetches them back from file storage; the answers are
// compared with one another and with the values the run made.
// Retention deletes the values with their log. The same on the local disk and on S3 (s3rver); on PostgreSQL
// (TEST_DATABASE_URL) also when retention drops a whole month.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { and, eq, like, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { createAppWorker } from '../../src/app/worker.js';
import { createExecutionJobHandler, EXECUTION_JOB } from '../../src/runs/async-executions.js';
import { loadConfig } from '../../src/config.js';
import { createLocalStorage } from '../../src/services/files/local-storage.js';
import { MAX_NUMBER_TEXT, OFFLOAD_WRITE_DEADLINE_MS, offloadValues, restoreValues } from '../../src/services/logs/offloaded-values.js';
import { packTrace, withPackedFinalOutput } from '../../src/services/logs/packed-trace.js';
import { readTrace, storeTrace } from '../../src/services/logs/stored-trace.js';
import { ensureExecutionPartitions, monthPartition } from '../../src/db/executions-partitions.js';
import { rowsOf } from '../../src/db/rows.js';
import { logExecutionId, deliveries, executions, files } from '../../src/db/schema.js';
import { createDeliveries } from '../../src/services/completion-webhooks/create-deliveries.js';
import { deliveryBodies } from '../../src/services/completion-webhooks/delivery-body.js';
import { createLogger } from '../../src/logger.js';
import { closeInterruptedRuns, INTERRUPTED_BY_CRASH } from '../../src/runs/interrupted.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';
import { subscribe } from '../completion-webhooks/support.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { storedTrace } from '../../src/services/logs/columns.js';
import { ORPHAN_AGE_MS, reserveValueRows } from '../../src/services/logs/orphaned-values.js';
import { newExecutionId } from '../../src/ids.js';
import { isExecution } from '../../src/db/execution-lookup.js';

const DAY_MS = 24 * 3_600_000;
/** A housekeeping pass's time once the values stored now are old enough to be taken when no log records them. */
/** For the stored form alone, with no database: the value rows are not recorded anywhere. */
const noDatabase = async () => undefined;
const pastOrphanAge = () => Date.now() + ORPHAN_AGE_MS + 60_000;
const LIMIT = 64 * 1024;
/** 200 KB of text, made inside the run (the block's config stays small). */
const BIG_CODE = "return { text: '0123456789abcdef'.repeat(12800) };";
const BIG_TEXT = '0123456789abcdef'.repeat(12800);

/** start → big (outputs 200 KB) → next (uses it; a small output). */
const chainState = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
    { id: 'big', type: 'function', name: 'Big', config: { code: BIG_CODE } },
    { id: 'next', type: 'function', name: 'Next', config: { code: 'return { length: <big.result.text>.length, head: <big.result.text>.slice(0, 16), q: <api.q> };' } },
  ],
  [
    ['start', 'big'],
    ['big', 'next'],
  ],
);

/** start → big → echo, whose output holds the 200 KB again: the final output is large too. */
const echoState = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API' },
    { id: 'big', type: 'function', name: 'Big', config: { code: BIG_CODE } },
    { id: 'echo', type: 'function', name: 'Echo', config: { code: 'return { again: <big.result.text>, length: <big.result.text>.length };' } },
  ],
  [
    ['start', 'big'],
    ['big', 'echo'],
  ],
);

/** start (a large input) → count. */
const inputState = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'doc', type: 'string' }] } },
    { id: 'count', type: 'function', name: 'Count', config: { code: 'return { length: <api.doc>.length };' } },
  ],
  [['start', 'count']],
);

/** start (a large input) → again, which answers it back: the final output holds the input. */
const repeatState = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'doc', type: 'string' }] } },
    { id: 'again', type: 'function', name: 'Again', config: { code: 'return { doc: <api.doc> };' } },
  ],
  [['start', 'again']],
);

/** start → sized, whose output (the final output) is `{"result":{"text":"yyy…"},"stdout":""}`, `n` + 34 bytes of JSON. */
const sizedState = (n: number) =>
  makeState([
    { id: 'start', type: 'api_trigger', name: 'API' },
    { id: 'sized', type: 'function', name: 'Sized', config: { code: `return { text: 'y'.repeat(${n}) };` } },
  ], [['start', 'sized']]);

/** start → big → post: sends the text with a mark to an upstream that answers small, so the large value is the input of `post` alone. */
const postState = (url: string) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'big', type: 'function', name: 'Big', config: { code: BIG_CODE } },
      { id: 'post', type: 'api', name: 'Post', config: { url, method: 'POST', body: { text: '<big.result.text>!' } } },
    ],
    [
      ['start', 'big'],
      ['big', 'post'],
    ],
  );

interface Backend {
  name: string;
  env(): Record<string, string>;
  /** The keys of values stored for an execution, as the storage holds them. */
  stored(t: TestApp, executionId: string): Promise<string[]>;
  /** Deletes the stored values of an execution behind the app's back. */
  remove(t: TestApp, executionId: string): Promise<void>;
  /** Cuts every stored value of an execution to half its bytes behind the app's back. */
  truncate(t: TestApp, executionId: string): Promise<void>;
  /** Makes the storage refuse to store values; undone by the function returned. */
  breakStorage(t: TestApp): Promise<() => Promise<void>>;
}

const localDisk: Backend = {
  name: 'local disk',
  env: () => ({}),
  async stored(t, executionId) {
    const dir = join(t.config.dataDir, 'files', 'executions', executionId, 'values');
    return existsSync(dir) ? readdirSync(dir) : [];
  },
  async remove(t, executionId) {
    rmSync(join(t.config.dataDir, 'files', 'executions', executionId), { recursive: true, force: true });
  },
  async truncate(t, executionId) {
    const dir = join(t.config.dataDir, 'files', 'executions', executionId, 'values');
    for (const name of readdirSync(dir)) truncateSync(join(dir, name), Math.floor(statSync(join(dir, name)).size / 2));
  },
  async breakStorage(t) {
    // A file where the values' directory would go: every write under it fails.
    const root = join(t.config.dataDir, 'files');
    mkdirSync(root, { recursive: true });
    rmSync(join(root, 'executions'), { recursive: true, force: true });
    writeFileSync(join(root, 'executions'), 'in the way');
    return async () => rmSync(join(root, 'executions'), { force: true });
  },
};

let s3: TestS3Server | undefined;
const S3_PREFIX = 'sluice/data';
const onS3: Backend = {
  name: 'S3',
  env: () => s3!.env(S3_PREFIX),
  async stored(_t, executionId) {
    return (await s3!.keys()).filter((key) => key.startsWith(`${S3_PREFIX}/executions/${executionId}/`));
  },
  async remove(_t, executionId) {
    for (const key of await onS3.stored(_t, executionId)) await s3!.remove(key);
  },
  async truncate(_t, executionId) {
    for (const key of await onS3.stored(_t, executionId)) {
      const bytes = await s3!.read(key);
      await s3!.write(key, bytes.subarray(0, bytes.length / 2));
    }
  },
  async breakStorage(t) {
    // Pointed at a bucket that does not exist: S3 refuses every write.
    const { createS3Storage } = await import('../../src/services/files/s3-storage.js');
    const broken = createS3Storage({ bucket: 'no-such-bucket', prefix: '', endpoint: s3!.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, checksumCalculation: 'WHEN_REQUIRED' });
    const storage = t.app.files.storage;
    const put = storage.put;
    storage.put = (key, data, size) => broken.put(key, data, size);
    return async () => {
      storage.put = put;
      broken.close?.();
    };
  },
};

describe('SLUICE_INLINE_VALUE_LIMIT', () => {
  it('defaults to 64 KB, takes a number of bytes, and stops start-up with the variable named when it is not one', () => {
    expect(loadConfig({}).inlineValueLimitBytes).toBe(LIMIT);
    expect(loadConfig({ SLUICE_INLINE_VALUE_LIMIT: '16384' }).inlineValueLimitBytes).toBe(16384);
    for (const bad of ['64KB', '100', '-1', '1.5']) {
      expect(() => loadConfig({ SLUICE_INLINE_VALUE_LIMIT: bad }), bad).toThrow(/SLUICE_INLINE_VALUE_LIMIT/);
    }
  });
});

describe('the stored form', () => {
  it('reads a user value shaped like a marker as the value it is, beside values really offloaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-offload-'));
    try {
      const storage = createLocalStorage(dir);
      const lookalike = { $offloaded: 'executions/x/values/y.json', bytes: 6 };
      await storage.put(lookalike.$offloaded, Buffer.from('"oops"'), 6); // what it would be read as, if taken for a marker
      const spans = [
        // A span's input and output are where the row may hold a marker: a user's value of that shape there must not pass for one.
        { blockId: 'a', type: 'function', duration: 1, input: { ...lookalike }, output: { ...lookalike } },
        { blockId: 'b', type: 'function', duration: 1, input: {}, output: { result: BIG_TEXT } },
      ];
      const finalOutput = { result: { big: `${BIG_TEXT}?` } };
      const stored = await offloadValues({ storage, executionId: 'exec_1', trace: storeTrace(spans, finalOutput), finalOutput, limit: LIMIT, reserve: noDatabase });
      expect(stored.files).toHaveLength(2);
      const row = JSON.parse(JSON.stringify({ traceSpans: stored.trace, finalOutput: stored.finalOutput }));
      const back = await restoreValues(storage, row);
      expect(back.finalOutput).toEqual(finalOutput);
      expect(readTrace(back.traceSpans, back.finalOutput).spans).toEqual(spans);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('keeps every value in the row when none is over the limit, however large they are together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-offload-'));
    try {
      const storage = createLocalStorage(dir);
      const span = (blockId: string, output: unknown) => ({ blockId, type: 'function', duration: 1, input: { n: blockId }, output });
      const half = 'x'.repeat(LIMIT / 2);
      for (const spans of [[span('a', { a: 'small' })], [span('a', { a: half }), span('b', { b: `${half}!` })]]) {
        const finalOutput = { result: 'done' };
        const stored = await offloadValues({ storage, executionId: 'exec_2', trace: storeTrace(spans, finalOutput), finalOutput, limit: LIMIT, reserve: noDatabase });
        expect(stored.files).toEqual([]);
        expect(readdirSync(dir)).toEqual([]);
        // The column the row gets, made on the way or when the row is written: the trace as the run made it.
        const column = JSON.parse(JSON.stringify(stored.packed ?? packTrace(stored.trace)));
        expect(readTrace(column, stored.finalOutput).spans).toEqual(spans);
        expect(stored.finalOutput).toEqual(finalOutput);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('writes no byte when the reservation of the rows fails or misses the deadline, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-offload-'));
    try {
      const storage = createLocalStorage(dir);
      const spans = [{ blockId: 'a', type: 'function', duration: 1, input: {}, output: { text: BIG_TEXT } }];
      const finalOutput = { result: 'done' };
      const offload = (reserve: () => Promise<void>) =>
        offloadValues({ storage, executionId: 'exec_4', trace: storeTrace(spans, finalOutput), finalOutput, limit: LIMIT, deadlineMs: 200, reserve });
      await expect(offload(() => Promise.reject(new Error('database unreachable')))).rejects.toThrow('database unreachable');
      let recorded: () => void = () => undefined;
      const started = Date.now();
      await expect(offload(() => new Promise<void>((resolve) => (recorded = resolve)))).rejects.toThrow('the database did not record the values within 200 ms');
      expect(Date.now() - started).toBeLessThan(2_000);
      recorded(); // recorded after all: an orphan row housekeeping deletes, with no bytes behind it
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('bounds the JSON text of every number, the longest included', () => {
    // 17 significant digits (the most JavaScript writes) at every exponent, of both signs: the longest is written
    // without an exponent, just above 1e-6.
    let longest = '';
    for (let exponent = -330; exponent <= 310; exponent++) {
      for (const digits of ['1.2345678901234567', '9.999999999999999', '1.0000000000000002']) {
        const text = JSON.stringify(-Number(`${digits}e${exponent}`));
        if (text.length > longest.length) longest = text;
      }
    }
    expect(longest).toBe('-0.0000012345678901234567');
    expect(longest.length).toBe(MAX_NUMBER_TEXT);
  });
  it('moves an array of the longest numbers out of the row when its JSON is one byte more than the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-offload-'));
    try {
      const storage = createLocalStorage(dir);
      const limit = 1024;
      const numbers = (n: number) => Array.from({ length: n }, () => -0.0000012345678901234567);
      const sizes = [];
      for (const output of [numbers(39), numbers(40)]) {
        const spans = [{ blockId: 'a', type: 'function', duration: 1, input: {}, output }];
        const finalOutput = { result: 'done' };
        const stored = await offloadValues({ storage, executionId: 'exec_3', trace: storeTrace(spans, finalOutput), finalOutput, limit, reserve: noDatabase });
        sizes.push({ json: Buffer.byteLength(JSON.stringify(output)), files: stored.files.map((f) => f.bytes) });
      }
      // 39 numbers (1,015 bytes) stay; 40 (1,041 bytes) go, which a bound of 24 characters a number kept in the row.
      expect(sizes).toEqual([
        { json: 1015, files: [] },
        { json: 1041, files: [1041] },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each([localDisk, onS3])('large values out of the log row ($name)', (backend) => {
  let t: TestApp;
  let upstream: FakeUpstream;
  const receiver = 'http://127.0.0.1:9/hook'; // no worker runs here: deliveries stay in the table to be read
  /** The app's warnings, as an operator reads them. */
  const warnings: Array<{ msg: string; key?: string }> = [];

  beforeAll(async () => {
    if (backend === onS3) s3 = await startS3Server();
    const logTo = new Writable({ write: (line: Buffer, _e, done) => done(void warnings.push(JSON.parse(line.toString()))) });
    t = await startTestApp({ ...backend.env(), SLUICE_LOG_RETENTION_DAYS: '30', LOG_LEVEL: 'warn' }, { logTo });
    upstream = await startUpstream((_req, res) => res.end('{"ok":true}'));
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    if (backend === onS3) await s3?.close();
  });

  async function deploy(state: unknown): Promise<string> {
    const id = await createAndDeploy(t, state);
    await subscribe(t, id, { url: receiver, includeFinalOutput: true, includeTraceSpans: true, levelFilter: ['info', 'error'] });
    return id;
  }
  async function execute(workflowId: string, body: unknown = {}) {
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    return res.body as { executionId: string; output: any };
  }
  /**
   * Sizes of what the row holds: its trace column as PostgreSQL writes it out (compressed, with the final output),
   * and the JSON of the final output it keeps (the value, or the marker standing for it) once unpacked.
   */
  async function rowSize(executionId: string) {
    const [row] = await rowsOf<{ trace: unknown; traceText: number; final: unknown }>(
      t.app.db,
      sql`select ${storedTrace} as trace, length((${storedTrace})::text)::int as "traceText", final_output as final from executions where ${isExecution(executionId)}`,
    );
    // A new log keeps its final output in the packed trace, none in the column.
    expect(row.final).toBeNull();
    const { finalOutput } = withPackedFinalOutput({ traceSpans: row.trace, finalOutput: row.final });
    return { trace: row.traceText, final: Buffer.byteLength(JSON.stringify(finalOutput)) };
  }
  /** The log detail, the logs list (with both, and with the final output alone) and the webhook body of a run. */
  async function answersOf(executionId: string) {
    const detail = await logDetailOf(t, executionId);
    const list = (q: string) => t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&${q}`);
    const both = await list('includeTraceSpans=true&includeFinalOutput=true');
    const finalOnly = await list('includeFinalOutput=true');
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, executionId));
    expect(delivery, 'a webhook delivery').toBeDefined();
    // The delivery stores none of the values: its body is built from the log, as the worker builds it to send it.
    expect(delivery.body).toBeNull();
    expect(delivery.envelope!.length).toBeLessThan(512);
    const [body] = await deliveryBodies({ db: t.app.db, storage: t.app.files.storage }, [delivery]);
    const webhook = JSON.parse(body!).data;
    expect(detail.executionData.traceSpans).toEqual(webhook.traceSpans);
    expect(detail.executionData.finalOutput).toEqual(webhook.finalOutput);
    expect(both.body.data[0].executionData).toEqual({ traceSpans: webhook.traceSpans, finalOutput: webhook.finalOutput });
    expect(finalOnly.body.data[0].executionData).toEqual({ finalOutput: webhook.finalOutput });
    return { detail, webhook };
  }
  async function logIdOf(executionId: string): Promise<string> {
    const [row] = await t.app.db.select({ id: executions.id }).from(executions).where(isExecution(executionId));
    return row.id;
  }
  const spanOf = (spans: Array<Record<string, any>>, blockId: string) => spans.find((s) => s.blockId === blockId)!;

  it('keeps a 200 KB block output out of the row; the detail, the list and the webhook carry it whole; a re-run from the next block uses it', async () => {
    const wf = await deploy(chainState);
    const run = await execute(wf, { q: 'small' });
    expect(run.output.result).toEqual({ length: BIG_TEXT.length, head: '0123456789abcdef', q: 'small' });

    // The row holds a marker in place of the output of `big` (the input of `next` refers to it).
    const size = await rowSize(run.executionId);
    expect(size.trace).toBeLessThan(4096);
    expect(size.final).toBeLessThan(1024);
    const keys = await backend.stored(t, run.executionId);
    expect(keys).toHaveLength(1);

    const { detail } = await answersOf(run.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'big').output.result).toEqual({ text: BIG_TEXT });

    // Re-run from the next block: `big` is not run again, its output comes from the log (so from storage).
    const rerun = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, { body: { fromBlock: 'next' } });
    expect(rerun.status, rerun.text.slice(0, 500)).toBe(200);
    expect(rerun.body).toMatchObject({ success: true, rerunOf: run.executionId, output: run.output });
  });

  it('keeps a large final output out of the row, and answers with it', async () => {
    const wf = await deploy(echoState);
    const run = await execute(wf);
    expect(run.output.result.again).toBe(BIG_TEXT);
    const size = await rowSize(run.executionId);
    expect(size.trace).toBeLessThan(4096);
    expect(size.final).toBeLessThan(1024);
    const { detail } = await answersOf(run.executionId);
    expect(detail.executionData.finalOutput).toEqual(run.output);

    // A value deleted from storage behind Sluice's back: the log still opens, its marker in the value's place.
    await backend.remove(t, run.executionId);
    const damaged = await t.request('GET', `/api/v1/logs/${detail.id}`);
    expect(damaged.status).toBe(200);
    expect(damaged.body.data.executionData.finalOutput).toEqual({ $offloaded: expect.stringContaining(`executions/${run.executionId}/values/`), bytes: expect.any(Number) });
  });

  it('answers a large final output of a log written before it was packed with the trace (its marker in the column)', async () => {
    const run = await execute(await deploy(echoState));
    // The row as the release before wrote it: the final output's marker in its column, the trace packed without it.
    const [row] = await rowsOf<{ trace: unknown }>(t.app.db, sql`select ${storedTrace} as trace from executions where ${isExecution(run.executionId)}`);
    const { traceSpans, finalOutput } = withPackedFinalOutput({ traceSpans: row.trace, finalOutput: null });
    expect(finalOutput).toEqual({ $offloaded: expect.stringContaining(`executions/${run.executionId}/values/`), bytes: expect.any(Number) });
    const { z, offloaded } = packTrace(traceSpans as { spans: unknown[]; offloaded?: unknown });
    expect(offloaded).toEqual({ final: true });
    await t.app.db.execute(sql`update executions set final_output = ${JSON.stringify(finalOutput)}::jsonb,
      trace_packed = decode(${z}, 'base64'), trace_spans = ${JSON.stringify({ offloaded })}::jsonb
      where ${isExecution(run.executionId)}`);
    const [older] = await rowsOf<{ final: unknown }>(t.app.db, sql`select final_output as final from executions where ${isExecution(run.executionId)}`);
    expect(older.final).toEqual(finalOutput);

    // Every answer, the list's with the final output alone included, fetches it back from storage.
    const { detail } = await answersOf(run.executionId);
    expect(detail.executionData.finalOutput).toEqual(run.output);
  });

  it('answers a value damaged in storage as its marker: the detail and a list page still open, other logs whole', async () => {
    const wf = await deploy(echoState);
    const damaged = await execute(wf);
    const whole = await execute(wf);
    await backend.truncate(t, damaged.executionId);
    const marker = { $offloaded: expect.stringContaining(`executions/${damaged.executionId}/values/`), bytes: expect.any(Number) };

    const detail = await t.request('GET', `/api/v1/logs/${await logIdOf(damaged.executionId)}`);
    expect(detail.status, detail.text.slice(0, 300)).toBe(200);
    expect(detail.body.data.executionData.finalOutput).toEqual(marker);
    for (const q of ['includeFinalOutput=true', 'includeTraceSpans=true&includeFinalOutput=true']) {
      const page = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${wf}&${q}`);
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      const byId = new Map(page.body.data.map((log: any) => [log.executionId, log.executionData.finalOutput]));
      expect(byId.get(damaged.executionId)).toEqual(marker);
      expect(byId.get(whole.executionId)).toEqual(whole.output);
    }
  });

  it.runIf(backend === localDisk)('answers 503 FILE_STORAGE_UNAVAILABLE when a stored value cannot be read from the disk', async () => {
    const run = await execute(await deploy(echoState));
    // A directory in the file's place: it opens, but reading it fails (EISDIR).
    const dir = join(t.config.dataDir, 'files', 'executions', run.executionId, 'values');
    for (const name of readdirSync(dir)) {
      rmSync(join(dir, name));
      mkdirSync(join(dir, name));
    }
    for (const path of [`/api/v1/logs/${await logIdOf(run.executionId)}`, `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${run.executionId}&includeFinalOutput=true`]) {
      const res = await t.request('GET', path);
      expect(res.status, res.text.slice(0, 300)).toBe(503);
      expect(res.body).toMatchObject({ code: 'FILE_STORAGE_UNAVAILABLE', error: 'File storage is unavailable; try again later' });
    }
  });

  it('answers an offloaded value with its keys in the order an inline one has (jsonb: shorter keys first)', async () => {
    const keysState = (n: number) =>
      makeState([
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'keys', type: 'function', name: 'Keys', config: { code: `return { zz: 'y'.repeat(${n}), a: 1 };` } },
      ], [['start', 'keys']]);
    const inline = await execute(await deploy(keysState(10)));
    const offloaded = await execute(await deploy(keysState(LIMIT)));
    expect(await backend.stored(t, inline.executionId)).toEqual([]);
    expect(await backend.stored(t, offloaded.executionId)).toHaveLength(1);
    for (const run of [inline, offloaded]) {
      const { detail, webhook } = await answersOf(run.executionId);
      expect(Object.keys(detail.executionData.finalOutput.result), run.executionId).toEqual(['a', 'zz']);
      expect(Object.keys(spanOf(detail.executionData.traceSpans, 'keys').output.result)).toEqual(['a', 'zz']);
      expect(Object.keys(webhook.finalOutput.result)).toEqual(['a', 'zz']);
    }
  });

  it.each([
    ['closed by the heartbeat sweep', (executionId: string) => closeInterruptedRuns(t.app.db, t.app, isExecution(executionId), INTERRUPTED_BY_CRASH)],
    ['deleted with its workflow', async (_executionId: string, workflowId: string) => {
      expect((await t.request('DELETE', `/api/v1/workflows/${workflowId}`)).status).toBe(204);
    }],
  ])('leaves no value file behind once housekeeping has run when the log was %s while the run went on', async (_how, interrupt) => {
    // Busy for 1.5 s (its running marker is written after 200 ms), then 200 KB: the value is written after the
    // interruption, for a log the recorder can no longer write.
    const slowState = makeState([
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'slow', type: 'function', name: 'Slow', config: { code: `const end = Date.now() + 1500; while (Date.now() < end) {} ${BIG_CODE}` } },
    ], [['start', 'slow']]);
    const wf = await deploy(slowState);
    const answer = t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    const executionId = await eventually(async () => {
      const [row] = await t.app.db.select({ executionId: logExecutionId }).from(executions)
        .where(and(eq(executions.workflowId, wf), eq(executions.status, 'running')));
      return row?.executionId;
    }, 5_000, 'the running marker');
    await interrupt(executionId, wf);
    const res = await answer;
    // The run itself went on to its end and made the 200 KB (so its value was written to file storage).
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.output.result.text).toBe(BIG_TEXT);
    // Its value is no log's (its row has no execution id): housekeeping deletes it once it is an hour old.
    const valueRows = () => t.app.db.select({ executionId: files.executionId }).from(files).where(like(files.storageKey, `executions/${executionId}/%`));
    expect(await valueRows()).toEqual([{ executionId: null }]);
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null }, pastOrphanAge());
    expect(await backend.stored(t, executionId)).toEqual([]);
    expect(await valueRows()).toEqual([]);
  });

  it('keeps a large block input that is no output out of the row', async () => {
    const wf = await deploy(postState(`${upstream.url}/take`));
    const run = await execute(wf);
    expect(upstream.requests.at(-1)!.body.toString()).toContain(`${BIG_TEXT}!`);
    expect((await rowSize(run.executionId)).trace).toBeLessThan(4096);
    expect(await backend.stored(t, run.executionId)).toHaveLength(2);
    const { detail } = await answersOf(run.executionId);
    expect(JSON.stringify(spanOf(detail.executionData.traceSpans, 'post').input)).toContain(`${BIG_TEXT}!`);
  });

  it('keeps a large trigger input out of the row; a whole re-run is given it again', async () => {
    const wf = await deploy(inputState);
    const doc = 'abc'.repeat(70_000);
    const run = await execute(wf, { doc });
    expect(run.output.result).toEqual({ length: doc.length });
    expect((await rowSize(run.executionId)).trace).toBeLessThan(4096);
    const { detail } = await answersOf(run.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'start').output.doc).toBe(doc);
    const again = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, {});
    expect(again.status, again.text.slice(0, 500)).toBe(200);
    expect(again.body.output).toEqual(run.output);
  });

  it('refuses a re-run that needs a value gone from storage, naming it, and warns (a queued one fails when its job starts); a whole re-run given its input runs', async () => {
    const wf = await deploy(inputState);
    const doc = 'xyz'.repeat(70_000);
    const run = await execute(wf, { doc });
    expect(await backend.stored(t, run.executionId)).not.toEqual([]);
    // Queued while the value is there; no worker runs here until the value has gone.
    const queued = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, { body: { fromBlock: 'count', mode: 'async' } });
    expect(queued.status, queued.text.slice(0, 500)).toBe(202);
    await backend.remove(t, run.executionId);
    const stored = `executions/${run.executionId}/values/`;

    // The queued re-run checks again when its job starts, and fails saying why.
    const worker = createAppWorker(t.app, { pollIntervalMs: 50, queueTriggers: false, handlers: { [EXECUTION_JOB]: createExecutionJobHandler(t.app) } });
    await worker.start();
    try {
      const job = await eventually(async () => {
        const res = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
        return res.body.status === 'failed' && res.body;
      }, 10_000, 'the queued re-run to fail');
      expect(job.error).toContain('cannot be re-run from a block');
      expect(job.error).toContain(stored);
    } finally {
      await worker.stop(1_000);
    }

    // The trigger's input is the value gone: a whole re-run would be given its marker as input.
    warnings.length = 0;
    const whole = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, {});
    expect(whole.status, whole.text.slice(0, 500)).toBe(410);
    expect(whole.body).toMatchObject({ code: 'EXECUTION_SNAPSHOT_GONE' });
    expect(whole.body.error).toContain('cannot be re-run without "input"');
    expect(whole.body.error).toContain(stored);
    expect(warnings).toContainEqual(expect.objectContaining({ msg: 'an offloaded value of a log is missing from file storage', storageKey: expect.stringContaining(stored) }));

    // From a block, the replay would take the trigger's output from the log.
    const fromBlock = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, { body: { fromBlock: 'count' } });
    expect(fromBlock.status, fromBlock.text.slice(0, 500)).toBe(410);
    expect(fromBlock.body.error).toContain('cannot be re-run from a block');

    const given = await t.request('POST', `/api/v1/executions/${run.executionId}/rerun`, { body: { input: { doc: 'abc' } } });
    expect(given.status, given.text.slice(0, 500)).toBe(200);
    expect(given.body.output.result).toEqual({ length: 3 });

    // The trigger's input repeated in the final output is stored once, as part of the final output's file: losing
    // that file loses the input too, though the trigger's own output was never a file of its own.
    const again = await execute(await deploy(repeatState), { doc });
    expect(again.output.result).toEqual({ doc });
    await backend.remove(t, again.executionId);
    const repeated = await t.request('POST', `/api/v1/executions/${again.executionId}/rerun`, {});
    expect(repeated.status, repeated.text.slice(0, 500)).toBe(410);
    expect(repeated.body.error).toContain(`executions/${again.executionId}/values/`);
  });

  it('keeps a value of just the limit in the row, and one byte more out of it', async () => {
    const at = await execute(await deploy(sizedState(LIMIT - 34)));
    const over = await execute(await deploy(sizedState(LIMIT - 33)));
    expect(Buffer.byteLength(JSON.stringify(at.output))).toBe(LIMIT);
    expect(Buffer.byteLength(JSON.stringify(over.output))).toBe(LIMIT + 1);
    expect((await rowSize(at.executionId)).final).toBeGreaterThanOrEqual(LIMIT);
    expect(await backend.stored(t, at.executionId)).toEqual([]);
    expect((await rowSize(over.executionId)).final).toBeLessThan(1024);
    expect(await backend.stored(t, over.executionId)).toHaveLength(1);
    for (const run of [at, over]) expect((await answersOf(run.executionId)).detail.executionData.finalOutput).toEqual(run.output);
  });

  it('keeps the values in the row when file storage refuses them: the log is whole', async () => {
    const wf = await deploy(echoState);
    const restore = await backend.breakStorage(t);
    let run;
    try {
      run = await execute(wf);
    } finally {
      await restore();
    }
    expect((await rowSize(run.executionId)).final).toBeGreaterThan(BIG_TEXT.length);
    expect(await backend.stored(t, run.executionId)).toEqual([]);
    const { detail } = await answersOf(run.executionId);
    expect(detail.executionData.finalOutput).toEqual(run.output);
  });

  it('retention deletes the values with their log', async () => {
    const wf = await deploy(chainState);
    const old = await execute(wf, { q: 'old' });
    const recent = await execute(wf, { q: 'recent' });
    const at = new Date(Date.now() - 40 * DAY_MS);
    await t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(old.executionId));
    // Its webhook delivered long ago: nothing keeps the log.
    await t.app.db.execute(sql`update deliveries set status = 'succeeded', completed_at = ${at} where execution_id = ${old.executionId}`);
    expect(await backend.stored(t, old.executionId)).toHaveLength(1);

    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: 30 });
    expect((await t.request('GET', `/api/v1/logs/executions/${old.executionId}`)).status).toBe(404);
    expect(await backend.stored(t, old.executionId)).toEqual([]);
    expect(await t.app.db.select().from(files).where(eq(files.executionId, old.executionId))).toEqual([]);
    expect(await backend.stored(t, recent.executionId)).toHaveLength(1);
    const detail = await logDetailOf(t, recent.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'big').output.result).toEqual({ text: BIG_TEXT });
  });

  it('deletes the values a process stored before dying with their log unwritten, once an hour old; a written log’s stay', async () => {
    const written = await execute(await deploy(chainState), { q: 'written' });
    // A process stores a log's large value, then dies before the statement writing the log.
    const executionId = newExecutionId();
    const trace = storeTrace([{ blockId: 'a', type: 'function', duration: 1, input: {}, output: { text: BIG_TEXT } }], { result: 'done' });
    const stored = await offloadValues({
      storage: t.app.files.storage,
      executionId,
      trace,
      finalOutput: { result: 'done' },
      limit: LIMIT,
      reserve: reserveValueRows(t.app.db, t.workspaceId),
    });
    expect(stored.files).toHaveLength(1);
    expect(await backend.stored(t, executionId)).toHaveLength(1);
    const rowsOfValues = (id: string) => t.app.db.select({ executionId: files.executionId }).from(files).where(like(files.storageKey, `executions/${id}/%`));
    expect(await rowsOfValues(executionId)).toEqual([{ executionId: null }]);
    expect(await rowsOfValues(written.executionId)).toEqual([{ executionId: written.executionId }]);

    // Within the hour it might still be on its way to its log.
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null });
    expect(await backend.stored(t, executionId)).toHaveLength(1);
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null }, pastOrphanAge());
    expect(await backend.stored(t, executionId)).toEqual([]);
    expect(await rowsOfValues(executionId)).toEqual([]);
    // The written log's value is its log's, however old.
    expect(await backend.stored(t, written.executionId)).toHaveLength(1);
    const detail = await logDetailOf(t, written.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'big').output.result).toEqual({ text: BIG_TEXT });
  });

  it('deleting a workflow deletes its logs’ values at the next housekeeping pass, with no retention set', async () => {
    const wf = await deploy(chainState);
    const run = await execute(wf, { q: 'deleted' });
    const other = await execute(await deploy(chainState), { q: 'kept' });
    expect(await backend.stored(t, run.executionId)).toHaveLength(1);
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}`)).status).toBe(204);
    expect((await t.request('GET', `/api/v1/logs/executions/${run.executionId}`)).status).toBe(404);

    // Storage failing at first: the values' rows stay, so the next pass can still find the bytes.
    const storage = t.app.files.storage;
    const remove = storage.delete;
    storage.delete = async () => {
      throw new Error('storage unreachable');
    };
    const warnings: string[] = [];
    const logger = createLogger('warn', new Writable({ write: (line: Buffer, _e, done) => done(void warnings.push(JSON.parse(line.toString()).msg)) }));
    try {
      // Values younger than an hour might be on their way to a log: the first pass after that takes them.
      await runMaintenance({ db: t.app.db, logger, storage, logRetentionDays: null });
      expect(warnings).toEqual([]);
      await runMaintenance({ db: t.app.db, logger, storage, logRetentionDays: null }, pastOrphanAge());
    } finally {
      storage.delete = remove;
    }
    expect(warnings).toContain('could not delete the stored value of a deleted log; retried at the next pass');
    expect(await backend.stored(t, run.executionId)).toHaveLength(1);

    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage, logRetentionDays: null }, pastOrphanAge());
    expect(await backend.stored(t, run.executionId)).toEqual([]);
    expect(await t.app.db.select().from(files).where(eq(files.executionId, run.executionId))).toEqual([]);
    // Another workflow's log keeps its value.
    expect(await backend.stored(t, other.executionId)).toHaveLength(1);
    const detail = await logDetailOf(t, other.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'big').output.result).toEqual({ text: BIG_TEXT });
  });

  it.skipIf(!TEST_DATABASE_URL)('deleting a workflow also takes the values a batch wrote for one of its logs while the delete waited for it', async () => {
    const wf = await deploy(chainState);
    const run = await execute(wf, { q: 'completing' });
    const late = `executions/${run.executionId}/values/late-0.json`;
    // Another session stands for a batch completing a running log of the workflow in place, with a value it stored: it
    // holds the log's row (an update in place takes no lock on the workflow's row) and gives the value's row, reserved
    // before its bytes were written, the log's execution id.
    await t.app.db.insert(files).values({ id: 'file_late', workspaceId: t.workspaceId, executionId: null, name: 'value-0.json', mime: 'application/json', size: 2, storageKey: late });
    const batch = new pg.Client({ connectionString: t.databaseUrl });
    await batch.connect();
    let deleted: ReturnType<typeof t.request> | undefined;
    try {
      await batch.query('begin');
      await batch.query(`update executions set status = status where coalesce(execution_id, 'exec_' || substr(id, 5)) = $1`, [run.executionId]);
      await batch.query(`update files set execution_id = $1 where id = 'file_late'`, [run.executionId]);
      deleted = t.request('DELETE', `/api/v1/workflows/${wf}`);
      // The delete waits for the batch's row.
      await eventually(async () => {
        const [row] = await rowsOf<{ yes: boolean }>(t.app.db, sql`select exists (select 1 from pg_locks where locktype = 'transactionid' and not granted) as yes`);
        return row.yes || undefined;
      });
    } finally {
      await batch.query('commit');
      await batch.end();
    }
    expect((await deleted!).status).toBe(204);
    // Both values of the log are marked for housekeeping — the one stored before and the one the batch wrote — and go.
    const marked = await t.app.db.select({ key: files.storageKey, executionId: files.executionId }).from(files).where(like(files.storageKey, `executions/${run.executionId}/%`));
    expect(marked).toHaveLength(2);
    expect(marked.every((row) => row.executionId === null)).toBe(true);
    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: null }, pastOrphanAge());
    expect(await t.app.db.select().from(files).where(like(files.storageKey, `executions/${run.executionId}/%`))).toEqual([]);
    expect(await backend.stored(t, run.executionId)).toEqual([]);
  });

  it.skipIf(!TEST_DATABASE_URL)('retention dropping a whole month on PostgreSQL deletes its logs’ values with it', async () => {
    const now = Date.now();
    const early = new Date(now - 120 * DAY_MS);
    await ensureExecutionPartitions(t.app.db, early);
    const month = monthPartition(early);
    const wf = await deploy(chainState);
    const old = await execute(wf, { q: 'month' });
    const at = new Date(month.from.getTime() + DAY_MS);
    await t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(old.executionId));
    await t.app.db.execute(sql`update deliveries set status = 'succeeded', completed_at = ${at} where execution_id = ${old.executionId}`);
    expect(await backend.stored(t, old.executionId)).toHaveLength(1);

    await runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: 30 }, now);
    const [gone] = await rowsOf<{ yes: boolean }>(t.app.db, sql`select to_regclass(${month.name}) is null as yes`);
    expect(gone.yes).toBe(true);
    expect(await backend.stored(t, old.executionId)).toEqual([]);
  });

  it.skipIf(!TEST_DATABASE_URL)('a month retention keeps after all (a redelivery made while it waited for the table) keeps its logs’ values', async () => {
    const now = Date.now();
    const early = new Date(now - 200 * DAY_MS);
    await ensureExecutionPartitions(t.app.db, early);
    const month = monthPartition(early);
    const wf = await deploy(chainState);
    const old = await execute(wf, { q: 'redelivered' });
    const at = new Date(month.from.getTime() + DAY_MS);
    await t.app.db.update(executions).set({ startedAt: at, endedAt: new Date(at.getTime() + 50) }).where(isExecution(old.executionId));
    await t.app.db.execute(sql`update deliveries set status = 'succeeded', completed_at = ${at} where execution_id = ${old.executionId}`);
    const [original] = await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, old.executionId));

    // A session reading the month (a backup) makes the pass wait for its lock, after it found the month expired.
    const reader = new pg.Client({ connectionString: t.databaseUrl });
    await reader.connect();
    let pass: Promise<void> | undefined;
    try {
      await reader.query('begin');
      await reader.query(`lock table "${month.name}" in access share mode`);
      pass = runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: 30 }, now);
      await eventually(async () => {
        const [row] = await rowsOf<{ yes: boolean }>(
          t.app.db,
          sql`select exists (select 1 from pg_locks where relation = to_regclass(${month.name}) and not granted) as yes`,
        );
        return row.yes;
      });
      // Meanwhile a redelivery of its webhook, which read the log before the pass locked the table, is recorded.
      await createDeliveries(
        t.app.db,
        [{ eventId: original.eventId, subscriptionId: original.subscriptionId, workflowId: wf, executionId: old.executionId, body: original.body, envelope: original.envelope }],
        { manual: true },
      );
    } finally {
      await reader.query('commit');
      await reader.end();
    }
    await pass;

    // The month stays for the pending delivery, and the log with it answers whole: its value was not deleted.
    const [kept] = await rowsOf<{ yes: boolean }>(t.app.db, sql`select to_regclass(${month.name}) is not null as yes`);
    expect(kept.yes).toBe(true);
    expect(await backend.stored(t, old.executionId)).toHaveLength(1);
    const detail = await logDetailOf(t, old.executionId);
    expect(spanOf(detail.executionData.traceSpans, 'big').output.result).toEqual({ text: BIG_TEXT });
  });
});

// Issue: with S3 stalled when a log was written, the run's answer waited 132 s (the SDK's retries and socket timeout)
// before the log kept its value in the row. The value writes now have a deadline, and what lands after it is deleted.
describe('a stalled S3 when a log is written', () => {
  let t: TestApp;
  let server: TestS3Server;
  let proxy: TcpProxy;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startS3Server();
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(server.endpoint).port));
    const logTo = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await startTestApp({ ...server.env(S3_PREFIX), SLUICE_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`, LOG_LEVEL: 'warn' }, { logTo });
  });
  afterEach(() => proxy.resume());
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    await server?.close();
  });

  /** Runs echoState (a 200 KB final output) while `stall` holds S3; returns the answer and how long it took. */
  async function executeStalled(stall: () => void) {
    const wf = await createAndDeploy(t, echoState);
    stall();
    const started = Date.now();
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    const took = Date.now() - started;
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.output.result.again).toBe(BIG_TEXT);
    return { executionId: res.body.executionId as string, output: res.body.output, took };
  }
  const valuesOf = (executionId: string) => `${S3_PREFIX}/executions/${executionId}/values/`;

  it('answers once the write deadline passes, the log keeping the value in its row, with a warning', async () => {
    const run = await executeStalled(() => proxy.hang());
    expect(run.took).toBeGreaterThanOrEqual(OFFLOAD_WRITE_DEADLINE_MS - 50);
    expect(run.took).toBeLessThan(OFFLOAD_WRITE_DEADLINE_MS + 3_000);
    proxy.resume();
    // Nothing in the bucket and no files row: the log has the value whole in its row.
    const detail = await logDetailOf(t, run.executionId);
    expect(detail.executionData.finalOutput).toEqual(run.output);
    expect((await server.keys()).filter((key) => key.startsWith(valuesOf(run.executionId)))).toEqual([]);
    expect(await t.app.db.select().from(files).where(eq(files.executionId, run.executionId))).toEqual([]);
    const warning = lines.find((line) => line.includes(run.executionId) && line.includes('could not write the large values of a log to file storage'));
    expect(warning).toContain(`within ${OFFLOAD_WRITE_DEADLINE_MS} ms`);
  });

  it('deletes a value file that S3 stored but did not confirm before the deadline', async () => {
    const run = await executeStalled(() => proxy.holdAnswers());
    expect(run.took).toBeLessThan(OFFLOAD_WRITE_DEADLINE_MS + 3_000);
    // The PUT reached the server, which stored the value: only its answer was lost.
    expect(server.created().filter((key) => key.startsWith(valuesOf(run.executionId)))).toHaveLength(1);
    await eventually(async () => (await server.keys()).every((key) => !key.startsWith(valuesOf(run.executionId))), 5_000, 'the late file deleted');
    proxy.resume();
    expect((await logDetailOf(t, run.executionId)).executionData.finalOutput).toEqual(run.output);
  });
});
