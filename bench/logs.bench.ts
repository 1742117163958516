// Logs API on many logs: p50/p99 of the first page and of a page ~1,000 pages deep, per filter combination, with
// the EXPLAIN plans behind them. Results go into bench/REPORT-logs.md (one section per database kind).
//
//   node --import tsx bench/logs.bench.ts [N]
//       PGlite in memory, N logs (default 100,000).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/logs.bench.ts [N]
//       PostgreSQL: a throw-away database is created on that server (and dropped afterwards), N default 1,000,000.
//
// While working on a plan (PostgreSQL only):
//   BENCH_KEEP_DATABASE=<name>  use that database and keep it afterwards: created and seeded on the first run, reused
//                               as it is on later ones (seeding 1M logs takes minutes). Drop it by hand when done.
//   BENCH_CASES=<regexp>        only the cases whose name matches; their plans go to stdout and the report is left alone.
//
// Data: 5 workspaces (the measured one holds 60% of the logs, the others 10% each), 10 workflows each (50 in all),
// seeded with INSERT … SELECT generate_series: start times evenly over 30 days, 5% errors, triggers api 3/7 and the
// other four 1/7 each (0.1% queue, from api's share), 2% of runs on deployment version 1 and the rest on 2, 10% of
// runs over a second (up to 30 s), 20% with a model (gpt-4o 10%, claude-sonnet-4 7%, gpt-4o-mini 3%), a three-span
// trace and a small final output per log.
//
// Two figures per case: `query` is the service call (listLogs: horizon lookup for asc + the page query + workflow
// names for details=full); `request` is the whole GET through the Hono app in-process (key lookup, rate-limit
// counter, workspace access, query, limits object), without a socket.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, count, sql } from 'drizzle-orm';
import pg from 'pg';
import { createAppCaches } from '../src/services/cache/app-caches.js';
import { createKeyUsage } from '../src/services/api-key-usage.js';
import type { ChangeFeed } from '../src/db/change-feed.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/client.js';
import { ensureExecutionPartitions } from '../src/db/executions-partitions.js';
import { executions, stateSnapshots, users, workflows, workspaceMembers, workspaces } from '../src/db/schema.js';
import { createApp } from '../src/http/app.js';
import { randomBase62 } from '../src/ids.js';
import { createLogger } from '../src/logger.js';
import { canAccessWorkspace } from '../src/services/access.js';
import { authenticateApiKey, generateApiKey, storeApiKey } from '../src/services/api-keys.js';
import { limitsObject, workspaceOwner } from '../src/services/limits.js';
import { createRateLimiter } from '../src/services/rate-limiter.js';
import { createAppContext } from '../src/app/context.js';
import type { FileStorage } from '../src/services/files/storage.js';
import {
  encodeCursor,
  keysetOrder,
  listLogs,
  logFilters,
  logsPageQuery,
  logsQuerySchema,
  modelWindowQuery,
  visibilityHorizon,
  walksModelWindow,
  type LogsQuery,
} from '../src/services/logs/index.js';

const serverUrl = process.env.BENCH_DATABASE_URL;
const kind: 'postgres' | 'pglite' = serverUrl ? 'postgres' : 'pglite';
const N = Number(process.argv[2] ?? (kind === 'postgres' ? 1_000_000 : 100_000));
if (!Number.isInteger(N) || N < 10_000) throw new Error('N must be a whole number ≥ 10000');
const WORKSPACES = 5;
const WORKFLOWS_PER_WORKSPACE = 10;
const SPAN_MS = 30 * 24 * 3600 * 1000;
const BASE = Date.parse('2025-01-01T00:00:00Z');
const DEEP_PAGES = 1000;
const WARMUP = 30;
const ITERATIONS = kind === 'postgres' ? 300 : 150;
const SNAPSHOT = 'bench-snapshot';
const REPORT = 'bench/REPORT-logs.md';
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE;
const ONLY = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : null;
if (KEEP_DATABASE !== undefined && (kind !== 'postgres' || !/^[a-z0-9_]+$/.test(KEEP_DATABASE))) {
  throw new Error('BENCH_KEEP_DATABASE needs BENCH_DATABASE_URL and a name of a-z, 0-9 and _');
}

const ws = (i: number) => `ws_bench_${i}`;
const wf = (w: number, i: number) => `wf_bench_${w}_${i}`;
const day = (d: number) => new Date(BASE + d * 24 * 3600 * 1000).toISOString();

interface Case {
  name: string;
  params: Record<string, string>;
  /** A query for the `executionId` to filter by (one of workspace 0's logs), when the case needs one. */
  executionIdOf?: string;
  /** Fewer rounds for cases that scan a whole workspace (seconds per call before the candidate indexes). */
  rounds?: { warmup: number; iterations: number };
}

const FEW = { warmup: 2, iterations: 20 };

const CASES: Case[] = [
  { name: 'no filter', params: {} },
  { name: 'workflowIds (1 of 10)', params: { workflowIds: wf(0, 3) } },
  { name: 'workflowIds (3 of 10)', params: { workflowIds: [wf(0, 1), wf(0, 4), wf(0, 7)].join(',') } },
  { name: 'level=error (5%)', params: { level: 'error' } },
  { name: 'triggers=webhook,schedule (29%)', params: { triggers: 'webhook,schedule' } },
  // Thin slices through the trigger's and the version's indexes (workspace, value), deduplicated: a bitmap, sorted.
  { name: 'triggers=queue (0.1%)', params: { triggers: 'queue' } },
  { name: 'deploymentVersion=1 (2%)', params: { deploymentVersion: '1' } },
  { name: 'deploymentVersion=2 (98%)', params: { deploymentVersion: '2' } },
  { name: 'date range (2 of 30 days)', params: { startDate: day(10), endDate: day(12) } },
  { name: 'minDurationMs=10000 (~6.5%)', params: { minDurationMs: '10000' } },
  { name: 'model=claude-sonnet-4 (7%)', params: { model: 'claude-sonnet-4' } },
  // Too sparse for a page within the model window's 2,000 rows: deep pages pay the window, then the ordinary query.
  { name: 'model=gpt-4o-mini (3%)', params: { model: 'gpt-4o-mini' } },
  { name: 'details=full', params: { details: 'full' } },
  { name: 'details=full + traceSpans + finalOutput', params: { details: 'full', includeTraceSpans: 'true', includeFinalOutput: 'true' } },
  { name: 'workflowIds (1) + level=error', params: { workflowIds: wf(0, 3), level: 'error' } },
  { name: 'poll: order=asc + startDate', params: { order: 'asc', startDate: day(1) } },
  // One log by its execution id: through the primary key (its id is the execution id's pair), or for a log written
  // before, through the index of those logs' execution ids (src/db/execution-lookup.ts).
  { name: 'executionId (a log written now)', params: {}, executionIdOf: `execution_id is null` },
  { name: 'executionId (a log written before)', params: {}, executionIdOf: `id <> 'log_' || substr(execution_id, 6)` },
];

/**
 * Filters that match (almost) nothing: the page query walks the workspace's whole (workspace_id, started_at)
 * range and checks every row. Measured without, then with candidate indexes (created on this throw-away
 * database only; the schema is not changed by the bench).
 */
const SELECTIVE_CASES: Case[] = [
  { name: 'model=gpt-5 (no match)', params: { model: 'gpt-5' }, rounds: FEW },
  { name: 'minDurationMs=29900 (~0.03%)', params: { minDurationMs: '29900' }, rounds: FEW },
  {
    name: 'level=error + model=claude-sonnet-4 + minDurationMs=10000 (~0.02%)',
    params: { level: 'error', model: 'claude-sonnet-4', minDurationMs: '10000' },
    rounds: FEW,
  },
  { name: 'level=error (5%)', params: { level: 'error' } },
];

const CANDIDATE_INDEXES = [
  `create index if not exists executions_ws_errors_idx on executions (workspace_id, started_at, id) where level = 'error'`,
  `create index if not exists executions_models_idx on executions using gin (models)`,
  `create index if not exists executions_ws_duration_idx on executions (workspace_id, total_duration_ms)`,
];

// ---- database ------------------------------------------------------------------------------------------------
async function openBenchDatabase(): Promise<{ database: Database; drop(): Promise<void>; version: string }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite' });
    return { database, drop: () => database.close(), version: await serverVersion(database.db) };
  }
  const name = KEEP_DATABASE ?? `sluice_bench_${randomBase62(8).toLowerCase()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  const exists = (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).length > 0;
  if (!exists) await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  return {
    database,
    version: await serverVersion(database.db),
    drop: async () => {
      await database.close();
      if (!KEEP_DATABASE) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function serverVersion(db: Db): Promise<string> {
  const rows = await rawQuery(db, 'select version() as v');
  return String(rows[0]?.v ?? '').split(' on ')[0]!;
}

/** Both drivers expose their client as `$client` with `query(text, params) → {rows}`. */
async function rawQuery(db: Db, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = (db as unknown as { $client: { query(t: string, p: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } }).$client;
  return (await client.query(text, params)).rows;
}

async function seed(db: Db): Promise<{ ownerId: string }> {
  const ownerIds = Array.from({ length: WORKSPACES }, (_, i) => `usr_bench_${i}`);
  await db.insert(users).values(ownerIds.map((id, i) => ({ id, email: `bench${i}@example.com`, plan: 'free' })));
  await db.insert(workspaces).values(ownerIds.map((ownerId, i) => ({ id: ws(i), name: `Bench ${i}`, ownerId })));
  await db.insert(workspaceMembers).values(ownerIds.map((userId, i) => ({ workspaceId: ws(i), userId, role: 'owner' })));
  const state = { blocks: {}, edges: [], loops: {}, parallels: {} };
  await db.insert(workflows).values(
    Array.from({ length: WORKSPACES * WORKFLOWS_PER_WORKSPACE }, (_, k) => {
      const w = Math.floor(k / WORKFLOWS_PER_WORKSPACE);
      const i = k % WORKFLOWS_PER_WORKSPACE;
      return { id: wf(w, i), workspaceId: ws(w), name: `Workflow ${w}.${i}`, description: 'bench', state, stateHash: 'h' };
    }),
  );
  await db.insert(stateSnapshots).values({ hash: SNAPSHOT, state });

  // On PostgreSQL the logs are partitioned by month: the months the data spans exist before it is written, as
  // housekeeping would have made them at the time (otherwise every row would land in the default partition).
  await ensureExecutionPartitions(db, new Date(BASE));
  const CHUNK = 100_000;
  for (let lo = 1; lo <= N; lo += CHUNK) {
    const hi = Math.min(N, lo + CHUNK - 1);
    await rawQuery(db, seedSql(lo, hi));
    process.stdout.write(`\rseeded ${hi.toLocaleString('en')} / ${N.toLocaleString('en')} logs`);
  }
  process.stdout.write('\n');
  // As autovacuum (PostgreSQL) or housekeeping (PGlite, db/pglite-vacuum.ts) leaves a table of logs: pages marked
  // all-visible (an index-only scan reads no heap page for them) and statistics for the planner.
  await rawQuery(db, 'vacuum analyze');
  return { ownerId: ownerIds[0]! };
}

/** Pseudo-random but reproducible per row: a hash of the row number and a salt, 0 ≤ h < mod. */
const h = (salt: string, mod: number) => `(abs(hashtext(g::text || '${salt}')::bigint) % ${mod})`;

function seedSql(lo: number, hi: number): string {
  return `
insert into executions (id, execution_id, workspace_id, workflow_id, deployment_version, snapshot_hash, trigger, status,
  level, started_at, ended_at, total_duration_ms, cost_total, cost, models, final_output, trace_spans, files, runner_id)
select
  -- Half the logs as runs write them now, their id the pair of their execution id (src/ids.ts pairedLogId), which
  -- they do not keep, half as written before: two ids apart (found by execution id through
  -- executions_unpaired_execution_id_idx).
  case when g % 2 = 0 then 'log_' || substr(md5('e' || g::text), 1, 20) else 'log_' || substr(md5(g::text), 1, 20) end,
  case when g % 2 = 0 then null else 'exec_' || substr(md5('e' || g::text), 1, 20) end,
  'ws_bench_' || w.ws,
  'wf_bench_' || w.ws || '_' || ${h('wf', WORKFLOWS_PER_WORKSPACE)},
  -- 2% of runs on an old version, the rest on the current one; 0.1% from a queue trigger, taken from api's share.
  case when ${h('v', 100)} < 2 then 1 else 2 end, '${SNAPSHOT}',
  case when ${h('q', 1000)} = 0 then 'queue' else (array['api','api','api','webhook','schedule','manual','chat'])[1 + ${h('t', 7)}] end,
  case when e.err then 'error' else 'success' end,
  case when e.err then 'error' else 'info' end,
  s.started, s.started + d.ms * interval '1 millisecond', d.ms,
  0.001 + m.cost,
  jsonb_build_object('total', 0.001 + m.cost, 'base', 0.001, 'input', m.cost / 2, 'output', m.cost / 2,
    'tokens', jsonb_build_object('prompt', m.tokens, 'completion', m.tokens / 4, 'total', m.tokens + m.tokens / 4),
    'models', case when m.model is null then '{}'::jsonb else jsonb_build_object(m.model, jsonb_build_object(
      'input', m.cost / 2, 'output', m.cost / 2, 'total', m.cost,
      'tokens', jsonb_build_object('prompt', m.tokens, 'completion', m.tokens / 4, 'total', m.tokens + m.tokens / 4))) end),
  case when m.model is null then null else array[m.model] end,
  jsonb_build_object('result', jsonb_build_object('n', g, 'ok', not e.err), 'stdout', ''),
  jsonb_build_array(
    jsonb_build_object('id', md5(g::text || 's1'), 'blockId', 'start', 'name', 'API', 'type', 'api_trigger',
      'status', 'success', 'startTime', s.started, 'endTime', s.started, 'duration', 0,
      'input', '{}'::jsonb, 'output', jsonb_build_object('input', jsonb_build_object('q', 'hello'))),
    jsonb_build_object('id', md5(g::text || 's2'), 'blockId', 'llm', 'name', 'LLM', 'type', 'agent',
      'status', 'success', 'startTime', s.started, 'endTime', s.started + d.ms * interval '1 millisecond',
      'duration', d.ms, 'input', jsonb_build_object('prompt', 'Summarise the ticket'),
      'output', jsonb_build_object('content', 'A short summary of the ticket text.')),
    jsonb_build_object('id', md5(g::text || 's3'), 'blockId', 'respond', 'name', 'Respond', 'type', 'response',
      'status', case when e.err then 'error' else 'success' end, 'startTime', s.started, 'endTime', s.started,
      'duration', 0, 'input', '{}'::jsonb, 'output', jsonb_build_object('status', 200))),
  null, 'bench'
from generate_series(${lo}, ${hi}) g
cross join lateral (select case when ${h('ws', 10)} < 6 then 0 else 1 + ${h('ws2', WORKSPACES - 1)} end as ws) w
cross join lateral (select ${h('lvl', 100)} < 5 as err) e
cross join lateral (select case when ${h('dur', 100)} < 90 then ${h('d2', 1000)} else 1000 + ${h('d3', 29000)} end as ms) d
cross join lateral (
  select case when x < 10 then 'gpt-4o' when x < 17 then 'claude-sonnet-4' when x < 20 then 'gpt-4o-mini' end as model,
         case when x < 20 then 0.002 + x / 1000.0 else 0 end as cost,
         case when x < 20 then 200 + x * 10 else 0 end as tokens
  from (select ${h('m', 100)} as x) r) m
cross join lateral (select timestamptz '2025-01-01T00:00:00Z' + (g::bigint * ${SPAN_MS} / ${N}) * interval '1 millisecond' as started) s`;
}

// ---- measuring -----------------------------------------------------------------------------------------------
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

async function time(
  fn: () => Promise<unknown>,
  rounds = { warmup: WARMUP, iterations: ITERATIONS },
): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < rounds.warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds.iterations; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

/** The cursor a client holds after `pages` pages (or after the last full page when the filter has fewer rows). */
async function deepCursor(db: Db, q: LogsQuery, horizon: Date | null): Promise<{ cursor: string | null; page: number }> {
  const where = logFilters(q);
  if (horizon) where.push(sql`${executions.startedAt} < ${horizon.toISOString()}::timestamptz`);
  const [{ n }] = await db.select({ n: count() }).from(executions).where(and(...where));
  const page = Math.min(DEEP_PAGES, Math.floor((n - 1) / q.limit));
  if (page < 1) return { cursor: null, page: 1 }; // a single page: the "deep" page is the first
  const [row] = await db
    .select({ startedAt: executions.startedAt, id: executions.id })
    .from(executions)
    .where(and(...where))
    .orderBy(...keysetOrder(q.order))
    .offset(page * q.limit - 1)
    .limit(1);
  return { cursor: encodeCursor(q.order, row!), page: page + 1 };
}

/** The plan of the query that answers the page: the model window's when it applies (it then answers this bench's pages). */
async function explain(db: Db, q: LogsQuery, horizon: Date | null): Promise<string> {
  const query = (walksModelWindow(q) ? modelWindowQuery(db, q, horizon) : logsPageQuery(db, q, horizon)).toSQL();
  const rows = await rawQuery(db, `explain (analyze, buffers, costs off) ${query.sql}`, query.params);
  const plan = rows.map((r) => String(Object.values(r)[0])).join('\n');
  return walksModelWindow(q) ? `-- the model window (services/logs/model-window.ts)\n${plan}` : plan;
}

const ms = (n: number) => n.toFixed(2);

interface Bench {
  db: Db;
  config: Config;
  http: ReturnType<typeof createApp>;
  apiKey: string;
  storage: FileStorage;
}

/** Each case: listLogs and the whole request, for the first page and the deep one; plus both EXPLAIN plans. */
async function measureCases({ db, config, http, apiKey, storage }: Bench, cases: Case[]): Promise<{ lines: string[]; plans: string[] }> {
  const lines: string[] = [];
  const plans: string[] = [];
  for (const c of cases) {
    if (ONLY && !ONLY.test(c.name)) continue;
    const params: Record<string, string> = { workspaceId: ws(0), ...c.params };
    if (c.executionIdOf) {
      const [row] = await rawQuery(db, `select coalesce(execution_id, 'exec_' || substr(id, 5)) as execution_id from executions where workspace_id = $1 and ${c.executionIdOf}
        order by started_at desc offset 1000 limit 1`, [ws(0)]);
      params.executionId = String(row!.execution_id);
    }
    const q = logsQuerySchema.parse(params);
    const horizon = q.order === 'asc' ? await visibilityHorizon(db, config, q) : null;
    const deep = await deepCursor(db, q, horizon);
    const deepParams = deep.cursor ? { ...params, cursor: deep.cursor } : params;
    const deepQ = logsQuerySchema.parse(deepParams);
    const get = (p: Record<string, string>) => async () => {
      const res = await http.request(`/api/v1/logs?${new URLSearchParams(p)}`, { headers: { 'x-api-key': apiKey } });
      if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const firstQuery = await time(() => listLogs(db, config, q, storage), c.rounds);
    const firstRequest = await time(get(params), c.rounds);
    const deepQuery = await time(() => listLogs(db, config, deepQ, storage), c.rounds);
    const deepRequest = await time(get(deepParams), c.rounds);
    const pair = (t: { p50: number; p99: number }) => `${ms(t.p50)} / ${ms(t.p99)}`;
    const line = `| ${c.name}${c.rounds ? ' *' : ''} | ${pair(firstQuery)} | ${pair(firstRequest)} | ${deep.page} | ${pair(deepQuery)} | ${pair(deepRequest)} |`;
    console.log(line);
    lines.push(line);
    const fence = (text: string) => ['```', text, '```'].join('\n');
    plans.push(
      [
        `<details><summary>${c.name}</summary>`,
        '',
        'First page:',
        '',
        fence(await explain(db, q, horizon)),
        '',
        `Page ${deep.page}:`,
        '',
        fence(await explain(db, deepQ, horizon)),
        '</details>',
        '',
      ].join('\n'),
    );
  }
  return { lines, plans };
}

const notLive: ChangeFeed = { subscribe: () => () => undefined, isLive: () => false };

/** The other steps of a logs request, each timed alone, so the request/query gap can be attributed. */
async function requestBreakdown(db: Db, config: Config, ownerId: string, apiKey: string): Promise<string[]> {
  const owner = { id: ownerId, plan: 'free' };
  const steps: Array<[string, () => Promise<unknown>]> = [
    // Read through (a feed that is never live): the database step, as on a cache miss.
    ['authenticate the API key (cache miss)', () => authenticateApiKey({ db, caches: createAppCaches(notLive), keyUsage: createKeyUsage(db) }, apiKey)],
    // A fresh limiter holds no lease, so every call reserves: the upsert a request pays when its lease runs out.
    ['count the request (rate-limit upsert, one commit)', () => createRateLimiter(db).consume({ bucket: 'logs', userId: `bench-${ownerId}`, limit: 1e9 })],
    ['workspace access check', () => canAccessWorkspace(db, { userId: ownerId, email: '', plan: 'free', keyId: '', keyWorkspaceId: ws(0) }, ws(0))],
    ['limits object (owner lookup + 3 reads)', async () => limitsObject(db, config, await workspaceOwner(db, ws(0)))],
  ];
  const lines: string[] = [];
  for (const [name, fn] of steps) {
    const { p50, p99 } = await time(fn);
    lines.push(`| ${name} | ${ms(p50)} / ${ms(p99)} |`);
  }
  return lines;
}

async function main() {
  const startedAt = Date.now();
  const loadAtStart = loadavg().map((n) => n.toFixed(1)).join(' ');
  const { database, drop, version } = await openBenchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  try {
    const { db } = database;
    console.log(`${kind}: ${version}; seeding ${N.toLocaleString('en')} logs`);
    const seedStarted = Date.now();
    // A kept database seeded by an earlier run is used as it is (its N is whatever that run seeded).
    const [{ seeded }] = await db.select({ seeded: count() }).from(workspaces);
    const reused = seeded > 0;
    const { ownerId } = reused ? { ownerId: 'usr_bench_0' } : await seed(db);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const config = loadConfig({
      SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      SLUICE_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // Counted like any request (one upsert each), but never refused during the bench.
      SLUICE_LIMIT_LOGS_FREE: '1000000000',
    });
    const app = await createAppContext(config, createLogger('silent'), database);
    const http = createApp(app);
    const apiKey = generateApiKey();
    await storeApiKey(db, { key: apiKey, userId: ownerId, workspaceId: ws(0), name: 'bench' });
    const [{ total }] = await db.select({ total: count() }).from(executions).where(sql`${executions.workspaceId} = ${ws(0)}`);

    const bench: Bench = { db, config, http, apiKey, storage: app.files.storage };
    const { lines: results, plans } = await measureCases(bench, CASES);
    const { lines: before, plans: beforePlans } = await measureCases(bench, SELECTIVE_CASES);
    for (const statement of CANDIDATE_INDEXES) await rawQuery(db, statement);
    await rawQuery(db, 'analyze executions');
    const { lines: after, plans: afterPlans } = await measureCases(bench, SELECTIVE_CASES);
    const breakdown = await requestBreakdown(db, config, ownerId, apiKey);

    const section = [
      `## ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} — ${N.toLocaleString('en')} logs`,
      '',
      `${version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}. ` +
        `${reused ? 'Seeded by an earlier run (BENCH_KEEP_DATABASE)' : `Seeded in ${seedSeconds.toFixed(0)} s`}; the measured workspace holds ${Number(total).toLocaleString('en')} logs. ` +
        `${ITERATIONS} sequential calls per figure after ${WARMUP} warm-up calls, page size 100, run ${new Date().toISOString().slice(0, 10)}; ` +
        `load average at the start ${loadAtStart}, at the end ${loadavg().map((n) => n.toFixed(1)).join(' ')} (the machine is shared: p99 carries scheduling noise).`,
      '',
      'Milliseconds, p50 / p99. `query` = listLogs (the service); `request` = the whole GET in-process (auth, rate-limit counter, access check, query, limits object). "Deep page" = the page a client reaches after following nextCursor that many times (1,000, or the filter\'s last page when it has fewer).',
      '',
      '| case | first page: query | first page: request | deep page # | deep page: query | deep page: request |',
      '|---|---|---|---|---|---|',
      ...results,
      '',
      'Where a request\'s time goes besides the page query (each step alone, same iterations):',
      '',
      '| step | p50 / p99 |',
      '|---|---|',
      ...breakdown,
      '',
      '### Filters that match almost nothing',
      '',
      `The page query walks the workspace's (workspace_id, started_at) index and checks each row, so its cost grows with the rows it must skip. Without, then with these candidate indexes (created on the bench database only). Cases marked * run ${FEW.iterations} calls after ${FEW.warmup} warm-up calls (their p99 is the slowest call).`,
      '',
      ...CANDIDATE_INDEXES.map((statement) => `- \`${statement}\``),
      '',
      '| case | indexes | first page: query | first page: request | deep page # | deep page: query | deep page: request |',
      '|---|---|---|---|---|---|---|',
      ...before.map((line) => line.replace(/^\| ([^|]+) \|/, '| $1 | schema only |')),
      ...after.map((line) => line.replace(/^\| ([^|]+) \|/, '| $1 | + candidates |')),
      '',
      '### EXPLAIN (ANALYZE, BUFFERS) of the page query',
      '',
      ...plans,
      '',
      '#### Selective filters, schema indexes only',
      '',
      ...beforePlans,
      '',
      '#### Selective filters, with the candidate indexes',
      '',
      ...afterPlans,
    ].join('\n');
    if (ONLY) {
      console.log([...plans, ...beforePlans, ...afterPlans].join('\n'));
      return;
    }
    writeSection(section);
    console.log(`wrote ${REPORT} (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);
    // The context shares `database`; it is closed (and on PostgreSQL dropped) once, in the finally below.
  } finally {
    await drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each database kind owns one section of the report, so PostgreSQL and PGlite runs do not overwrite each other. */
function writeSection(section: string) {
  const start = `<!-- logs-bench:${kind}:start -->`;
  const end = `<!-- logs-bench:${kind}:end -->`;
  const header =
    '# Logs API benchmark\n\nGenerated by `bench/logs.bench.ts` (see its header for the data set). Target (issue 5): p99 under 20 ms for every case on PostgreSQL.\n\n';
  let text = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : header;
  const block = `${start}\n${section}\n${end}`;
  const at = text.indexOf(start);
  const until = text.indexOf(end);
  text = at >= 0 && until > at ? text.slice(0, at) + block + text.slice(until + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(REPORT, text);
}

await main();
