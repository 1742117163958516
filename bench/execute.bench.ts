// Execute endpoint throughput and latency, side by side in one run: the same flow everywhere — POST JSON → HTTP POST
// of it to a local echo → answer with the echo's JSON — through a bare node:http proxy (the floor), Sluice on embedded
// PGlite, Sluice on PostgreSQL with one and with two `serve` processes, and Node-RED when BENCH_NODE_RED_DIR names an
// installed node-red (no persistence: the peer that stores nothing). Every server is its own process; the load
// generator (this process) keeps CONCURRENCY requests in flight over keep-alive connections.
// Every server is started first and warmed up as long as cpu-per-execution.bench.ts warms them (the JIT and PGlite's
// WASM tiers settle in the first seconds); then each is loaded in turn, ROUNDS times, the order reversed every round,
// and each figure is the median of its rounds. A host's speed can drift by a third within minutes (its neighbours'
// load): loading each server once, one after the other, took that drift for a difference between the servers. While
// one server is loaded, the others are stopped (SIGSTOP), so their idle work takes nothing from it.
// Also: single-client latency, event-loop lag and memory of the Sluice process under load, and, on PostgreSQL,
// committed transactions per execution (each statement outside a transaction is one).
//
// Run: node --import tsx bench/execute.bench.ts [seconds per round] [concurrency] [rounds]
//      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres adds the PostgreSQL rows (BENCH_SIDE_BY_SIDE:
//      bench/run.ts runs this file once, with the database URL, rather than once per database).
//      BENCH_BASELINE_DIR=/path/to/another/checkout (built, with node_modules; several comma-separated) adds its
//      PGlite row: before and after a change, in one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Agent } from 'undici';
import { generateApiKey } from '../src/services/api-keys.js';
import { load, type LoadResult } from './support/load.js';
import { startNodeRed } from './support/node-red.js';
import { baselineCheckouts, probe, resetLag, startEchoServer, startFloorProxy, startSluiceServer, type BenchProcess, type ProbeReading } from './support/processes.js';
import { median } from './support/stats.js';

const SECONDS = Number(process.argv[2] ?? 5);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const ROUNDS = Number(process.argv[4] ?? 4);
/** As long as cpu-per-execution.bench.ts warms each server. */
const WARMUP_SECONDS = 8;
/** Idle time before each round, so that what the server loaded last still does (a commit, a collection) ends first. */
const PAUSE_SECONDS = 1;
const dispatcher = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 60_000 });
/** Progress on stderr; the report (stdout) is the table at the end. */
const note = (text: string) => process.stderr.write(`${text}\n`);

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

interface Target {
  label: string;
  urls: string[];
  headers: Record<string, string>;
  /** Its processes: stopped (SIGSTOP) while another target is loaded. */
  processes: BenchProcess[];
  /** A Sluice row: its processes answer the probe (lag, memory); the floor's and Node-RED's do not. */
  probed: boolean;
  /** PostgreSQL rows: the bench database, for its commits. */
  database?: { client: pg.Client; name: string };
  rounds: LoadResult[];
  /** A Sluice row's first process, probed right after each round (its loop lag since the round began). */
  probes: ProbeReading[];
  commits: number;
  single?: LoadResult;
}

async function commits(client: pg.Client, dbName: string): Promise<number> {
  // The statistics collector reports with a small delay; a snapshot read is enough for a ratio over many seconds.
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query('select xact_commit from pg_stat_database where datname = $1', [dbName]);
  return Number(rows[0]?.xact_commit ?? 0);
}

/**
 * Only `target`'s processes get the CPU: the others are stopped (SIGSTOP) until their own round. An idle Sluice process
 * is not idle for the CPU — job polls, heartbeats, a collection now and then: ~2 % of a core measured — and that
 * would fall on whichever server is loaded meanwhile.
 */
function runOnly(target: Target): void {
  for (const other of targets) {
    for (const { child } of other.processes) child.kill(other === target ? 'SIGCONT' : 'SIGSTOP');
  }
}

const runAll = () => targets.forEach((target) => target.processes.forEach(({ child }) => child.kill('SIGCONT')));

async function loadRound(target: Target): Promise<void> {
  await sleep(PAUSE_SECONDS * 1000);
  runOnly(target);
  if (target.probed) await Promise.all(target.processes.map(resetLag));
  const before = target.database ? await commits(target.database.client, target.database.name) : 0;
  const result = await load(dispatcher, target.urls, target.headers, SECONDS, CONCURRENCY);
  if (target.database) target.commits += (await commits(target.database.client, target.database.name)) - before;
  if (target.probed) target.probes.push(await probe(target.processes[0]));
  target.rounds.push(result);
  note(`${target.label}: ${result.rps.toFixed(0)} req/s`);
}

// ---- the run ----------------------------------------------------------------------------------------------------

const echo = await startEchoServer();
const targets: Target[] = [];
/** Run in reverse order of adding: a database's servers stop before it is dropped, and before its admin connection ends. */
const stops: Array<() => Promise<void>> = [() => echo.stop()];
const addTarget = (label: string, urls: string[], headers: Record<string, string>, processes: BenchProcess[], sluice?: { database?: Target['database'] }) =>
  targets.push({ label, urls, headers, processes, probed: sluice !== undefined, database: sluice?.database, rounds: [], probes: [], commits: 0 });
const plainJson = { 'content-type': 'application/json' };
try {
  const floor = await startFloorProxy(echo.url);
  stops.push(() => floor.stop());
  addTarget('floor: bare node:http proxy', [`${floor.url}/`], plainJson, [floor]);

  if (process.env.BENCH_NODE_RED_DIR) {
    const nodeRed = await startNodeRed(process.env.BENCH_NODE_RED_DIR, echo.url);
    stops.push(() => nodeRed.stop());
    addTarget(`Node-RED ${nodeRed.version} (stores nothing)`, [`${nodeRed.url}/flow`], plainJson, [nodeRed]);
  }

  // This checkout's PGlite row, then the same row for each other checkout named in BENCH_BASELINE_DIR.
  for (const baseline of [undefined, ...baselineCheckouts()]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
    const key = generateApiKey();
    const bin = baseline?.bin;
    // Started once to create the data directory, then again: what runs in production is a restarted server.
    await (await startSluiceServer(sluiceEnv(key, dataDir), { bin })).stop();
    const server = await startSluiceServer(sluiceEnv(key, dataDir), { bin });
    stops.push(async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const workflowId = await deployFlow(server, key, echo.url);
    const label = baseline ? `baseline (${baseline.dir}), embedded PGlite` : 'Sluice, embedded PGlite';
    addTarget(label, [`${server.url}/api/workflows/${workflowId}/execute`], { 'x-api-key': key, ...plainJson }, [server], {});
  }

  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    stops.push(() => admin.end());
    for (const processes of [1, 2]) {
      const dbName = `sluice_bench_${Date.now()}_${processes}`;
      await admin.query(`CREATE DATABASE "${dbName}"`);
      const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
      const key = generateApiKey();
      const env = { ...sluiceEnv(key, dataDir), DATABASE_URL: Object.assign(new URL(databaseUrl), { pathname: `/${dbName}` }).toString() };
      const servers: BenchProcess[] = [];
      stops.push(async () => {
        await Promise.all(servers.map((s) => s.stop()));
        await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
        rmSync(dataDir, { recursive: true, force: true });
      });
      for (let i = 0; i < processes; i++) servers.push(await startSluiceServer(env));
      const workflowId = await deployFlow(servers[0], key, echo.url);
      const urls = servers.map((s) => `${s.url}/api/workflows/${workflowId}/execute`);
      const label = `Sluice, PostgreSQL, ${processes} serve process${processes > 1 ? 'es' : ''}`;
      addTarget(label, urls, { 'x-api-key': key, ...plainJson }, servers, { database: { client: admin, name: dbName } });
    }
  }

  for (const target of targets) {
    note(`warming ${target.label}`);
    await load(dispatcher, target.urls, target.headers, WARMUP_SECONDS, CONCURRENCY);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) await loadRound(target);
  }
  for (const target of targets) {
    runOnly(target);
    target.single = await load(dispatcher, target.urls.slice(0, 1), target.headers, Math.min(5, SECONDS), 1);
  }
} finally {
  // A stopped process would not hear SIGTERM.
  runAll();
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await dispatcher.close();
}

const rps = (target: Target) => median(target.rounds.map((r) => r.rps));
const floorRps = rps(targets[0]);
const nodeRed = targets.find((target) => target.label.startsWith('Node-RED'));
const f = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits));
const lines = [
  `execute endpoint — ${ROUNDS} rounds of ${SECONDS} s per row, alternating, medians; ${CONCURRENCY} concurrent — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  'flow: POST JSON → HTTP POST to a local echo → answer with its JSON; every server in its own process',
  '',
  '| | req/s | req/s per round | p50 ms | p99 ms | × floor | × Node-RED | 1 client p50 ms | loop lag p99 ms | RSS / peak MB | commits/run | errors |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...targets.map((target) => {
    const last = target.probes.at(-1);
    const memory = last ? `${f(last.rssMb, 0)} / ${f(last.peakRssMb, 0)}` : '—';
    const runs = target.rounds.reduce((sum, r) => sum + r.rps * SECONDS, 0);
    const lag = target.probes.length > 0 ? median(target.probes.map((p) => p.lagP99Ms)) : undefined;
    const errors = target.rounds.reduce((sum, r) => sum + r.errors, 0) + (target.single?.errors ?? 0);
    const perRound = target.rounds.map((r) => f(r.rps, 0)).join(' ');
    const p50 = median(target.rounds.map((r) => r.p50));
    const p99 = median(target.rounds.map((r) => r.p99));
    return `| ${target.label} | ${f(rps(target), 0)} | ${perRound} | ${f(p50, 2)} | ${f(p99, 2)} | ${f(rps(target) / floorRps, 3)} | ${nodeRed ? f(rps(target) / rps(nodeRed), 2) : '—'} | ${f(target.single?.p50, 2)} | ${f(lag, 2)} | ${memory} | ${target.database ? f(target.commits / runs, 2) : '—'} | ${errors} |`;
  }),
];
// Written before exiting: a pipe may not have taken console output yet when the process ends.
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
