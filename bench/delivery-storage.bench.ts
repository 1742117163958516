// Stored bytes of completion-webhook deliveries per execution of the execute bench's flow (POST JSON → API block to a
// local echo → response), with 1 and 3 subscriptions that ask for the final output and the trace spans.
//
// The flow runs for real (in-process app, real engine, real recorder), so the delivery rows are written the way runs
// write them, in the log's statement. No worker runs: the deliveries stay pending, as they are between the run's
// commit and their first attempt. The figure is the growth of the `deliveries` table (heap + TOAST + indexes) over
// RUNS executions, per execution, and the average width of one row (pg_column_size).
//
//   node --import tsx bench/delivery-storage.bench.ts            (embedded PGlite)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/delivery-storage.bench.ts
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/rows.js';
import { BENCH_FLOW_BODIES, benchFlowState, startBenchApp, startEcho } from './support/bench-flow.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const serverUrl = process.env.BENCH_DATABASE_URL;
const BODIES = BENCH_FLOW_BODIES;

const { server: echo, url: echoUrl } = await startEcho();

const { app, kind, call, close, workspaceId } = await startBenchApp(serverUrl, { SLUICE_LIMIT_SYNC_FREE: 'unlimited' });
const deliveriesSize = async () => {
  const [s] = await rowsOf<{ total: string }>(app.db, sql`select pg_total_relation_size('deliveries') as total`);
  return Number(s.total);
};

try {
  const state = benchFlowState(echoUrl);
  console.log(`stored bytes of deliveries per execution, bench flow, ${kind}, ${RUNS} runs each — ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 3).join(' ')}, node ${process.version}`);
  console.log('subscriptions ask for finalOutput and traceSpans (pending deliveries: no worker runs)');
  for (const BODY of BODIES) {
    for (const subscriptions of [1, 3]) {
      const created = await call('POST', '/api/v1/workflows', JSON.stringify({ workspaceId: workspaceId, name: `bench-${subscriptions}`, state }));
      const workflowId = created.body.data.id as string;
      await call('POST', `/api/v1/workflows/${workflowId}/deploy`);
      for (let i = 0; i < subscriptions; i++) {
        const sub = await call(
          'POST',
          `/api/v1/workflows/${workflowId}/webhooks`,
          JSON.stringify({ url: `${echoUrl}/hook-${i}`, secret: 'bench-secret', includeFinalOutput: true, includeTraceSpans: true }),
        );
        if (sub.status !== 201) throw new Error(`could not subscribe: ${JSON.stringify(sub.body)}`);
      }
      const before = await deliveriesSize();
      for (let run = 0; run < RUNS; run++) {
        const ran = await call('POST', `/api/workflows/${workflowId}/execute`, BODY);
        if (ran.status !== 200) throw new Error(`the bench flow failed: ${JSON.stringify(ran.body)}`);
      }
      await app.recorder.drain();
      await app.db.execute(sql`analyze deliveries`);
      const after = await deliveriesSize();
      const [row] = await rowsOf<{ rows: number; width: string; body: string }>(
        app.db,
        sql`select count(*)::int as rows, avg(pg_column_size(d.*)) as width, coalesce(avg(octet_length(d.body)), 0) as body
            from deliveries d where d.workflow_id = ${workflowId}`,
      );
      if (row.rows !== RUNS * subscriptions) throw new Error(`expected ${RUNS * subscriptions} deliveries, found ${row.rows}`);
      console.log(
        `${String(Buffer.byteLength(BODY)).padStart(5)}-byte body, ${subscriptions} subscription${subscriptions > 1 ? 's' : ' '}: ` +
          `${((after - before) / RUNS).toFixed(0).padStart(6)} bytes/execution (table growth); a row ${Number(row.width).toFixed(0)} bytes, its body column ${Number(row.body).toFixed(0)} bytes`,
      );
    }
  }
} finally {
  await close();
  echo.close();
}
