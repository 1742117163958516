// Stored bytes per execution of the execute bench's flow (POST JSON → API block to a local echo → response), in the
// log format of before issue 28 (every span holds its input and output in full) and in today's (each value once,
// src/services/logs/stored-trace.ts, its spans packed and compressed, packed-trace.ts), side by side in one run.
//
// The flow runs for real (in-process app, real engine, real recorder) so its row is written the way runs write
// rows; that row is then copied 10,000 times into two tables shaped like `executions` (same columns, same
// indexes): one with the row as written, one with the trace as the logs API reads it back (which is exactly the old
// format) and the cost object every row kept before. The figure is each table's growth (heap + TOAST + indexes) per 10,000 runs.
//
//   node --import tsx bench/log-storage.bench.ts            (embedded PGlite)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/log-storage.bench.ts
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/rows.js';
import { toJsonText } from '../src/db/json.js';
import { readTrace } from '../src/services/logs/stored-trace.js';
import { BENCH_FLOW_BODIES, benchFlowState, startBenchApp, startEcho } from './support/bench-flow.js';

const RUNS = 10_000;
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

  const [row] = await rowsOf<{ trace_spans: unknown; final_output: unknown; cost: unknown; cost_total: number }>(
    app.db,
    sql`select trace_spans, final_output, cost, cost_total from executions where execution_id = ${executionId}`,
  );
  // Before, every row kept its cost object; a run with no model now keeps none (services/cost.ts storedCost).
  const zero = { prompt: 0, completion: 0, total: 0 };
  const oldCost = row.cost ?? { total: row.cost_total, base: row.cost_total, input: 0, output: 0, tokens: zero, models: {} };
  const oldTrace = readTrace(row.trace_spans, row.final_output).spans;

  // Two tables shaped like executions, filled with RUNS copies of the row: as stored now, and in the old format.
  const measure = async (table: string, trace: unknown, cost: unknown) => {
    await app.db.execute(sql.raw(`drop table if exists ${table}`));
    await app.db.execute(sql.raw(`create table ${table} (like executions including defaults including indexes)`));
    const before = await sizeOf(table);
    for (let done = 0; done < RUNS; done += 1000) {
      await app.db.execute(sql`
        insert into ${sql.raw(table)} (id, execution_id, workspace_id, workflow_id, deployment_version, snapshot_hash, trigger,
          status, level, started_at, ended_at, total_duration_ms, cost_total, cost, models, final_output, trace_spans, files,
          error, block_error_count, runner_id, parent_execution_id, request_id, pause, rerun_of, rerun_from_block, queued_ms,
          flow_control)
        select 'log_' || ${done} || '_' || g, 'exec_' || ${done} || '_' || g, workspace_id, workflow_id,
          deployment_version, snapshot_hash, trigger, status, level, started_at + g * interval '1 ms', ended_at, total_duration_ms,
          cost_total, ${toJsonText(cost)}::jsonb, models, final_output, ${toJsonText(trace)}::jsonb, files, error, block_error_count, runner_id,
          parent_execution_id, request_id, pause, rerun_of, rerun_from_block, queued_ms, flow_control
        from executions, generate_series(1, 1000) g where execution_id = ${executionId}`);
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
  const old = await measure('bench_old_format', oldTrace, oldCost);
  const now = await measure('bench_new_format', row.trace_spans, row.cost);
  const [widths] = await rowsOf<{ old_trace: number; new_trace: number; final: number }>(
    app.db,
    sql`select pg_column_size(${toJsonText(oldTrace)}::jsonb) as old_trace, pg_column_size(${toJsonText(row.trace_spans)}::jsonb) as new_trace,
          pg_column_size(final_output) as final from executions where execution_id = ${executionId}`,
  );
  const kb = (n: number) => `${(n / 1024).toFixed(0).padStart(6)} KiB`;
  const line = (label: string, s: typeof old) =>
    `${label}  total ${kb(s.total)} (heap ${kb(s.heap)}, toast ${kb(s.toast)}, indexes ${kb(s.indexes)}) = ${(s.total / RUNS).toFixed(0)} bytes/execution`;
  console.log(`stored bytes per execution, bench flow (${Buffer.byteLength(BODY)}-byte body), ${kind}, ${RUNS.toLocaleString('en')} runs — ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 3).join(' ')}, node ${process.version}`);
  console.log(`trace_spans column: old format ${widths.old_trace} bytes, each value once, packed ${widths.new_trace} bytes; final_output ${widths.final} bytes`);
  console.log(line('old format (every span in full)', old));
  console.log(line('each value once, packed       ', now));
  console.log(`ratio ${(now.total / old.total).toFixed(2)}× of before (target ≤ 0.33×)`);
  // Which indexes the indexes' bytes are (the same in both tables): those under 1 byte/execution are left out.
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
