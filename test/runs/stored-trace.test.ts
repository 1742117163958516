// The log keeps each value once (issue 28): what the logs API and completion webhooks answer must not change. The
// log detail, the logs list and the webhook body of the same run must carry the same trace and final output, for
// every kind of block, loops and parallels, failed runs and sub-workflows. (A webhook body is built from the log when
// it is sent, so it reads the same row as the logs API: the cases below also check values the runs made.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { inJsonbKeyOrder, toJsonText } from '../../src/db/json.js';
import { rowsOf } from '../../src/db/rows.js';
import { unpackTrace } from '../../src/services/logs/packed-trace.js';
import { readTrace } from '../../src/services/logs/stored-trace.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { subscribe, webhookBodyOf } from '../completion-webhooks/support.js';
import { storedTrace } from '../../src/services/logs/columns.js';
import { isExecution } from '../../src/db/execution-lookup.js';

let t: TestApp;
let upstream: FakeUpstream;
let receiver: FakeUpstream;

beforeAll(async () => {
  t = await startTestApp();
  // Echoes the JSON it is sent under `got`, so a block's output holds its input's values again.
  upstream = await startUpstream((_req, res, recorded) => {
    const got = recorded.body.length > 0 ? JSON.parse(recorded.body.toString('utf8')) : null;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ got, at: recorded.url }));
  });
  receiver = await startUpstream((_req, res) => res.end('ok'));
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await receiver?.close();
});

/** A value long enough that the store would keep it once, and recognisable in the row's text. */
const PAYLOAD = `payload-${'x'.repeat(120)}`;

async function deployWithHook(state: unknown): Promise<string> {
  const id = await createAndDeploy(t, state);
  await subscribe(t, id, { url: `${receiver.url}/hook`, includeFinalOutput: true, includeTraceSpans: true, levelFilter: ['info', 'error'] });
  return id;
}

async function execute(workflowId: string, body: unknown) {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
  return res.headers.get('x-execution-id') ?? (res.body as { executionId?: string }).executionId!;
}

/** The log detail, the logs list item and the webhook body of one execution. */
async function answersOf(executionId: string) {
  const detail = await logDetailOf(t, executionId);
  const list = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&includeTraceSpans=true&includeFinalOutput=true`);
  return { detail: detail.executionData, list: list.body.data[0].executionData, webhook: (await webhookBodyOf(t, executionId)).data };
}

async function expectSameAnswers(executionId: string) {
  const { detail, list, webhook } = await answersOf(executionId);
  expect(webhook.traceSpans.length).toBeGreaterThan(0);
  expect(detail.traceSpans).toEqual(webhook.traceSpans);
  expect(detail.finalOutput).toEqual(webhook.finalOutput);
  expect(list.traceSpans).toEqual(webhook.traceSpans);
  expect(list.finalOutput).toEqual(webhook.finalOutput);
  return webhook as { traceSpans: Array<Record<string, any>>; finalOutput: unknown };
}

/**
 * The row's spans are packed (format 4), and its trace reads back exactly — keys in the same order too — as the same
 * trace would from a row of format 2 (written before packing), which the database hands back in jsonb's key order.
 */
async function expectAnsweredAsFormat2(executionId: string) {
  const [row] = await rowsOf<{ trace: Record<string, unknown>; final: unknown; jsonb_column: unknown }>(
    t.app.db,
    sql`select ${storedTrace} as trace, final_output as final, trace_spans as jsonb_column from executions where ${isExecution(executionId)}`,
  );
  expect(row.trace.format).toBe(4);
  // The packed bytes are in their own column; the jsonb one holds nothing when no value went to file storage.
  expect(row.jsonb_column).toBeNull();
  const [old] = await rowsOf<{ trace: unknown }>(t.app.db, sql`select ${toJsonText(unpackTrace(row.trace))}::jsonb as trace`);
  expect((old.trace as { format: number }).format).toBe(2);
  expect(JSON.stringify(readTrace(row.trace, row.final).spans)).toBe(JSON.stringify(readTrace(old.trace, row.final).spans));
}

describe('a log stores each value once, and answers as the run made it', () => {
  it('triggers, variables, API calls, conditions, functions, waits and responses', async () => {
    const wf = await deployWithHook(
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }, { name: 'items', type: 'json' }] } },
          { id: 'vars', type: 'variables', name: 'Vars', config: { assignments: [{ name: 'copy', value: '<api.q>' }, { name: 'n', value: 3 }] } },
          { id: 'call', type: 'api', name: 'Call', config: { url: `${upstream.url}/echo`, method: 'POST', body: { q: '<api.q>', items: '<api.items>', text: 'q is <api.q>' } } },
          { id: 'check', type: 'condition', name: 'Check', config: { conditions: [{ id: 'yes', title: 'if', expression: '<call.status> === 200' }, { id: 'no', title: 'else', expression: '' }] } },
          { id: 'shape', type: 'function', name: 'Shape', config: { code: 'return { got: <call.data>.got, same: <call.data>.got.q, n: <variable.n> };' } },
          { id: 'pause', type: 'wait', name: 'Pause', config: { ms: 1 } },
          { id: 'out', type: 'response', name: 'Out', config: { body: { shaped: '<shape>', echoed: '<call.data>', q: '<api.q>' } } },
        ],
        [
          ['start', 'vars'],
          ['vars', 'call'],
          ['call', 'check'],
          ['check', 'shape', 'condition-yes'],
          ['shape', 'pause'],
          ['pause', 'out'],
        ],
      ),
    );
    const executionId = await execute(wf, { q: PAYLOAD, items: [{ id: 1, name: PAYLOAD }, { id: 2 }] });
    const answers = await expectSameAnswers(executionId);
    expect(answers.traceSpans.map((s) => s.type), JSON.stringify(answers.traceSpans.slice(2))).toEqual(['api_trigger', 'variables', 'api', 'condition', 'function', 'wait', 'response']);
    expect(JSON.stringify(answers.finalOutput)).toContain(PAYLOAD);
    // The trace the answers carry holds the payload again and again; the row keeps it in far fewer places.
    const [row] = await rowsOf<{ trace: string }>(t.app.db, sql`select (${storedTrace})::text as trace from executions where ${isExecution(executionId)}`);
    const times = (text: string) => text.split(PAYLOAD).length - 1;
    expect(times(JSON.stringify(answers.traceSpans))).toBeGreaterThanOrEqual(12);
    expect(times(row.trace)).toBeLessThanOrEqual(3);
    await expectAnsweredAsFormat2(executionId);
    // A run that used no model keeps no cost object; its cost answers as a stored one did, key for key.
    const [costRow] = await rowsOf<{ cost: unknown; total: number }>(t.app.db, sql`select cost, cost_total as total from executions where ${isExecution(executionId)}`);
    expect(costRow.cost).toBeNull();
    const detail = await logDetailOf(t, executionId);
    expect(JSON.stringify(detail.cost)).toBe(JSON.stringify({ total: costRow.total, tokens: { total: 0, prompt: 0, completion: 0 }, models: {} }));
  });

  it('answers for a log written before the trace had its bytes column (the packed object in trace_spans) as it did', async () => {
    const wf = await deployWithHook(
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'call', type: 'api', name: 'Call', config: { url: `${upstream.url}/echo`, method: 'POST', body: { q: '<api.q>' } } },
          { id: 'out', type: 'response', name: 'Out', config: { body: { echoed: '<call.data>' } } },
        ],
        [
          ['start', 'call'],
          ['call', 'out'],
        ],
      ),
    );
    const executionId = await execute(wf, { q: PAYLOAD });
    const before = await answersOf(executionId);
    // The row as migration 0027 found the rows written before it: the whole packed object in jsonb, no bytes.
    await t.app.db.execute(sql`update executions set trace_spans = (${storedTrace}), trace_packed = null where ${isExecution(executionId)}`);
    const [row] = await rowsOf<{ format: unknown; bytes: unknown }>(
      t.app.db,
      sql`select trace_spans -> 'format' as format, trace_packed as bytes from executions where ${isExecution(executionId)}`,
    );
    expect(row).toEqual({ format: 4, bytes: null });
    const after = await answersOf(executionId);
    expect(after.detail).toEqual(before.detail);
    expect(after.list).toEqual(before.list);
    expect(JSON.stringify(after.detail.traceSpans)).toContain(PAYLOAD);
  });

  it('loops and parallels, with their iterations', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'items', type: 'json' }] } },
        { id: 'each', type: 'loop', name: 'Each' },
        { id: 'lcall', type: 'api', name: 'LCall', config: { url: `${upstream.url}/item`, method: 'POST', body: { item: '<loop.currentItem>', i: '<loop.index>' } } },
        { id: 'lshape', type: 'function', name: 'LShape', config: { code: 'return <lcall.data>.got;' } },
        { id: 'fan', type: 'parallel', name: 'Fan' },
        { id: 'pshape', type: 'function', name: 'PShape', config: { code: 'return { item: <parallel.currentItem>, i: <parallel.index> };' } },
        { id: 'out', type: 'response', name: 'Out', config: { body: { loop: '<each.results>', fan: '<fan.results>' } } },
      ],
      [
        ['start', 'each'],
        ['each', 'lcall'],
        ['lcall', 'lshape'],
        ['each', 'fan'],
        ['fan', 'pshape'],
        ['fan', 'out'],
      ],
    );
    const wf = await deployWithHook({
      ...state,
      blocks: {
        ...state.blocks,
        lcall: { ...state.blocks.lcall, parentId: 'each' },
        lshape: { ...state.blocks.lshape, parentId: 'each' },
        pshape: { ...state.blocks.pshape, parentId: 'fan' },
      },
      loops: { each: { id: 'each', nodes: ['lcall', 'lshape'], loopType: 'forEach', forEachItems: '<api.items>' } },
      parallels: { fan: { id: 'fan', nodes: ['pshape'], parallelType: 'collection', distribution: '<api.items>' } },
    });
    const executionId = await execute(wf, { items: [PAYLOAD, { deep: PAYLOAD }, 3] });
    const answers = await expectSameAnswers(executionId);
    await expectAnsweredAsFormat2(executionId);
    const loop = answers.traceSpans.find((s) => s.type === 'loop')!;
    expect(loop.children.map((c: { type: string }) => c.type)).toEqual(['loop_iteration', 'loop_iteration', 'loop_iteration']);
  });

  it('failed runs and sub-workflows', async () => {
    const child = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'v', type: 'string' }] } },
          { id: 'up', type: 'function', name: 'Up', config: { code: 'return { v: <api.v>, upper: String(<api.v>).toUpperCase() };' } },
        ],
        [['start', 'up']],
      ),
    );
    const wf = await deployWithHook(
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
          { id: 'sub', type: 'workflow', name: 'Sub', config: { workflowId: child, input: { v: '<api.q>' } } },
          { id: 'boom', type: 'function', name: 'Boom', config: { code: 'throw new Error("failed with " + <sub.result>.v.length)' } },
        ],
        [
          ['start', 'sub'],
          ['sub', 'boom'],
        ],
      ),
    );
    const executionId = await execute(wf, { q: PAYLOAD });
    const answers = await expectSameAnswers(executionId);
    await expectAnsweredAsFormat2(executionId);
    expect(answers.traceSpans.map((s) => s.type)).toEqual(['api_trigger', 'workflow', 'function']);
    expect(answers.traceSpans.at(-1)).toMatchObject({ status: 'error' });
  });

  it('reads packed values back with their keys in the order jsonb keeps them, whatever their characters', async () => {
    // Shorter keys first, then by their UTF-8 bytes: not by UTF-16 (U+FFFF comes before an emoji in jsonb, after it in
    // JavaScript).
    const text = JSON.stringify({ zz: 1, é: 2, '😀': 3, '\uffff': 4, b: { y: [{ ü1: 1, a: 2, Z: 3 }], x: 1 }, aa: 5, ab: 6, A: 7, ä: 8 })
      .replace('"Z":3', '"Z":3,"__proto__":{"kept":true}'); // a key like any other, not the prototype
    const [row] = await rowsOf<{ v: unknown }>(t.app.db, sql`select ${text}::jsonb as v`);
    expect(JSON.stringify(row.v)).toContain('"__proto__":{"kept":true}');
    expect(JSON.stringify(inJsonbKeyOrder(JSON.parse(text)))).toBe(JSON.stringify(row.v));
  });
});
