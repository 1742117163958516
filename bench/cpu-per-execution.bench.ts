// CPU time per execution of the execute path, which — unlike req/s — hardly moves with what else the machine is doing:
// the execute bench's flow (POST JSON → HTTP POST of it to a local echo → answer with the echo's JSON) against a bare
// node:http proxy doing the same job (the floor) and `sluice serve`, each in its own process, loaded one at a time
// in alternating rounds; each round reads the process's own CPU time (process.cpuUsage() over IPC: user + system of
// every thread, so PGlite's thread counts on the embedded database) before and after, and divides by the requests it
// answered. Medians over the rounds are reported, with the floor's CPU per request beside them.
//
// Run: node --import tsx bench/cpu-per-execution.bench.ts [seconds per round] [rounds] [concurrency]
//      BENCH_DATABASE_URL=postgres://… measures Sluice on PostgreSQL too (side by side, BENCH_SIDE_BY_SIDE for
//      bench/run.ts); the PostgreSQL backend's CPU is not the server's and is not counted.
//      BENCH_BASELINE_DIR=/path/to/another/checkout (built, with node_modules) adds the same rows for that checkout:
//      before and after a change, in one run (several checkouts: their paths comma-separated).
//      BENCH_CPU_PROF_DIR=/dir starts this checkout's servers with `node --cpu-prof` writing there (the profile is
//      written when the server stops; the profiler's own cost shows in the figures, so compare without it).
//      BENCH_CPU_DATABASES=postgres (or pglite) measures on that database only.
//      BENCH_NODE_RED_DIR=/path (where `npm install node-red` was run) adds Node-RED doing the same flow (its CPU
//      from /proc), the peer the execute bench's throughput is compared with.
//      BENCH_CPU_PERF_DIR=/dir records an on-CPU profile of this checkout's servers in the first round with Linux
//      `perf record -e cpu-clock -g` (package linux-perf; JIT frames named by node's --perf-basic-prof): unlike
//      `--cpu-prof`, which samples wall time while JavaScript is on the stack, a system call that wakes another
//      process and loses the CPU to it is not counted as the caller's. Read with `perf report -i <file> --no-children`.
// PostgreSQL rows also give the CPU of the database's backends per request (from /proc): on a 2-core host it comes
// out of the same cores, and a peer that stores nothing has none.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent } from 'undici';
import { generateApiKey } from '../src/services/api-keys.js';
import { load } from './support/load.js';
import { startNodeRed } from './support/node-red.js';
import { baselineCheckouts, cpuSince, cpuMsOfBackends, cpuTimeMs, procCpuMs, startEchoServer, startFloorProxy, startSluiceServer, type BenchProcess } from './support/processes.js';
import { median } from './support/stats.js';

const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 5);
const CONCURRENCY = Number(process.argv[4] ?? 16);
/** Each server is loaded this long first: the JIT (and PGlite's WASM tiering) settle in the first seconds. */
const WARMUP_SECONDS = 8;
const dispatcher = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 60_000 });
const note = (text: string) => process.stderr.write(`${text}\n`);

const flow = (echoUrl: string) => ({
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: {} },
    call: { id: 'call', type: 'api', name: 'Call', config: { url: `${echoUrl}/echo`, method: 'POST', body: '<api.input>', retries: 0 } },
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

interface Target {
  label: string;
  server: BenchProcess;
  url: string;
  headers: Record<string, string>;
  /** Ratio of the server's CPU time to the requests answered, per round, in ms. */
  cpuMs: number[];
  /** PostgreSQL only: the bench database's name, and its backends' CPU time per request, per round, in ms. */
  database?: string;
  databaseCpuMs: number[];
  /** Recorded with perf in the first round (BENCH_CPU_PERF_DIR). */
  perf?: boolean;
  rps: number[];
  /** Share of the machine's CPU time left idle while it was loaded, per round (/proc/stat). */
  idle: number[];
  errors: number;
  cleanup(): Promise<void>;
}

const databaseUrl = process.env.BENCH_DATABASE_URL;
const profileDir = process.env.BENCH_CPU_PROF_DIR;
const perfDir = process.env.BENCH_CPU_PERF_DIR;
const admin = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;

async function startSluice(label: string, echoUrl: string, options: { postgres: boolean; bin?: string }): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const key = generateApiKey();
  const env: Record<string, string> = {
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: key,
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
    SLUICE_LIMIT_SYNC_FREE: 'unlimited',
    SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
    SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  };
  let dbName: string | undefined;
  if (options.postgres) {
    dbName = `sluice_bench_cpu_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await admin!.query(`CREATE DATABASE "${dbName}"`);
    env.DATABASE_URL = Object.assign(new URL(databaseUrl!), { pathname: `/${dbName}` }).toString();
  }
  const nodeArgs = options.bin ? [] : [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(perfDir ? ['--perf-basic-prof'] : [])];
  const server = await startSluiceServer(env, { bin: options.bin, nodeArgs });
  const me = await api(server.url, key, 'GET', '/api/v1/me');
  const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'bench', state: flow(echoUrl) });
  await api(server.url, key, 'POST', `/api/v1/workflows/${created.data.id}/deploy`);
  return {
    label,
    server,
    url: `${server.url}/api/workflows/${created.data.id}/execute`,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    cpuMs: [],
    database: dbName,
    databaseCpuMs: [],
    idle: [],
    perf: Boolean(perfDir) && !options.bin,
    rps: [],
    errors: 0,
    cleanup: async () => {
      await server.stop();
      if (dbName) await admin!.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The floor's and Node-RED's CPU come from /proc: they have no probe (clock ticks of 10 ms, enough over seconds). */
const procCpuOf = async (server: BenchProcess) => procCpuMs(server.child.pid!);

/**
 * The machine's CPU time so far, all cores, idle and in all (/proc/stat, clock ticks): idle time left while a server
 * is loaded says whether CPU is what bounds its throughput at this concurrency, or the time each request waits.
 */
function machineTicks(): { idle: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, n) => sum + n, 0) };
}

/** Records `pid` on-CPU with perf until the returned stop is called. */
function recordPerf(pid: number, file: string): () => Promise<void> {
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '999', '-g', '-p', String(pid), '-o', file], { stdio: 'ignore' });
  const exited = new Promise<void>((done) => perf.once('exit', () => done()).once('error', () => done()));
  return async () => {
    perf.kill('SIGINT');
    await exited;
  };
}

const echo = await startEchoServer();
const targets: Target[] = [];
const cpuOf = new Map<Target, (server: BenchProcess) => Promise<number>>();
try {
  if (admin) await admin.connect();
  /** A server without Sluice's probe (the floor, Node-RED): its CPU is read from /proc. */
  const addPeer = (label: string, server: BenchProcess, url: string) => {
    const target: Target = {
      label,
      server,
      url,
      headers: { 'content-type': 'application/json' },
      cpuMs: [],
      databaseCpuMs: [],
      idle: [],
      rps: [],
      errors: 0,
      cleanup: () => server.stop(),
    };
    targets.push(target);
    cpuOf.set(target, procCpuOf);
  };
  const floor = await startFloorProxy(echo.url);
  addPeer('floor: bare node:http proxy', floor, `${floor.url}/`);
  if (process.env.BENCH_NODE_RED_DIR) {
    const nodeRed = await startNodeRed(process.env.BENCH_NODE_RED_DIR, echo.url);
    addPeer(`Node-RED ${nodeRed.version} (stores nothing)`, nodeRed, `${nodeRed.url}/flow`);
  }
  const only = process.env.BENCH_CPU_DATABASES;
  const databases = [{ postgres: false, name: 'PGlite' }, ...(databaseUrl ? [{ postgres: true, name: 'PostgreSQL' }] : [])].filter(
    (database) => only === undefined || database.name.toLowerCase().startsWith(only),
  );
  for (const database of databases) {
    targets.push(await startSluice(`Sluice, ${database.name}`, echo.url, { postgres: database.postgres }));
    for (const baseline of baselineCheckouts()) {
      targets.push(await startSluice(`baseline (${baseline.dir}), ${database.name}`, echo.url, { postgres: database.postgres, bin: baseline.bin }));
    }
  }
  for (const target of targets) {
    note(`warming ${target.label}`);
    await load(dispatcher, [target.url], target.headers, WARMUP_SECONDS, CONCURRENCY);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const cpu = cpuOf.get(target) ?? cpuTimeMs;
      const before = await cpu(target.server);
      const databaseBefore = target.database ? await cpuMsOfBackends(admin!, target.database) : undefined;
      const stopPerf = target.perf && round === 0 ? recordPerf(target.server.child.pid!, join(perfDir!, `${target.label.replace(/\W+/g, '-')}.perf.data`)) : undefined;
      const machineBefore = machineTicks();
      const result = await load(dispatcher, [target.url], target.headers, SECONDS, CONCURRENCY);
      const machineAfter = machineTicks();
      target.idle.push((machineAfter.idle - machineBefore.idle) / (machineAfter.total - machineBefore.total));
      await stopPerf?.();
      const used = (await cpu(target.server)) - before;
      const requests = result.rps * SECONDS;
      target.cpuMs.push(used / requests);
      if (databaseBefore) target.databaseCpuMs.push(cpuSince(databaseBefore, await cpuMsOfBackends(admin!, target.database!)) / requests);
      target.rps.push(result.rps);
      target.errors += result.errors;
      note(`round ${round + 1} ${target.label}: ${result.rps.toFixed(0)} req/s, ${(used / requests).toFixed(3)} ms CPU/request`);
    }
  }
} finally {
  for (const target of targets) await target.cleanup().catch(() => undefined);
  await echo.stop();
  await dispatcher.close();
  await admin?.end();
}

const floorCpu = median(targets[0].cpuMs);
const lines = [
  `CPU per execution — ${ROUNDS} rounds × ${SECONDS} s per server, ${CONCURRENCY} concurrent, alternating — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  'flow: POST JSON → HTTP POST to a local echo → answer with its JSON; each server its own process; CPU = user + system of the server process',
  '(PGlite runs in the server process: its CPU is in the server column); database = the PostgreSQL backends of its database',
  '',
  '| | CPU ms/request per round | median CPU ms/request | database CPU ms/request | server + database | × floor CPU | median req/s | machine idle | errors |',
  '|---|---|---|---|---|---|---|---|---|',
  ...targets.map((t) => {
    const cpu = median(t.cpuMs);
    const database = t.databaseCpuMs.length > 0 ? median(t.databaseCpuMs) : undefined;
    const both = cpu + (database ?? 0);
    return `| ${t.label} | ${t.cpuMs.map((v) => v.toFixed(3)).join(' ')} | ${cpu.toFixed(3)} | ${database?.toFixed(3) ?? '—'} | ${both.toFixed(3)} | ${(cpu / floorCpu).toFixed(1)} | ${median(t.rps).toFixed(0)} | ${(100 * median(t.idle)).toFixed(0)} % | ${t.errors} |`;
  }),
];
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
