// The logs API against real executions: every filter alone and combined (checked against an independent filter
// over the stored rows), keyset pages in both orders, the detail shapes, bad parameters and tenant isolation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions, workflows } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { runExecution } from '../../src/runs/run-execution.js';
import { createFolder } from '../../src/services/folders.js';
import { checkState, createWorkflow, updateWorkflow } from '../../src/services/workflows.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import type { TriggerType, WorkflowState } from '../../src/workflow/index.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { executionRow } from '../support/log-rows.js';

type Row = typeof executions.$inferSelect & { executionId: string };

let t: TestApp;
const ids = { folderA: '', folderB: '', fast: '', slow: '', fail: '', gpt: '', claude: '', multi: '' };
let rows: Row[] = [];
const states: Record<string, WorkflowState> = {};

// ---- states: real blocks through the real engine -------------------------------------------------------------
const trigger = { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 0 }, config: { inputFormat: [] } };
const fn = (code: string) => ({ id: 'fn', type: 'function', name: 'Fn', position: { x: 300, y: 0 }, config: { code } });
const chain = (...blocks: Array<{ id: string }>) => ({
  blocks: Object.fromEntries(blocks.map((b) => [b.id, b])),
  edges: blocks.slice(1).map((b, i) => ({ id: `e${i}`, source: blocks[i]!.id, target: b.id })),
  loops: {},
  parallels: {},
});
const waitBlock = (ms: number) => ({ id: 'wait', type: 'wait', name: 'Wait', position: { x: 150, y: 0 }, config: { ms } });
/** A variables block whose output carries model, tokens and cost: the trace span lifts them like an agent's. */
const modelBlock = (model: string, cost: number) => ({
  id: 'llm',
  type: 'variables',
  name: 'LLM',
  position: { x: 150, y: 0 },
  config: {
    assignments: [
      { name: 'model', value: model },
      { name: 'tokens', value: { prompt: 100, completion: 20, total: 120 } },
      { name: 'cost', value: cost },
      { name: 'content', value: 'hello' },
    ],
  },
});
const multiTriggerState = () => {
  const target = fn('return "multi"');
  const triggers = [
    trigger,
    { id: 'hook', type: 'webhook_trigger', name: 'Hook', position: { x: 0, y: 100 }, config: { path: 'logs-test' } },
    { id: 'cron', type: 'schedule_trigger', name: 'Cron', position: { x: 0, y: 200 }, config: { cron: '0 * * * *' } },
    { id: 'chat', type: 'chat_trigger', name: 'Chat', position: { x: 0, y: 300 }, config: {} },
  ];
  return {
    blocks: Object.fromEntries([...triggers, target].map((b) => [b.id, b])),
    edges: triggers.map((b) => ({ id: `e-${b.id}`, source: b.id, target: 'fn' })),
    loops: {},
    parallels: {},
  };
};

async function addWorkflow(key: keyof typeof ids, state: unknown, extra: { folderId?: string; description?: string } = {}) {
  const row = await createWorkflow(t.app.db, { workspaceId: t.workspaceId, name: `WF ${key}`, state, ...extra });
  ids[key] = row.id;
  states[row.id] = checkState(row.state);
}

async function run(key: keyof typeof ids, triggerType: TriggerType = 'api') {
  const outcome = await runExecution(t.app, {
    workflow: { id: ids[key], workspaceId: t.workspaceId },
    state: states[ids[key]]!,
    deploymentVersion: 1,
    trigger: triggerType,
    input: {},
  });
  return outcome;
}

// ---- the oracle: the stored rows, filtered and ordered in plain JavaScript -----------------------------------
const byStartDesc = (a: Row, b: Row) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1);
const expectedIds = (pick: (row: Row) => boolean, order: 'asc' | 'desc' = 'desc') => {
  const sorted = rows.filter(pick).sort(byStartDesc).map((r) => r.id);
  return order === 'asc' ? sorted.reverse() : sorted;
};

const list = (query: Record<string, string | number | boolean>, apiKey?: string) =>
  t.request('GET', `/api/v1/logs?${new URLSearchParams({ workspaceId: t.workspaceId, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) })}`, { apiKey });

/** Follows nextCursor to the end and returns every page. */
async function walk(query: Record<string, string | number>) {
  const pages: Array<{ data: Array<{ id: string }>; nextCursor: string | null }> = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await list(cursor ? { ...query, cursor } : query);
    expect(res.status, res.text).toBe(200);
    pages.push(res.body);
    if (!res.body.nextCursor) return pages;
    cursor = res.body.nextCursor;
  }
  throw new Error('pagination did not end');
}


beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: '100000' });
  ids.folderA = (await createFolder(t.app.db, { workspaceId: t.workspaceId, name: 'A' })).id;
  ids.folderB = (await createFolder(t.app.db, { workspaceId: t.workspaceId, name: 'B' })).id;
  await addWorkflow('fast', chain(trigger, fn('return { ok: true }')), { folderId: ids.folderA, description: 'quick one' });
  await addWorkflow('slow', chain(trigger, waitBlock(120), fn('return { slow: true }')), { folderId: ids.folderB });
  await addWorkflow('fail', chain(trigger, fn('throw new Error("nope")')));
  await addWorkflow('gpt', chain(trigger, modelBlock('gpt-4o', 0.02)), { folderId: ids.folderA });
  await addWorkflow('claude', chain(trigger, modelBlock('claude-sonnet-4', 0.005)));
  await addWorkflow('multi', multiTriggerState());

  // Sequential, so each run has its own start time and the expected order is unambiguous.
  for (const step of [
    () => run('fast'),
    () => run('slow'),
    () => run('fail'),
    () => run('gpt'),
    () => run('multi', 'webhook'),
    () => run('fast'),
    () => run('claude'),
    () => run('multi', 'schedule'),
    () => run('slow'),
    () => run('fail'),
    () => run('multi', 'manual'),
    () => run('gpt'),
    () => run('multi', 'chat'),
    () => run('fast'),
    () => run('multi', 'api'),
  ]) {
    await step();
  }
  rows = await t.app.db.select(executionRow).from(executions).where(eq(executions.workspaceId, t.workspaceId));
  // Ascending reads only show runs that started more than a moment ago (the visibility horizon); wait for all.
  await eventually(async () => (await list({ order: 'asc', limit: 1000 })).body.data.length === rows.length, 10_000, 'ascending visibility');
}, 60_000);
afterAll(async () => t?.close());

describe('the executions behind these tests are real', () => {
  it('have the levels, durations, triggers and models the workflows produce', () => {
    expect(rows).toHaveLength(15);
    expect(rows.every((r) => r.status !== 'running')).toBe(true);
    expect(rows.filter((r) => r.level === 'error').map((r) => r.workflowId)).toEqual([ids.fail, ids.fail]);
    // Timers may fire a millisecond early as Date.now() sees it; 100 leaves room and still separates slow from fast.
    expect(rows.filter((r) => r.workflowId === ids.slow).every((r) => (r.totalDurationMs ?? 0) >= 100)).toBe(true);
    expect(new Set(rows.map((r) => r.trigger))).toEqual(new Set(['api', 'webhook', 'schedule', 'manual', 'chat']));
    expect(rows.filter((r) => (r.models ?? []).includes('gpt-4o'))).toHaveLength(2);
    // A run that used no model keeps none: null, not an empty array (13 bytes of every such row).
    const modelFree = rows.filter((r) => ![ids.gpt, ids.claude, ids.multi].includes(r.workflowId));
    expect(modelFree.length).toBeGreaterThan(0);
    expect(modelFree.map((r) => r.models)).toEqual(modelFree.map(() => null));
    expect(rows.some((r) => r.models?.length === 0)).toBe(false);
  });
});

describe('GET /api/v1/logs', () => {
  it('lists completed logs newest first with the documented entry fields, rate-limit headers and the limits object', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'limits', 'nextCursor']);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual(expectedIds(() => true));
    expect(res.body.nextCursor).toBeNull();
    const row = rows.find((r) => r.workflowId === ids.slow)!;
    const entry = res.body.data.find((l: { id: string }) => l.id === row.id);
    expect(entry).toEqual({
      id: row.id,
      workflowId: ids.slow,
      executionId: row.executionId,
      deploymentVersion: 1,
      level: 'info',
      trigger: 'api',
      startedAt: row.startedAt.toISOString(),
      endedAt: row.endedAt!.toISOString(),
      totalDurationMs: row.totalDurationMs,
      cost: { total: row.costTotal },
      files: null,
      blockErrorCount: 0,
    });
    expect(entry.id).toMatch(/^log_/);
    expect(entry.executionId).toMatch(/^exec_/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(100000);
    expect(new Date(res.headers.get('x-ratelimit-reset')!).toISOString()).toBe(res.headers.get('x-ratelimit-reset'));

    const totalCost = rows.reduce((sum, r) => sum + r.costTotal, 0);
    expect(res.body.limits).toEqual({
      workflowExecutionRateLimit: {
        sync: { limit: 50, remaining: 50, resetAt: expect.any(String) },
        async: { limit: 200, remaining: 200, resetAt: expect.any(String) },
      },
      usage: { currentPeriodCost: expect.closeTo(totalCost, 9), limit: 10, plan: 'free', isExceeded: false },
    });
    expect(res.body.limits.workflowExecutionRateLimit.sync.resetAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('applies each filter on its own', async () => {
    const at = (i: number) => [...rows].sort(byStartDesc).reverse()[i]!; // i-th run in start order
    const startA = at(4).startedAt.toISOString();
    const endB = at(10).startedAt.toISOString();
    const cases: Array<[Record<string, string | number>, (r: Row) => boolean]> = [
      [{ workflowIds: ids.fast }, (r) => r.workflowId === ids.fast],
      [{ workflowIds: `${ids.fast},${ids.fail}` }, (r) => r.workflowId === ids.fast || r.workflowId === ids.fail],
      [{ folderIds: ids.folderA }, (r) => r.workflowId === ids.fast || r.workflowId === ids.gpt],
      [{ folderIds: `${ids.folderA}, ${ids.folderB}` }, (r) => [ids.fast, ids.gpt, ids.slow].includes(r.workflowId)],
      [{ triggers: 'webhook' }, (r) => r.trigger === 'webhook'],
      [{ triggers: 'schedule,chat,manual' }, (r) => ['schedule', 'chat', 'manual'].includes(r.trigger)],
      [{ triggers: 'api' }, (r) => r.trigger === 'api'],
      [{ level: 'error' }, (r) => r.level === 'error'],
      [{ level: 'info' }, (r) => r.level === 'info'],
      [{ startDate: startA }, (r) => r.startedAt >= new Date(startA)],
      [{ endDate: endB }, (r) => r.startedAt <= new Date(endB)],
      // The same instant with an offset, sent with the + unencoded (it arrives as a space).
      [{ endDate: endB.replace('Z', '+00:00') }, (r) => r.startedAt <= new Date(endB)],
      [{ executionId: at(7).executionId }, (r) => r.id === at(7).id],
      [{ minDurationMs: 100 }, (r) => (r.totalDurationMs ?? 0) >= 100],
      [{ maxDurationMs: 60 }, (r) => (r.totalDurationMs ?? 0) <= 60],
      [{ maxDurationMs: 60.5 }, (r) => (r.totalDurationMs ?? 0) <= 60.5],
      [{ minDurationMs: 99.5 }, (r) => (r.totalDurationMs ?? 0) >= 99.5],
      [{ minCost: 0.01 }, (r) => r.costTotal >= 0.01],
      [{ maxCost: 0.002 }, (r) => r.costTotal <= 0.002],
      [{ model: 'gpt-4o' }, (r) => (r.models ?? []).includes('gpt-4o')],
      [{ model: 'claude-sonnet-4' }, (r) => (r.models ?? []).includes('claude-sonnet-4')],
      [{ model: 'gpt' }, () => false],
      [{ workflowIds: 'wf_doesnotexist' }, () => false],
    ];
    for (const [query, pick] of cases) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      const got = res.body.data.map((l: { id: string }) => l.id);
      const want = expectedIds(pick);
      expect(got, JSON.stringify(query)).toEqual(want);
      // Every case should select something and leave something out, unless it is meant to match nothing.
      if (want.length > 0) expect(want.length, JSON.stringify(query)).toBeLessThan(rows.length);
    }
  });

  it('combines filters (all must hold), in both orders', async () => {
    const mid = [...rows].sort(byStartDesc)[7]!.startedAt.toISOString();
    const cases: Array<[Record<string, string | number>, (r: Row) => boolean]> = [
      [
        { workflowIds: `${ids.slow},${ids.fast}`, level: 'info', minDurationMs: 100 },
        (r) => [ids.slow, ids.fast].includes(r.workflowId) && r.level === 'info' && (r.totalDurationMs ?? 0) >= 100,
      ],
      [{ folderIds: ids.folderA, triggers: 'api', model: 'gpt-4o' }, (r) => r.workflowId === ids.gpt],
      [{ model: 'gpt-4o', minCost: 0.03 }, () => false],
      [{ level: 'info', maxCost: 0.002, triggers: 'api,manual' }, (r) => r.level === 'info' && r.costTotal <= 0.002 && ['api', 'manual'].includes(r.trigger)],
      [{ startDate: mid, level: 'error' }, (r) => r.startedAt >= new Date(mid) && r.level === 'error'],
      [{ endDate: mid, workflowIds: ids.multi }, (r) => r.startedAt <= new Date(mid) && r.workflowId === ids.multi],
    ];
    for (const [query, pick] of cases) {
      for (const order of ['desc', 'asc'] as const) {
        const res = await list({ ...query, order });
        expect(res.status).toBe(200);
        expect(res.body.data.map((l: { id: string }) => l.id), JSON.stringify({ ...query, order })).toEqual(expectedIds(pick, order));
      }
    }
  });

  it('pages with a keyset cursor in both orders: no duplicates, no gaps, nextCursor null at the end', async () => {
    // desc: 15 logs in pages of 5 → exactly three pages, the last one full and still ending with null.
    const desc = await walk({ limit: 5 });
    expect(desc.map((p) => p.data.length)).toEqual([5, 5, 5]);
    expect(desc.at(-1)!.nextCursor).toBeNull();
    expect(desc.flatMap((p) => p.data.map((l) => l.id))).toEqual(expectedIds(() => true));

    const descOdd = await walk({ limit: 4 });
    expect(descOdd.map((p) => p.data.length)).toEqual([4, 4, 4, 3]);
    expect(descOdd.flatMap((p) => p.data.map((l) => l.id))).toEqual(expectedIds(() => true));

    // asc, bounded by an endDate in the past: that range can no longer grow, so it ends like desc.
    const lastStart = [...rows].sort(byStartDesc)[0]!.startedAt.toISOString();
    const bounded = await walk({ order: 'asc', limit: 4, endDate: lastStart });
    expect(bounded.map((p) => p.data.length)).toEqual([4, 4, 4, 3]);
    expect(bounded.flatMap((p) => p.data.map((l) => l.id))).toEqual(expectedIds(() => true, 'asc'));

    // asc, open-ended (how a poller follows new logs): after the last log comes one empty page with null.
    const open = await walk({ order: 'asc', limit: 4 });
    expect(open.map((p) => p.data.length)).toEqual([4, 4, 4, 3, 0]);
    expect(open.flatMap((p) => p.data.map((l) => l.id))).toEqual(expectedIds(() => true, 'asc'));

    // Filters stay applied across pages.
    const filtered = await walk({ level: 'info', limit: 2, workflowIds: `${ids.multi},${ids.fast}` });
    expect(filtered.flatMap((p) => p.data.map((l) => l.id))).toEqual(
      expectedIds((r) => r.level === 'info' && (r.workflowId === ids.multi || r.workflowId === ids.fast)),
    );
  });

  it('returns at most limit logs, clamps limits over 1000 and defaults to 100', async () => {
    expect((await list({ limit: 1 })).body.data).toHaveLength(1);
    const clamped = await list({ limit: 5000 });
    expect(clamped.status).toBe(200);
    expect(clamped.body.data).toHaveLength(15);
    expect((await list({ limit: 1000 })).status).toBe(200);
  });

  it('details=full adds the workflow and the full cost; the include flags add executionData', async () => {
    const gptRow = rows.find((r) => r.workflowId === ids.gpt)!;
    const full = await list({ details: 'full', workflowIds: ids.gpt });
    const entry = full.body.data.find((l: { id: string }) => l.id === gptRow.id);
    expect(entry.workflow).toEqual({ id: ids.gpt, name: 'WF gpt', description: '' });
    expect(entry.cost).toEqual({
      total: expect.closeTo(0.021, 9),
      tokens: { prompt: 100, completion: 20, total: 120 },
      models: { 'gpt-4o': { input: 0, output: 0, total: 0.02, tokens: { prompt: 100, completion: 20, total: 120 } } },
    });
    expect(entry).not.toHaveProperty('executionData');

    const fastFull = await list({ details: 'full', workflowIds: ids.fast, limit: 1 });
    expect(fastFull.body.data[0].workflow).toEqual({ id: ids.fast, name: 'WF fast', description: 'quick one' });

    const both = await list({ details: 'full', includeTraceSpans: true, includeFinalOutput: 'true', workflowIds: ids.slow, limit: 1 });
    const data = both.body.data[0].executionData;
    expect(Object.keys(data).sort()).toEqual(['finalOutput', 'traceSpans']);
    expect(data.finalOutput).toEqual({ result: { slow: true }, stdout: '' });
    expect(data.traceSpans.map((s: { type: string }) => s.type)).toEqual(['api_trigger', 'wait', 'function']);
    const wait = data.traceSpans[1];
    expect(wait.duration).toBeGreaterThanOrEqual(100);
    expect(wait).toMatchObject({ blockId: 'wait', name: 'Wait', status: 'success' });

    const spansOnly = await list({ details: 'full', includeTraceSpans: '1', workflowIds: ids.slow, limit: 1 });
    expect(Object.keys(spansOnly.body.data[0].executionData)).toEqual(['traceSpans']);

    // The include flags also work with basic details; nothing else of details=full appears.
    const basic = await list({ includeFinalOutput: true, workflowIds: ids.fail, limit: 1 });
    expect(basic.body.data[0].executionData).toEqual({ finalOutput: expect.objectContaining({ error: expect.stringContaining('nope') }) });
    expect(basic.body.data[0]).not.toHaveProperty('workflow');
    expect(basic.body.data[0].cost).toEqual({ total: expect.any(Number) });
  });

  it('refuses every malformed parameter with 400 naming it', async () => {
    const desc = await list({ limit: 2 });
    const ascCursor = (await list({ limit: 2, order: 'asc' })).body.nextCursor;
    const cases: Array<[string, string]> = [
      ['', 'workspaceId'],
      ['workspaceId=has spaces', 'workspaceId'],
      ['limit=0', 'limit'],
      ['limit=-3', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
      ['limit=2.5', 'limit'],
      ['order=sideways', 'order'],
      ['details=everything', 'details'],
      ['level=warn', 'level'],
      ['triggers=api,email', 'triggers'],
      ['triggers=', 'triggers'],
      ['workflowIds=', 'workflowIds'],
      ['workflowIds=ok,bad id', 'workflowIds'],
      ['folderIds=,', 'folderIds'],
      ['startDate=yesterday', 'startDate'],
      ['endDate=2025-13-01T00:00:00Z', 'endDate'],
      ['startDate=2025-02-30', 'startDate'],
      ['startDate=2025-02-01T00:00:00Z&endDate=2025-01-01T00:00:00Z', 'endDate'],
      ['executionId=a/b', 'executionId'],
      ['minDurationMs=-1', 'minDurationMs'],
      ['maxDurationMs=fast', 'maxDurationMs'],
      ['minCost=1e3', 'minCost'],
      ['minCost=2&maxCost=1', 'maxCost'],
      ['minDurationMs=10&maxDurationMs=5', 'maxDurationMs'],
      ['model=', 'model'],
      ['includeTraceSpans=yes', 'includeTraceSpans'],
      ['includeFinalOutput=', 'includeFinalOutput'],
      ['cursor=garbage!', 'cursor'],
      ['cursor=eyJ2IjoxfQ', 'cursor'],
      [`cursor=${desc.body.nextCursor}&order=asc`, 'cursor'],
      [`cursor=${ascCursor}`, 'cursor'],
      [`model=${'m'.repeat(201)}`, 'model'],
      [`workflowIds=${Array.from({ length: 101 }, (_, i) => `wf_${i}`).join(',')}`, 'workflowIds'],
      ['levle=error', 'levle'],
      ['level=info&level=error', 'level'],
    ];
    for (const [query, param] of cases) {
      const withWorkspace = param === 'workspaceId' ? query : `workspaceId=${t.workspaceId}&${query}`;
      const res = await t.request('GET', `/api/v1/logs?${withWorkspace}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.error).toEqual(expect.any(String));
      const paths = res.body.details.map((d: { path: string }) => d.path.split('.')[0]);
      expect(paths, query).toContain(param);
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('refuses values the database cannot take (NUL, dates beyond years 1–9999, forged cursors) with 400 naming them', async () => {
    // A real cursor with only its position moved: well-formed in every other way.
    const real = JSON.parse(Buffer.from((await list({ limit: 1 })).body.nextCursor, 'base64url').toString('utf8'));
    const forged = (ms: number) => Buffer.from(JSON.stringify({ ...real, t: ms })).toString('base64url');
    const cases: Array<[string, string]> = [
      ['startDate=0000-01-01', 'startDate'],
      ['endDate=0000-01-01', 'endDate'],
      // Well-formed, but year 0 and year 10000 once in UTC.
      ['startDate=0001-01-01T00:00:00%2B01:00', 'startDate'],
      ['endDate=9999-12-31T23:00:00-14:00', 'endDate'],
      ['model=%00', 'model'],
      ['model=a%00b', 'model'],
      [`cursor=${forged(Date.parse('+010000-01-01T00:00:00Z'))}`, 'cursor'],
      [`cursor=${forged(Date.parse('0000-12-31T23:59:59.999Z'))}`, 'cursor'],
    ];
    for (const [query, param] of cases) {
      const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path), query).toEqual([param]);
    }
    // The first and last storable instants are still filters like any other.
    const edges = await list({ startDate: '0001-01-01', endDate: '9999-12-31T23:59:59.999Z', limit: 1000 });
    expect(edges.status, edges.text).toBe(200);
    expect(edges.body.data).toHaveLength(rows.length);
  });

  it('reads a timestamp whose + offset was not percent-encoded', async () => {
    const last = [...rows].sort(byStartDesc)[0]!;
    const instant = last.startedAt.toISOString().replace('Z', '+00:00');
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&startDate=${instant}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual([last.id]);
  });

  it('needs an API key', async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`, { apiKey: null });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /api/v1/logs/{id}', () => {
  it('returns the log detail: entry fields, workflow, execution data, full cost and limits', async () => {
    const row = rows.find((r) => r.workflowId === ids.gpt)!;
    const res = await t.request('GET', `/api/v1/logs/${row.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(
      ['blockErrorCount', 'cost', 'deploymentVersion', 'endedAt', 'executionData', 'executionId', 'files', 'id', 'level', 'limits', 'parentExecutionId', 'requestId', 'approvals', 'error', 'rerunOf', 'rerunFromBlock', 'reruns', 'queuedMs', 'flowControl', 'startedAt', 'status', 'totalDurationMs', 'trigger', 'workflow', 'workflowId'].sort(),
    );
    expect(d).toMatchObject({
      id: row.id,
      workflowId: ids.gpt,
      executionId: row.executionId,
      level: 'info',
      trigger: 'api',
      startedAt: row.startedAt.toISOString(),
      endedAt: row.endedAt!.toISOString(),
      totalDurationMs: row.totalDurationMs,
      // Run straight through the service, not by a request (test/http/request-id.test.ts covers requests).
      requestId: null,
      // It never paused for an approval (test/runs/approvals.test.ts covers runs that did).
      approvals: null,
      error: null,
      workflow: { id: ids.gpt, name: 'WF gpt', description: '' },
      cost: {
        total: row.costTotal,
        tokens: { prompt: 100, completion: 20, total: 120 },
        models: { 'gpt-4o': { input: 0, output: 0, total: 0.02, tokens: { prompt: 100, completion: 20, total: 120 } } },
      },
    });
    expect(d.executionData.finalOutput).toEqual({ model: 'gpt-4o', tokens: { prompt: 100, completion: 20, total: 120 }, cost: 0.02, content: 'hello' });
    expect(d.executionData.traceSpans.map((s: { blockId: string }) => s.blockId)).toEqual(['start', 'llm']);
    expect(d.executionData.traceSpans[1]).toMatchObject({ model: 'gpt-4o', cost: 0.02, tokens: { total: 120 } });
    expect(d.limits.usage.plan).toBe('free');
    expect(d.limits.workflowExecutionRateLimit.async.limit).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
  });

  it('reports an error run with level error', async () => {
    const row = rows.find((r) => r.workflowId === ids.fail)!;
    const res = await t.request('GET', `/api/v1/logs/${row.id}`);
    expect(res.body.data.level).toBe('error');
    expect(res.body.data.executionData.traceSpans.at(-1)).toMatchObject({ status: 'error', error: expect.stringContaining('nope') });
  });

  it('answers 404 for an unknown id and 400 for a malformed one, with rate-limit headers', async () => {
    const missing = await t.request('GET', '/api/v1/logs/log_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect(missing.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const bad = await t.request('GET', `/api/v1/logs/${'x'.repeat(100)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('id');
  });
});

describe('GET /api/v1/logs/executions/{executionId}', () => {
  it('returns the snapshot that ran and the execution metadata, top-level, with limits', async () => {
    const row = rows.find((r) => r.workflowId === ids.slow)!;
    const res = await t.request('GET', `/api/v1/logs/executions/${row.executionId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['executionId', 'executionMetadata', 'limits', 'workflowId', 'workflowState']);
    expect(res.body.executionId).toBe(row.executionId);
    expect(res.body.workflowId).toBe(ids.slow);
    expect(res.body.workflowState).toEqual(states[ids.slow]);
    expect(Object.keys(res.body.workflowState).sort()).toEqual(['blocks', 'edges', 'loops', 'parallels']);
    expect(res.body.executionMetadata).toEqual({
      trigger: 'api',
      deploymentVersion: 1,
      startedAt: row.startedAt.toISOString(),
      endedAt: row.endedAt!.toISOString(),
      totalDurationMs: row.totalDurationMs,
      cost: { total: row.costTotal, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} },
      requestId: null,
    });
    expect(res.body.limits.usage).toMatchObject({ plan: 'free', limit: 10, isExceeded: false });
  });

  it('keeps the snapshot of the run even after the workflow changed', async () => {
    const row = rows.find((r) => r.workflowId === ids.fast)!;
    const [wf] = await t.app.db.select().from(workflows).where(eq(workflows.id, ids.fast));
    await updateWorkflow(t.app.db, wf!, { state: chain(trigger, fn('return { changed: true }')) });
    const res = await t.request('GET', `/api/v1/logs/executions/${row.executionId}`);
    expect(res.body.workflowState.blocks.fn.config.code).toBe('return { ok: true }');
  });

  it('answers 404 for an unknown execution', async () => {
    const res = await t.request('GET', '/api/v1/logs/executions/exec_doesnotexist');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('tenant isolation', () => {
  it('403 for a workspace the key cannot reach; 404 for its logs and executions, exactly like unknown ids', async () => {
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    const row = rows[0]!;
    const as = { apiKey: outsider.apiKey };
    const listed = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`, as);
    expect(listed.status).toBe(403);
    expect(listed.body.code).toBe('FORBIDDEN');
    const log = await t.request('GET', `/api/v1/logs/${row.id}`, as);
    const unknownLog = await t.request('GET', '/api/v1/logs/log_doesnotexist', as);
    expect(log.status).toBe(404);
    expect(log.body).toEqual(unknownLog.body);
    const execution = await t.request('GET', `/api/v1/logs/executions/${row.executionId}`, as);
    const unknownExecution = await t.request('GET', '/api/v1/logs/executions/exec_doesnotexist', as);
    expect(execution.status).toBe(404);
    expect(execution.body).toEqual(unknownExecution.body);
    // A workspace that does not exist is refused like one that exists elsewhere.
    expect((await t.request('GET', '/api/v1/logs?workspaceId=ws_doesnotexist')).status).toBe(403);

    // The outsider's own workspace works, and naming our workflows or folders in it finds nothing.
    const own = await t.request('GET', `/api/v1/logs?workspaceId=${outsider.workspaceId}&workflowIds=${ids.fast}&folderIds=${ids.folderA}`, as);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([]);
    expect(own.body.limits.usage.currentPeriodCost).toBe(0);
  });

  it('a workspace-scoped key reaches only its workspace; a personal key reaches all of its owner’s', async () => {
    const second = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Second' } });
    const workspaceId: string = second.body.data.id;
    const wf = await createWorkflow(t.app.db, { workspaceId, name: 'Elsewhere', state: chain(trigger, fn('return 1')) });
    const outcome = await runExecution(t.app, {
      workflow: { id: wf.id, workspaceId },
      state: checkState(wf.state),
      deploymentVersion: null,
      trigger: 'api',
      input: {},
    });

    // t.apiKey is scoped to Default.
    expect((await t.request('GET', `/api/v1/logs?workspaceId=${workspaceId}`)).status).toBe(403);
    expect((await t.request('GET', `/api/v1/logs/${outcome.logId}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/logs/executions/${outcome.executionId}`)).status).toBe(404);
    // Naming the other workspace's workflow from Default finds nothing.
    expect((await list({ workflowIds: wf.id })).body.data).toEqual([]);

    const personal = { apiKey: t.personalKey };
    const listed = await t.request('GET', `/api/v1/logs?workspaceId=${workspaceId}`, personal);
    expect(listed.body.data.map((l: { id: string }) => l.id)).toEqual([outcome.logId]);
    expect((await t.request('GET', `/api/v1/logs/${outcome.logId}`, personal)).status).toBe(200);
    expect((await t.request('GET', `/api/v1/logs/executions/${outcome.executionId}`, personal)).status).toBe(200);
    // Default's list is untouched by the other workspace's run.
    expect((await list({ limit: 1000 })).body.data.map((l: { id: string }) => l.id)).not.toContain(outcome.logId);
  });
});
