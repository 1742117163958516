// Scale-out of async runs over `worker` processes on one PostgreSQL (issue 28 item 6). Two `serve` processes cannot
// show scaling on two saturated cores, so this measures runs whose time is spent waiting: an API block to an upstream
// that answers after 500 ms, so CPU is not what limits them. For 1, 2 and 4 worker processes: a backlog of async
// calls is queued through a `serve --no-worker` process while no worker runs, then the workers start and work it off.
// Throughput is runs over the span from the first run's start to the last run's end (from the logs, so worker
// start-up is not counted); statements are PostgreSQL's committed transactions (pg_stat_database.xact_commit) of the
// database while the workers ran, per run — every statement outside a transaction is one, so this counts claims,
// outcomes, logs and the idle workers' looks alike.
//
// Run: BENCH_DATABASE_URL=postgres://… node --import tsx bench/scale-out.bench.ts [runs per worker] [worker counts]
//      e.g. `… bench/scale-out.bench.ts 256 1,2,4`. BENCH_SLUICE_BIN: another checkout's bin/sluice.mjs for the workers. SLUICE_WORKER_CONCURRENCY (default 32) is what one process runs at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
const CONCURRENCY_PER_WORKER = Number(process.env.SLUICE_WORKER_CONCURRENCY ?? 32);
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is required: scale-out is measured on PostgreSQL');
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

/** `sluice worker`, resolved once it logs that it started. */
function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SLUICE_') && name !== 'DATABASE_URL'));
  const child = spawn(process.execPath, [process.env.BENCH_SLUICE_BIN ?? SLUICE_BIN, 'worker'], {
    env: { ...clean, LOG_LEVEL: 'info', SLUICE_WORKER_CONCURRENCY: String(CONCURRENCY_PER_WORKER), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
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
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });

interface Row {
  workers: number;
  runs: number;
  seconds: number;
  runsPerSecond: number;
  commitsPerRun: number;
  failed: number;
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
      const commits = async () => {
        await admin.query('select pg_stat_clear_snapshot()');
        const { rows: stat } = await admin.query('select xact_commit from pg_stat_database where datname = $1', [dbName]);
        return Number(stat[0]?.xact_commit ?? 0);
      };
      const commitsBefore = await commits();
      note(`${workers} worker(s): starting`);
      for (let i = 0; i < workers; i++) children.push(await startWorker(env));
      for (;;) {
        const { rows: done } = await database.query("select count(*)::int as n from executions where status not in ('running')");
        if (done[0].n >= runs) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const commitsAfter = await commits();
      const { rows: span } = await database.query(
        `select count(*)::int as runs, count(*) filter (where status <> 'success')::int as failed,
                extract(epoch from max(ended_at) - min(started_at))::float8 as seconds from executions`,
      );
      await database.end();
      const seconds = Number(span[0].seconds);
      const row = {
        workers,
        runs: span[0].runs,
        seconds,
        runsPerSecond: span[0].runs / seconds,
        commitsPerRun: (commitsAfter - commitsBefore) / span[0].runs,
        failed: span[0].failed,
      };
      rows.push(row);
      note(`${workers} worker(s): ${row.runsPerSecond.toFixed(1)} runs/s, ${row.commitsPerRun.toFixed(2)} commits/run`);
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
  '| worker processes | runs | seconds | runs/s | × 1 worker | commits/run | failed |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.workers} | ${r.runs} | ${r.seconds.toFixed(2)} | ${r.runsPerSecond.toFixed(1)} | ${one ? (r.runsPerSecond / one.runsPerSecond).toFixed(2) : '—'} | ${r.commitsPerRun.toFixed(2)} | ${r.failed} |`,
  ),
];
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
