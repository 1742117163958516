// `level=error` with a duration, cost or model filter (the model through the index of failures' models,
// db/schema.ts `executions_failures_models_idx`): paging through such a combination by cursor returns exactly the
// completed failures that match, in order, with no gaps or duplicates, in both orders, over two months (two partitions
// on PostgreSQL), next to runs in flight, paused or resuming that carry the error level, a duration and a cost (only
// their status keeps them out), and another workspace's failures.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { prepareLogRows } from '../support/log-rows.js';

const LOGS = 800;
const BASE = Date.parse('2025-10-01T00:00:00Z');
/** 100 minutes apart: 800 logs span ~55 days. */
const STEP_MS = 100 * 60_000;

interface Log {
  id: string;
  status: string;
  level: string | null;
  durationMs: number;
  cost: number;
  models: string[];
}

const logs: Log[] = Array.from({ length: LOGS }, (_, i) => {
  const n = i + 1;
  const failed = n % 3 === 0;
  // Not logs yet, though they carry the error level, a duration and a cost as a finished failure would (a run that
  // failed, was re-run from a block and is going again keeps them, and the filters test nothing else).
  const status = n % 97 === 0 ? 'paused' : n % 89 === 0 ? 'running' : n % 83 === 0 ? 'resuming' : failed ? (n % 21 === 0 ? 'cancelled' : 'error') : 'success';
  return {
    id: `log_${String(n).padStart(4, '0')}`,
    status,
    level: failed || status === 'paused' || status === 'running' || status === 'resuming' ? 'error' : 'info',
    durationMs: (n * 37) % 1000,
    cost: (n % 10) / 100,
    models: [...(n % 2 === 0 ? ['gpt-4o'] : []), ...(n % 5 === 0 ? ['claude-sonnet-4'] : [])],
  };
});

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  const db = t.app.db;
  await prepareLogRows(t, 'failures', [0, 1, 2].map((month) => new Date(Date.UTC(2025, 9 + month, 1))));
  const start = (n: string) => sql`${new Date(BASE).toISOString()}::timestamptz + ${sql.raw(n)}::bigint * ${STEP_MS} * interval '1 millisecond'`;
  await db.execute(sql`
    insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
      started_at, ended_at, total_duration_ms, cost_total, models, final_output, trace_spans)
    select l.id, 'exec_' || l.id, ${t.workspaceId}, 'wf_failures', 'snap_failures', 'api', l.status, l.level,
      ${start('l.n')}, case when l.duration_ms is not null then ${start('l.n')} + l.duration_ms * interval '1 millisecond' end,
      l.duration_ms, l.cost, array(select jsonb_array_elements_text(l.models)), jsonb_build_object('n', l.n), '[]'::jsonb
    from jsonb_to_recordset(${JSON.stringify(logs.map((l, i) => ({ ...l, n: i + 1, duration_ms: l.durationMs })))}::jsonb)
      as l(n int, id text, status text, level text, duration_ms int, cost float8, models jsonb)`);
  // Another workspace's failures at the same times, matching every filter below.
  await db.execute(sql`
    insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
      started_at, ended_at, total_duration_ms, cost_total, models, final_output, trace_spans)
    select 'other_' || g, 'exec_other_' || g, 'ws_other_failures', 'wf_other_failures', 'snap_failures', 'api', 'error', 'error',
      ${start('g')}, ${start('g')} + interval '900 ms', 900, 0.09, array['gpt-4o', 'claude-sonnet-4'], '{}'::jsonb, '[]'::jsonb
    from generate_series(1, 300) g`);
});

afterAll(async () => t?.close());

/** Every page of the walk, following nextCursor until it is null. */
async function walk(params: Record<string, string>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ workspaceId: t.workspaceId, ...params, ...(cursor ? { cursor } : {}) });
    const res = await t.request('GET', `/api/v1/logs?${query}`);
    expect(res.status, res.text).toBe(200);
    pages.push((res.body.data as Array<{ id: string }>).map((l) => l.id));
    cursor = res.body.nextCursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return pages;
}

const completedFailures = (match: (log: Log) => boolean, order: 'asc' | 'desc') => {
  const ids = logs.filter((l) => (l.status === 'error' || l.status === 'cancelled') && match(l)).map((l) => l.id);
  return order === 'desc' ? ids.reverse() : ids;
};
const everyEnd = new Date(BASE + (LOGS + 1) * STEP_MS).toISOString();

describe('failures filtered by what else completion records', () => {
  it('pages through failures of a model over a duration, once each and in order, in both orders', async () => {
    const want = completedFailures((l) => l.models.includes('gpt-4o') && l.durationMs >= 300, 'desc');
    expect(want.length).toBeGreaterThan(60);
    const pages = await walk({ level: 'error', model: 'gpt-4o', minDurationMs: '300', limit: '25' });
    expect(pages.flat()).toEqual(want);
    expect(pages.slice(0, -1).every((p) => p.length === 25)).toBe(true);

    const asc = await walk({ level: 'error', model: 'gpt-4o', minDurationMs: '300', limit: '25', order: 'asc', endDate: everyEnd });
    expect(asc.flat()).toEqual([...want].reverse());
  });

  it('pages through failures over a cost alone, leaving out the runs not finished', async () => {
    const unfinished = logs.filter((l) => l.level === 'error' && ['paused', 'running', 'resuming'].includes(l.status) && l.cost >= 0.03);
    expect(unfinished.length).toBeGreaterThan(3);
    const pages = await walk({ level: 'error', minCost: '0.03', limit: '50' });
    expect(pages.flat()).toEqual(completedFailures((l) => l.cost >= 0.03, 'desc'));
  });

  it('applies cost and duration bounds and a rarer model the same way', async () => {
    const match = (l: Log) => l.models.includes('claude-sonnet-4') && l.cost >= 0.05 && l.durationMs <= 800;
    const pages = await walk({ level: 'error', model: 'claude-sonnet-4', minCost: '0.05', maxDurationMs: '800', limit: '4' });
    expect(pages.flat()).toEqual(completedFailures(match, 'desc'));
    expect(pages.flat().length).toBeGreaterThan(4);
  });

  it('gives each failure the same entry, with details and data, as the filter without the level', async () => {
    const params = { workspaceId: t.workspaceId, minDurationMs: '500', limit: '100', details: 'full', includeTraceSpans: 'true', includeFinalOutput: 'true' };
    const failures = await t.request('GET', `/api/v1/logs?${new URLSearchParams({ ...params, level: 'error' })}`);
    const all = await t.request('GET', `/api/v1/logs?${new URLSearchParams(params)}`);
    expect(failures.status, failures.text).toBe(200);
    const failed = (all.body.data as Array<{ level: string }>).filter((entry) => entry.level === 'error');
    expect(failed.length).toBeGreaterThan(10);
    expect(failures.body.data.slice(0, failed.length)).toEqual(failed);
    expect(failures.body.data[0]).toMatchObject({ workflow: { id: 'wf_failures' }, executionData: { traceSpans: [] } });
  });
});
