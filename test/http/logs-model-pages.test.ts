// Paging through a `model` filter by cursor returns exactly the completed logs that used the model, in order, with no
// gaps or duplicates: for a model in a fifth of the logs (each page found within the rows right after the cursor)
// and for one in four of 2,600 logs (pages found by the ordinary query after those rows held too few), over three
// months (three partitions on PostgreSQL), next to runs still in flight and another workspace's logs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { prepareLogRows } from '../support/log-rows.js';

const LOGS = 2600;
const BASE = Date.parse('2025-10-01T00:00:00Z');
/** 50 minutes apart: 2,600 logs span ~90 days. */
const STEP_MS = 50 * 60_000;
/** Far apart in the order, so that after the first the 2,000 logs past a cursor hold at most one of them (2550 is in flight). */
const RARE = new Set([7, 401, 2501, 2550, 2591]);

interface Log {
  n: number;
  id: string;
  models: string[];
  status: string;
}

const logs: Log[] = Array.from({ length: LOGS }, (_, i) => {
  const n = i + 1;
  const models = [...(n % 5 === 0 ? ['gpt-4o'] : []), ...(RARE.has(n) ? ['claude-sonnet-4'] : []), ...(n % 7 === 0 ? ['gpt-4o-mini'] : [])];
  // In flight or waiting for an approval: not logs yet, whatever models they used so far.
  const status = n % 50 === 0 ? 'running' : n % 75 === 0 ? 'paused' : 'success';
  return { n, id: `log_${String(n).padStart(5, '0')}`, models, status };
});

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  const db = t.app.db;
  await prepareLogRows(t, 'models', [0, 1, 2, 3].map((month) => new Date(Date.UTC(2025, 9 + month, 1))));
  const spec = JSON.stringify(logs.map(({ n, id, models, status }) => ({ n, id, models, status })));
  await db.execute(sql`
    insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
      started_at, ended_at, total_duration_ms, models, final_output, trace_spans)
    select l.id, 'exec_' || l.id, ${t.workspaceId}, 'wf_models', 'snap_models', 'api', l.status,
      case when l.status = 'success' then 'info' end,
      ${new Date(BASE).toISOString()}::timestamptz + l.n::bigint * ${STEP_MS} * interval '1 millisecond',
      case when l.status = 'success' then ${new Date(BASE).toISOString()}::timestamptz + l.n::bigint * ${STEP_MS} * interval '1 millisecond' + interval '20 ms' end,
      case when l.status = 'success' then 20 end,
      array(select jsonb_array_elements_text(l.models)), '{}'::jsonb, '[]'::jsonb
    from jsonb_to_recordset(${spec}::jsonb) as l(n int, id text, models jsonb, status text)`);
  // Another workspace's logs at the same times, with the same models.
  await db.execute(sql`
    insert into executions (id, execution_id, workspace_id, workflow_id, snapshot_hash, trigger, status, level,
      started_at, ended_at, total_duration_ms, models, final_output, trace_spans)
    select 'other_' || g, 'exec_other_' || g, 'ws_other_models', 'wf_other_models', 'snap_models', 'api', 'success', 'info',
      ${new Date(BASE).toISOString()}::timestamptz + g::bigint * ${STEP_MS} * interval '1 millisecond',
      ${new Date(BASE).toISOString()}::timestamptz + g::bigint * ${STEP_MS} * interval '1 millisecond' + interval '20 ms', 20,
      array['gpt-4o', 'claude-sonnet-4'], '{}'::jsonb, '[]'::jsonb
    from generate_series(1, 300) g`);
});

afterAll(async () => t?.close());

/** Every page of the walk, following nextCursor until it is null. */
async function walk(params: Record<string, string>): Promise<Array<{ ids: string[]; nextCursor: string | null }>> {
  const pages: Array<{ ids: string[]; nextCursor: string | null }> = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ workspaceId: t.workspaceId, ...params, ...(cursor ? { cursor } : {}) });
    const res = await t.request('GET', `/api/v1/logs?${query}`);
    expect(res.status, res.text).toBe(200);
    const ids = (res.body.data as Array<{ id: string }>).map((l) => l.id);
    cursor = res.body.nextCursor;
    pages.push({ ids, nextCursor: cursor });
    expect(pages.length).toBeLessThan(200);
  } while (cursor);
  return pages;
}

const expected = (model: string, order: 'asc' | 'desc') => {
  const ids = logs.filter((l) => l.status === 'success' && l.models.includes(model)).map((l) => l.id);
  return order === 'desc' ? ids.reverse() : ids;
};

describe('a model filter paged by cursor', () => {
  it('returns every completed log of a common model once, in order, in full pages', async () => {
    const want = expected('gpt-4o', 'desc');
    expect(want.length).toBeGreaterThan(400);
    const pages = await walk({ model: 'gpt-4o', limit: '100' });
    expect(pages.flatMap((p) => p.ids)).toEqual(want);
    expect(pages.slice(0, -1).every((p) => p.ids.length === 100)).toBe(true);

    const bounded = await walk({ model: 'gpt-4o', limit: '90', order: 'asc', endDate: new Date(BASE + (LOGS + 1) * STEP_MS).toISOString() });
    expect(bounded.flatMap((p) => p.ids)).toEqual(expected('gpt-4o', 'asc'));
  });

  it('gives a page reached by cursor the same entries, with details and data, as a first page over the same logs', async () => {
    const params = { workspaceId: t.workspaceId, model: 'gpt-4o', limit: '50', details: 'full', includeTraceSpans: 'true', includeFinalOutput: 'true' };
    const first = await t.request('GET', `/api/v1/logs?${new URLSearchParams(params)}`);
    const second = await t.request('GET', `/api/v1/logs?${new URLSearchParams({ ...params, cursor: first.body.nextCursor })}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data).toHaveLength(50);
    const same = await t.request('GET', `/api/v1/logs?${new URLSearchParams({ ...params, endDate: second.body.data[0].startedAt })}`);
    expect(second.body.data).toEqual(same.body.data);
    expect(second.body.data[0]).toMatchObject({ workflow: { id: 'wf_models' }, executionData: { traceSpans: [], finalOutput: {} } });
  });

  it('returns every completed log of a rare model once, in order, however far apart', async () => {
    const pages = await walk({ model: 'claude-sonnet-4', limit: '1' });
    expect(pages.map((p) => p.ids)).toEqual([['log_02591'], ['log_02501'], ['log_00401'], ['log_00007']]);
    expect(pages.at(-1)!.nextCursor).toBeNull();

    const asc = await walk({ model: 'claude-sonnet-4', limit: '3', order: 'asc', endDate: new Date(BASE + (LOGS + 1) * STEP_MS).toISOString() });
    expect(asc.flatMap((p) => p.ids)).toEqual(expected('claude-sonnet-4', 'asc'));
  });

  it('keeps a model filter with another filter of completion exact across pages', async () => {
    const pages = await walk({ model: 'gpt-4o-mini', level: 'info', limit: '40' });
    expect(pages.flatMap((p) => p.ids)).toEqual(expected('gpt-4o-mini', 'desc'));
    const none = await walk({ model: 'gpt-5', limit: '10' });
    expect(none).toEqual([{ ids: [], nextCursor: null }]);
  });
});
