// Stored bytes per execution of the execute bench's flow (POST JSON → API block to a local echo → response), as logs
// were stored when issue 28 was filed (every span holds its input and output in full, the final output in its own
// jsonb column, that day's indexes) and as they are today (each value once, src/services/logs/stored-trace.ts, its
// spans packed and compressed with the final output into `trace_packed`, packed-trace.ts, and today's indexes,
// db/schema.ts), side by side in one run.
//
// The flow runs for real (in-process app, real engine, real recorder) so its row is written the way runs write
// rows; that row is then copied 10,000 times into two tables shaped like `executions`: one with the row as written and
// today's indexes, one with the trace and final output as the logs API reads them back (exactly the old format), the cost
// object every row kept before and the indexes of then. Copies get ids as long as real ones and start times one after
// another. The figure is each table's growth (heap + TOAST + indexes) per 10,000 runs.
//
//   node --import tsx bench/log-storage.bench.ts            (embedded PGlite)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/log-storage.bench.ts
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import { isExecution } from '../src/db/execution-lookup.js';
import { rowsOf } from '../src/db/rows.js';
import { toJsonText } from '../src/db/json.js';
import { storedTrace } from '../src/services/logs/columns.js';
import { withPackedFinalOutput } from '../src/services/logs/packed-trace.js';
import { readTrace } from '../src/services/logs/stored-trace.js';
import { BENCH_FLOW_BODIES, benchFlowState, startBenchApp, startEcho } from './support/bench-flow.js';

const RUNS = 10_000;
/** The log's indexes when issue 28 was filed (eead723), `$t` for the table; today's are read from `executions`. */
const INDEXES_WHEN_FILED = [
  'alter table $t add primary key (id)',
  'create unique index on $t (execution_id)',
  'create index on $t (workspace_id, started_at, id)',
  'create index on $t (workspace_id, workflow_id, started_at, id)',
  `create index on $t (workspace_id, started_at) where status = 'running'`,
  `create index on $t (workspace_id, started_at) where status in ('paused', 'resuming')`,
  'create index on $t using gin (models)',
  'create index on $t (workspace_id, total_duration_ms)',
  `create index on $t (workspace_id, started_at, id) where level = 'error'`,
  'create index on $t (workspace_id, started_at, id) where block_error_count > 0',
  'create index on $t (workspace_id, trigger, started_at, id)',
  'create index on $t (parent_execution_id) where parent_execution_id is not null',
  'create index on $t (rerun_of, started_at) where rerun_of is not null',
  'create index on $t (workspace_id, deployment_version, started_at, id)',
];
const serverUrl = process.env.BENCH_DATABASE_URL;
const BODIES = BENCH_FLOW_BODIES;

const { server: echo, url: echoUrl } = await startEcho();

const { app, kind, call, close, workspaceId } = await startBenchApp(serverUrl);

try {
  const state = benchFlowState(echoUrl);
  const created = await call('POST', '/api/v1/workflows', JSON.stringify({ workspaceId: workspaceId, name: 'bench', state }));
  await call('POST', `/api/v1/workflows/${created.body.data.id}/deploy`);
  for (const [n, BODY] of BODIES.entries()) {
  const ran = await call('POST', `/api/workflows/${created.body.data.id}/execute`, BODY);
  if (ran.status !== 200) throw new Error(`the bench flow failed: ${JSON.stringify(ran.body)}`);
  const executionId = ran.headers.get('x-execution-id')!;
  await app.recorder.drain();

  const [row] = await rowsOf<{ trace: unknown; final_output: unknown; cost: unknown; cost_total: number }>(
    app.db,
    sql`select ${storedTrace} as trace, final_output, cost, cost_total from executions where ${isExecution(executionId)}`,
  );
  // Before, every row kept its cost object; a run with no model now keeps none (services/cost.ts storedCost).
  const zero = { prompt: 0, completion: 0, total: 0 };
  const oldCost = row.cost ?? { total: row.cost_total, base: row.cost_total, input: 0, output: 0, tokens: zero, models: {} };
  // Before, the final output had its own jsonb column; now the packed trace holds it (packed-trace.ts `final`).
  const { traceSpans: unpacked, finalOutput } = withPackedFinalOutput({ traceSpans: row.trace, finalOutput: row.final_output });
  const oldTrace = readTrace(unpacked, finalOutput).spans;

  // Two tables shaped like executions, filled with RUNS copies of the row: as stored now (with today's indexes), and
  // as stored when issue 28 was filed (with that day's indexes). Each copy gets ids as long as real ones and a start
  // time after the one before, as runs arrive.
  const measure = async (table: string, format: 'now' | 'filed') => {
    await app.db.execute(sql.raw(`drop table if exists ${table}`));
    if (format === 'now') {
      await app.db.execute(sql.raw(`create table ${table} (like executions including defaults including indexes)`));
    } else {
      await app.db.execute(sql.raw(`create table ${table} (like executions including defaults)`));
      for (const index of INDEXES_WHEN_FILED) await app.db.execute(sql.raw(index.replaceAll('$t', table)));
    }
    const trace = format === 'now' ? sql`trace_spans, trace_packed` : sql`${toJsonText(oldTrace)}::jsonb, null::bytea`;
    const cost = format === 'now' ? sql`cost` : sql`${toJsonText(oldCost)}::jsonb`;
    const final = format === 'now' ? sql`final_output` : sql`${toJsonText(finalOutput)}::jsonb`;
    // Ids as runs make them. Now: the execution id begins with its time in milliseconds, then random characters
    // (src/ids.ts newExecutionId; hex here, in the same order), and the log id is its pair (pairedLogId), which says
    // it: the row keeps no execution id. When filed: two random ids.
    const idsOf = (done: number) => {
      if (format === 'filed') return sql`'log_' || left(md5(${table} || ${done} + g), 20), 'exec_' || left(md5(${done} + g || ${table}), 20)`;
      const suffix = sql`lpad(to_hex((extract(epoch from started_at) * 1000)::bigint + (${done} + g) * 7), 11, '0') || left(md5(${done} + g || ${table}), 9)`;
      return sql`'log_' || ${suffix}, null`;
    };
    const before = await sizeOf(table);
    for (let done = 0; done < RUNS; done += 1000) {
      await app.db.execute(sql`
        insert into ${sql.raw(table)} (id, execution_id, workspace_id, workflow_id, deployment_version, snapshot_hash, trigger,
          status, level, started_at, ended_at, total_duration_ms, cost_total, cost, models, final_output, trace_spans, trace_packed,
          files, error, block_error_count, runner_id, parent_execution_id, request_id, pause, rerun_of, rerun_from_block,
          queued_ms, flow_control)
        select ${idsOf(done)}, workspace_id,
          workflow_id, deployment_version, snapshot_hash, trigger, status, level, started_at + (${done} + g) * interval '7 ms',
          ended_at + (${done} + g) * interval '7 ms', total_duration_ms + g % 13, cost_total, ${cost}, models, ${final}, ${trace},
          files, error, block_error_count, runner_id, parent_execution_id, request_id, pause, rerun_of, rerun_from_block, queued_ms,
          flow_control
        from executions, generate_series(1, 1000) g where ${isExecution(executionId)}`);
    }
    await app.db.execute(sql.raw(`analyze ${table}`));
    const after = await sizeOf(table);
    return { heap: after.heap - before.heap, toast: after.toast - before.toast, indexes: after.indexes - before.indexes, total: after.total - before.total };
  };
  const sizeOf = async (table: string) => {
    const [s] = await rowsOf<{ heap: string; toast: string; indexes: string; total: string }>(
      app.db,
      sql`select pg_relation_size(c.oid) as heap, coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) as toast,
            pg_indexes_size(c.oid) as indexes, pg_total_relation_size(c.oid) as total
          from pg_class c where c.relname = ${table}`,
    );
    return { heap: Number(s.heap), toast: Number(s.toast), indexes: Number(s.indexes), total: Number(s.total) };
  };
  const old = await measure('bench_old_format', 'filed');
  const now = await measure('bench_new_format', 'now');
  const [widths] = await rowsOf<{ old_trace: number; new_trace: number; final: number }>(
    app.db,
    sql`select pg_column_size(${toJsonText(oldTrace)}::jsonb) as old_trace, pg_column_size(trace_packed) as new_trace,
          pg_column_size(${toJsonText(finalOutput)}::jsonb) as final from executions where ${isExecution(executionId)}`,
  );
  const kb = (n: number) => `${(n / 1024).toFixed(0).padStart(6)} KiB`;
  const line = (label: string, s: typeof old) =>
    `${label}  total ${kb(s.total)} (heap ${kb(s.heap)}, toast ${kb(s.toast)}, indexes ${kb(s.indexes)}) = ${(s.total / RUNS).toFixed(0)} bytes/execution`;
  console.log(`stored bytes per execution, bench flow (${Buffer.byteLength(BODY)}-byte body), ${kind}, ${RUNS.toLocaleString('en')} runs — ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 3).join(' ')}, node ${process.version}`);
  console.log(`trace: old format ${widths.old_trace} bytes (jsonb) + final_output ${widths.final} bytes (jsonb); each value once, packed with the final output, ${widths.new_trace} bytes (trace_packed)`);
  console.log(line('when filed: every span in full, its indexes', old));
  console.log(line("now: each value once, packed, today's indexes", now));
  console.log(`ratio ${(now.total / old.total).toFixed(2)}× of before (target ≤ 0.33×)`);
  // Which of today's indexes the bytes are: those under 1 byte/execution are left out.
  const indexes = await rowsOf<{ name: string; bytes: string }>(
    app.db,
    sql`select replace(c.relname, 'bench_new_format_', '') as name, pg_relation_size(c.oid) as bytes from pg_index x
        join pg_class c on c.oid = x.indexrelid where x.indrelid = 'bench_new_format'::regclass order by 2 desc`,
  );
  const shown = indexes.filter((i) => Number(i.bytes) / RUNS >= 1).map((i) => `${i.name} ${(Number(i.bytes) / RUNS).toFixed(0)}`);
  console.log(`indexes, bytes/execution: ${shown.join(', ')}${n < BODIES.length - 1 ? '\n' : ''}`);
  }
} finally {
  await close();
  echo.close();
}
