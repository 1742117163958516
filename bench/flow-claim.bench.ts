// The claim cost under flow control (issue 27): 10,000 queued async runs over 1,000 keys (limit 1 each, one
// workspace), half of the keys full (a run of theirs is running), so every claim passes over the jobs of full keys.
// Times claimJobs (fair, 16 at a time) as a worker sends it, handing each claimed job back (release) so the queue
// stays the same size; the plain case — the same queue without flow keys — side by side.
//
// Run: node --import tsx bench/flow-claim.bench.ts [claims]
//      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres runs it on PostgreSQL.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.js';
import { claimJobs } from '../src/jobs/claim.js';
import { EXECUTION_JOB } from '../src/runs/async-executions.js';

const CLAIMS = Number(process.argv[2] ?? 200);
const JOBS = 10_000;
const KEYS = 1_000;
const serverUrl = process.env.BENCH_DATABASE_URL;

async function open(): Promise<{ database: Database; drop(): Promise<void> }> {
  if (!serverUrl) {
    const database = await openDatabase({ kind: 'pglite' });
    return { database, drop: () => database.close() };
  }
  const name = `sluice_bench_claim_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const database = await openDatabase({ kind: 'postgres', url: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString(), poolSize: 2 });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function fill(database: Database, keyed: boolean): Promise<void> {
  await database.db.execute(sql`delete from jobs`);
  await database.db.execute(sql`insert into jobs (id, kind, payload, status, run_at, tenant, flow_key, flow_limit)
    select 'q' || i, ${EXECUTION_JOB}, '{}'::jsonb, 'queued', now() - interval '1 hour' + i * interval '1 ms', 'ws_bench',
      ${keyed ? sql`'wf:' || (i % ${KEYS})` : sql`null`}, ${keyed ? sql`1` : sql`null`}
    from generate_series(0, ${JOBS - 1}) i`);
  // Half the keys are full: one run of each is running.
  await database.db.execute(sql`insert into jobs (id, kind, payload, status, run_at, tenant, flow_key, flow_limit, lease_until, locked_by)
    select 'r' || i, ${EXECUTION_JOB}, '{}'::jsonb, 'running', now(), 'ws_bench',
      ${keyed ? sql`'wf:' || i` : sql`null`}, ${keyed ? sql`1` : sql`null`}, now() + interval '1 hour', 'bench'
    from generate_series(0, ${KEYS / 2 - 1}) i`);
  await database.db.execute(sql`analyze jobs`);
}

async function measure(database: Database): Promise<{ medianMs: number; p95Ms: number; claimed: number }> {
  const times: number[] = [];
  let claimed = 0;
  for (let i = 0; i < CLAIMS; i++) {
    const started = performance.now();
    const result = await claimJobs(database.db, { workerId: 'bench', kinds: [{ kind: EXECUTION_JOB, limit: 16, fair: true }], now: Date.now(), leaseMs: 60_000 });
    times.push(performance.now() - started);
    claimed += result.jobs.length;
    const ids = result.jobs.map((job) => job.id);
    if (ids.length > 0) {
      await database.db.execute(sql`update jobs set status = 'queued', locked_by = null, lease_until = null
        where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
    }
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)], p95Ms: times[Math.floor(times.length * 0.95)], claimed: claimed / CLAIMS };
}

const { database, drop } = await open();
try {
  const rows: string[] = [];
  for (const keyed of [false, true]) {
    await fill(database, keyed);
    await measure(database); // warm-up
    const m = await measure(database);
    rows.push(`| ${keyed ? `${KEYS} keys, limit 1, half of them full` : 'no flow keys'} | ${m.medianMs.toFixed(2)} | ${m.p95Ms.toFixed(2)} | ${m.claimed.toFixed(1)} |`);
  }
  process.stdout.write(
    [
      `claim cost — ${serverUrl ? 'PostgreSQL' : 'embedded PGlite'}, ${JOBS} queued async runs, one workspace, ${CLAIMS} claims of up to 16`,
      '',
      '| queue | median ms per claim | p95 ms | jobs per claim |',
      '|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await drop();
}
process.exit(0);
