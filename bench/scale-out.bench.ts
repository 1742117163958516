// Scale-out of async runs over `worker` processes on one PostgreSQL (issue 28 item 6). Two `serve` processes cannot
// show scaling on two saturated cores, so this measures runs whose time is spent waiting: an API block to an upstream
// that answers after 500 ms, so CPU is not what limits them. For 1, 2 and 4 worker processes: a backlog of async
// calls is queued through a `serve --no-worker` process while no worker runs and held back until all the workers have
// started, then released at once for them to work off. Throughput is runs over the span from the first run's start to
// the last run's end (from the logs). Per run: commits are PostgreSQL's committed transactions
// (pg_stat_database.xact_commit) of the database while the workers ran — every statement outside a transaction is
// one, so this counts claims, outcomes, logs and the idle workers' looks alike; claims and statements are what the
// workers say they sent (their 'worker stopped' line); worker CPU is the worker processes' user + system time.
// A run that never finishes is reported, not waited for: once no run has finished for STALL_MS, the bench counts the
// runs still `running` (and their jobs), writes the workers' output to a file for a look, and goes on.
//
// Run: BENCH_DATABASE_URL=postgres://… node --import tsx bench/scale-out.bench.ts [runs per worker] [worker counts]
//      e.g. `… bench/scale-out.bench.ts 256 1,2,4`. BENCH_SLUICE_BIN: another checkout's bin/sluice.mjs for the workers;
//      BENCH_WORKER_NODE_ARGS: node options for the workers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). SLUICE_WORKER_CONCURRENCY (default 32) is what one process runs at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { generateApiKey } from '../src/services/api-keys.js';
import { SLUICE_BIN, startSluiceServer } from './support/processes.js';

const RUNS_PER_WORKER = Number(process.argv[2] ?? 256);
const WORKER_COUNTS = (process.argv[3] ?? '1,2,4').split(',').map(Number);
const UPSTREAM_DELAY_MS = 500;
/** No run finished for this long while some are unfinished: they are stuck (a run here takes ~0.5 s). */
const STALL_MS = Number(process.env.BENCH_STALL_MS ?? 60_000);
const CONCURRENCY_PER_WORKER = Number(process.env.SLUICE_WORKER_CONCURRENCY ?? 32);
/** Async runs take at most half a worker's slots (runs/async-executions.ts). */
const ASYNC_SLOTS = Math.max(1, Math.ceil(CONCURRENCY_PER_WORKER / 2));
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  // `npm run bench` runs every bench on PGlite too: worker processes share a database only on PostgreSQL.
  process.stdout.write('skipped: scale-out over worker processes needs PostgreSQL (BENCH_DATABASE_URL)\n');
  process.exit(0);
}
const note = (text: string) => process.stderr.write(`${text}\n`);
const dispatcher = new Agent({ connections: 32, keepAliveTimeout: 60_000 });

// The upstream: answers every request with its body after 500 ms.
const upstream = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat(chunks)), UPSTREAM_DELAY_MS);
  });
});
upstream.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

const flow = {
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: {} },
    call: { id: 'call', type: 'api', name: 'Call', config: { url: `${upstreamUrl}/wait`, method: 'POST', body: '<api.input>', retries: 0 } },
    out: { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<call.data>' } } },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'out' },
  ],
};

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as any;
}

/** `sluice worker`, resolved once it logs that it started; `output` keeps what it printed (for a stall's report). */
function startWorker(env: Record<string, string>, output: string[]): Promise<ChildProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SLUICE_') && name !== 'DATABASE_URL'));
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, process.env.BENCH_SLUICE_BIN ?? SLUICE_BIN, 'worker'], {
    env: { ...clean, LOG_LEVEL: 'info', SLUICE_WORKER_CONCURRENCY: String(CONCURRENCY_PER_WORKER), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const index = output.push('') - 1;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      output[index] = out;
      if (out.includes('worker started')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${out}`)));
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    // 'close': after its output is read to the end (the worker's last log line is wanted).
    child.once('close', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });

/** CPU time (user + system, every thread) a process has used, from /proc (Linux). */
function cpuSeconds(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** The worker's 'worker stopped' log line: its claim statements and all its statements since it started. */
function stoppedLine(output: string): { claims: number; statements: number } | undefined {
  const line = output.split('\n').find((l) => l.includes('"worker stopped"'));
  return line ? JSON.parse(line) : undefined;
}

interface Row {
  workers: number;
  runs: number;
  seconds: number;
  runsPerSecond: number;
  /** PostgreSQL's committed transactions while the workers ran, per run. */
  commitsPerRun: number;
  /** The workers' claim statements, per run (an idle worker's looks included). */
  claimsPerRun: number;
  /** Every statement the workers sent, per run. */
  statementsPerRun: number;
  /** The worker processes' CPU, per run. */
  cpuMsPerRun: number;
  failed: number;
  /** Averages per run: claim → run start, run start → end, run end → job outcome recorded. */
  beforeMs: number;
  runMs: number;
  afterMs: number;
  /** Runs that never finished (still `running`, or their job never settled) when the bench gave up waiting. */
  stuck: number;
}

const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
const rows: Row[] = [];
try {
  for (const workers of WORKER_COUNTS) {
    const runs = RUNS_PER_WORKER * Math.max(...WORKER_COUNTS);
    const dbName = `sluice_bench_scale_${Date.now()}`;
    await admin.query(`CREATE DATABASE "${dbName}"`);
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
    const key = generateApiKey();
    const env = {
      SLUICE_DATA_DIR: dataDir,
      SLUICE_BOOTSTRAP_API_KEY: key,
      SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
      SLUICE_LIMIT_SYNC_FREE: 'unlimited',
      SLUICE_LIMIT_ASYNC_FREE: 'unlimited',
      SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
      SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      DATABASE_URL: Object.assign(new URL(databaseUrl), { pathname: `/${dbName}` }).toString(),
    };
    const children: ChildProcess[] = [];
    try {
      // `serve` with its worker would start on the backlog: the calls are queued through one started without.
      const front = await startSluiceServer(env, { extraArgs: ['--no-worker'] });
      children.push(front.child);
      const me = await api(front.url, key, 'GET', '/api/v1/me');
      const created = await api(front.url, key, 'POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'scale', state: flow });
      await api(front.url, key, 'POST', `/api/v1/workflows/${created.data.id}/deploy`);
      note(`${workers} worker(s): queuing ${runs} async runs`);
      const executeUrl = `${front.url}/api/workflows/${created.data.id}/execute`;
      let next = 0;
      const queue = async () => {
        while (next < runs) {
          next++;
          const res = await request(executeUrl, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-execution-mode': 'async' },
            body: JSON.stringify({ n: next }),
            dispatcher,
          });
          await res.body.text();
          if (res.statusCode !== 202) throw new Error(`async call answered ${res.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, queue));
      const database = new pg.Client({ connectionString: env.DATABASE_URL });
      await database.connect();
      // The backlog is held back (due in a day, order kept) until every worker has started, so the first worker does
      // not work it off alone while the others are still booting (that start-up is seconds on a loaded host).
      await database.query("update jobs set run_at = run_at + interval '1 day' where status = 'queued'");
      const commits = async () => {
        await admin.query('select pg_stat_clear_snapshot()');
        const { rows: stat } = await admin.query('select xact_commit from pg_stat_database where datname = $1', [dbName]);
        return Number(stat[0]?.xact_commit ?? 0);
      };
      note(`${workers} worker(s): starting`);
      const workerOutput: string[] = [];
      const started = await Promise.all(Array.from({ length: workers }, () => startWorker(env, workerOutput)));
      children.push(...started);
      const cpuBefore = started.map(cpuSeconds);
      const commitsBefore = await commits();
      await database.query("update jobs set run_at = run_at - interval '1 day' where status = 'queued'");
      await database.query("select pg_notify('sluice_jobs', '')");
      let finishedRuns = 0;
      let lastProgress = Date.now();
      for (;;) {
        const { rows: done } = await database.query("select count(*)::int as n from executions where status not in ('running')");
        if (done[0].n >= runs) break;
        if (done[0].n > finishedRuns) [finishedRuns, lastProgress] = [done[0].n, Date.now()];
        if (Date.now() - lastProgress > STALL_MS) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const commitsAfter = await commits();
      const cpuAfter = started.map(cpuSeconds);
      const { rows: span } = await database.query(
        `select count(*) filter (where status <> 'running')::int as runs,
                count(*) filter (where status not in ('success', 'running'))::int as failed,
                extract(epoch from max(ended_at) - min(started_at))::float8 as seconds from executions`,
      );
      // Where an async slot's time goes, per run: claim → run start, the run itself, run end → outcome recorded.
      const { rows: phases } = await database.query(
        `select avg(extract(epoch from e.started_at - j.started_at))::float8 * 1000 as before_ms,
                avg(extract(epoch from e.ended_at - e.started_at))::float8 * 1000 as run_ms,
                avg(extract(epoch from j.completed_at - e.ended_at))::float8 * 1000 as after_ms
         from jobs j join executions e on e.execution_id = j.payload->>'executionId'
         where j.kind = 'execution.run' and j.status in ('completed', 'failed')`,
      );
      const stuck = runs - span[0].runs;
      if (stuck > 0) {
        const { rows: stuckRows } = await database.query(
          `select e.execution_id, e.status as run, e.started_at, j.id as job, j.status as job_status, j.attempts, j.locked_by, j.lease_until
           from jobs j left join executions e on e.execution_id = j.payload->>'executionId'
           where j.kind = 'execution.run' and (j.status not in ('completed', 'failed') or e.status = 'running' or e.status is null)`,
        );
        const file = join(tmpdir(), `scale-out-stuck-${workers}-${Date.now()}.log`);
        writeFileSync(file, `${JSON.stringify(stuckRows, null, 2)}\n\n${workerOutput.join('\n----- next worker -----\n')}`);
        note(`${workers} worker(s): ${stuck} of ${runs} runs never finished (nothing finished for ${STALL_MS / 1000} s); their rows and the workers' output: ${file}`);
      }
      await database.end();
      // Each worker logs its claim statements and all its statements when it stops.
      await Promise.all(started.map(stopChild));
      const stopped = workerOutput.map(stoppedLine);
      const seconds = Number(span[0].seconds);
      const finished = span[0].runs;
      const row = {
        workers,
        runs: finished,
        seconds,
        runsPerSecond: finished / seconds,
        commitsPerRun: (commitsAfter - commitsBefore) / finished,
        claimsPerRun: stopped.reduce((sum, line) => sum + (line?.claims ?? NaN), 0) / finished,
        statementsPerRun: stopped.reduce((sum, line) => sum + (line?.statements ?? NaN), 0) / finished,
        cpuMsPerRun: (1000 * cpuAfter.reduce((sum, after, i) => sum + after - cpuBefore[i], 0)) / finished,
        failed: span[0].failed,
        stuck,
        beforeMs: Number(phases[0].before_ms),
        runMs: Number(phases[0].run_ms),
        afterMs: Number(phases[0].after_ms),
      };
      rows.push(row);
      note(
        `${workers} worker(s): ${row.runsPerSecond.toFixed(1)} runs/s, ${row.commitsPerRun.toFixed(2)} commits/run, ` +
          `${row.claimsPerRun.toFixed(2)} claims/run, ${row.cpuMsPerRun.toFixed(1)} worker CPU ms/run`,
      );
    } finally {
      await Promise.all(children.map(stopChild));
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await admin.end();
  upstream.close();
  await dispatcher.close();
}

const one = rows.find((r) => r.workers === 1);
const lines = [
  `async runs over worker processes on one PostgreSQL — API block to an upstream answering in ${UPSTREAM_DELAY_MS} ms, ` +
    `${CONCURRENCY_PER_WORKER} runs at once per worker — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  '',
  '| worker processes | runs | seconds | runs/s | × 1 worker | commits/run | claims/run | statements/run | worker CPU ms/run | failed | never finished |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.workers} | ${r.runs} | ${r.seconds.toFixed(2)} | ${r.runsPerSecond.toFixed(1)} | ${one ? (r.runsPerSecond / one.runsPerSecond).toFixed(2) : '—'} | ${r.commitsPerRun.toFixed(2)} | ${r.claimsPerRun.toFixed(2)} | ${r.statementsPerRun.toFixed(2)} | ${r.cpuMsPerRun.toFixed(1)} | ${r.failed} | ${r.stuck} |`,
  ),
  '',
  `Where an async slot's time goes (${ASYNC_SLOTS} slots per worker), ms per run: from the job's claim to the run's start, ` +
    'the run, from its end to the outcome recorded, and the slot idle between a job and the next claim (the rest of the cycle).',
  '',
  '| worker processes | claim → start | run | end → outcome | slot idle | slot cycle |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const cycle = (1000 * ASYNC_SLOTS * r.workers) / r.runsPerSecond;
    const idle = cycle - r.beforeMs - r.runMs - r.afterMs;
    return `| ${r.workers} | ${r.beforeMs.toFixed(1)} | ${r.runMs.toFixed(1)} | ${r.afterMs.toFixed(1)} | ${idle.toFixed(1)} | ${cycle.toFixed(1)} |`;
  }),
];
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
