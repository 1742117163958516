// Execute endpoint throughput and latency, side by side in one run: the same flow everywhere — POST JSON → HTTP POST
// of it to a local echo → answer with the echo's JSON — through a bare node:http proxy (the floor), Sluice on embedded
// PGlite, Sluice on PostgreSQL with one and with two `serve` processes, and Node-RED when BENCH_NODE_RED_DIR names an
// installed node-red (no persistence: the peer that stores nothing). Every server is its own process; the load
// generator (this process) keeps CONCURRENCY requests in flight over keep-alive connections.
// Also: single-client latency, event-loop lag and memory of the Sluice process under load, and, on PostgreSQL,
// committed transactions per execution (each statement outside a transaction is one).
//
// Run: node --import tsx bench/execute.bench.ts [seconds] [concurrency]
//      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres adds the PostgreSQL rows (BENCH_SIDE_BY_SIDE:
//      bench/run.ts runs this file once, with the database URL, rather than once per database).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent } from 'undici';
import { generateApiKey } from '../src/services/api-keys.js';
import { load, type LoadResult } from './support/load.js';
import { startNodeRed } from './support/node-red.js';
import { probe, resetLag, startEchoServer, startFloorProxy, startSluiceServer, type BenchProcess, type ProbeReading } from './support/processes.js';

const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const WARMUP_SECONDS = 2;
const dispatcher = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 60_000 });
/** Progress on stderr; the report (stdout) is the table at the end. */
const note = (text: string) => process.stderr.write(`${text}\n`);


async function measure(urls: string[], headers: Record<string, string>) {
  note(`measuring ${urls[0]}`);
  await load(dispatcher, urls, headers, WARMUP_SECONDS, CONCURRENCY);
  const loaded = await load(dispatcher, urls, headers, SECONDS, CONCURRENCY);
  const single = await load(dispatcher, urls.slice(0, 1), headers, Math.min(5, SECONDS), 1);
  return { loaded, single };
}

// ---- Sluice ----------------------------------------------------------------------------------------------------

const flow = (echoUrl: string) => ({
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: {} },
    call: {
      id: 'call',
      type: 'api',
      name: 'Call',
      config: { url: `${echoUrl}/echo`, method: 'POST', body: '<api.input>', retries: 0 },
    },
    out: { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<call.data>' } } },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'out' },
  ],
});

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as any;
}

async function deployFlow(server: BenchProcess, key: string, echoUrl: string): Promise<string> {
  const me = await api(server.url, key, 'GET', '/api/v1/me');
  const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'bench', state: flow(echoUrl) });
  await api(server.url, key, 'POST', `/api/v1/workflows/${created.data.id}/deploy`);
  return created.data.id;
}

const sluiceEnv = (key: string, dataDir: string): Record<string, string> => ({
  SLUICE_DATA_DIR: dataDir,
  SLUICE_BOOTSTRAP_API_KEY: key,
  SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
  SLUICE_LIMIT_SYNC_FREE: 'unlimited',
  SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
});

interface Row {
  label: string;
  result: { loaded: LoadResult; single: LoadResult };
  probe?: ProbeReading;
  transactionsPerRun?: number;
}

async function benchSluice(label: string, servers: BenchProcess[], key: string, echoUrl: string, database?: pg.Client, dbName?: string): Promise<Row> {
  note(`measuring ${label}`);
  const workflowId = await deployFlow(servers[0], key, echoUrl);
  note('deployed');
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const urls = servers.map((s) => `${s.url}/api/workflows/${workflowId}/execute`);
  await load(dispatcher, urls, headers, WARMUP_SECONDS, CONCURRENCY);
  await Promise.all(servers.map(resetLag));
  const commitsBefore = database ? await commits(database, dbName!) : 0;
  const loaded = await load(dispatcher, urls, headers, SECONDS, CONCURRENCY);
  note(`loaded: ${loaded.rps.toFixed(0)} req/s`);
  const commitsAfter = database ? await commits(database, dbName!) : 0;
  const reading = await probe(servers[0]);
  note('probed');
  const single = await load(dispatcher, urls.slice(0, 1), headers, Math.min(5, SECONDS), 1);
  return {
    label,
    result: { loaded, single },
    probe: reading,
    transactionsPerRun: database ? (commitsAfter - commitsBefore) / (loaded.rps * SECONDS) : undefined,
  };
}

async function commits(client: pg.Client, dbName: string): Promise<number> {
  // The statistics collector reports with a small delay; a snapshot read is enough for a ratio over 10 s.
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query('select xact_commit from pg_stat_database where datname = $1', [dbName]);
  return Number(rows[0]?.xact_commit ?? 0);
}

// ---- the run ----------------------------------------------------------------------------------------------------

const echo = await startEchoServer();
const rows: Row[] = [];
const stops: Array<() => Promise<void>> = [() => echo.stop()];
try {
  const floor = await startFloorProxy(echo.url);
  stops.push(() => floor.stop());
  const floorRow: Row = { label: 'floor: bare node:http proxy', result: await measure([`${floor.url}/`], { 'content-type': 'application/json' }) };
  rows.push(floorRow);
  await floor.stop();

  if (process.env.BENCH_NODE_RED_DIR) {
    const nodeRed = await startNodeRed(process.env.BENCH_NODE_RED_DIR, echo.url);
    rows.push({ label: `Node-RED ${nodeRed.version} (stores nothing)`, result: await measure([`${nodeRed.url}/flow`], { 'content-type': 'application/json' }) });
    await nodeRed.stop();
  }

  {
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
    const key = generateApiKey();
    // Started once to create the data directory, then again: what runs in production is a restarted server.
    await (await startSluiceServer(sluiceEnv(key, dataDir))).stop();
    const server = await startSluiceServer(sluiceEnv(key, dataDir));
    rows.push(await benchSluice('Sluice, embedded PGlite', [server], key, echo.url));
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    for (const processes of [1, 2]) {
      const dbName = `sluice_bench_${Date.now()}`;
      await admin.query(`CREATE DATABASE "${dbName}"`);
      const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
      const key = generateApiKey();
      const env = { ...sluiceEnv(key, dataDir), DATABASE_URL: Object.assign(new URL(databaseUrl), { pathname: `/${dbName}` }).toString() };
      const servers: BenchProcess[] = [];
      for (let i = 0; i < processes; i++) servers.push(await startSluiceServer(env));
      rows.push(await benchSluice(`Sluice, PostgreSQL, ${processes} serve process${processes > 1 ? 'es' : ''}`, servers, key, echo.url, admin, dbName));
      note('stopping');
      await Promise.all(servers.map((s) => s.stop()));
      note('stopped');
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    }
    await admin.end();
  }
} finally {
  for (const stop of stops) await stop().catch(() => undefined);
  await dispatcher.close();
}

const floorRps = rows[0].result.loaded.rps;
const f = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits));
const lines = [
  `execute endpoint — ${SECONDS} s per row, ${CONCURRENCY} concurrent — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  'flow: POST JSON → HTTP POST to a local echo → answer with its JSON; every server in its own process',
  '',
  '| | req/s | p50 ms | p99 ms | × floor | 1 client p50 ms | loop lag p99 ms | RSS / peak MB | commits/run | errors |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map((row) => {
    const { loaded, single } = row.result;
    const memory = row.probe ? `${f(row.probe.rssMb, 0)} / ${f(row.probe.peakRssMb, 0)}` : '—';
    return `| ${row.label} | ${f(loaded.rps, 0)} | ${f(loaded.p50, 2)} | ${f(loaded.p99, 2)} | ${f(loaded.rps / floorRps, 3)} | ${f(single.p50, 2)} | ${f(row.probe?.lagP99Ms, 2)} | ${memory} | ${f(row.transactionsPerRun, 2)} | ${loaded.errors + single.errors} |`;
  }),
];
// Written before exiting: a pipe may not have taken console output yet when the process ends.
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
