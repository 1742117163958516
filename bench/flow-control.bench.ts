// The cost of flow control on the execute path (issue 27): the same flow — POST JSON → HTTP POST of it to a local echo →
// answer with the echo's JSON — deployed three times: without flow control, with a concurrency limit of 1 per key where
// each call has its own key (`<api.order>`, a fresh order number per call: a slot is taken and freed per run, no call
// ever waits), and with one shared key of limit 1000 (every call takes a slot of the same key: the slot-number race).
// Rounds alternate between the workflows so drift hits all alike; the table gives req/s and the ratio to the plain flow,
// and the CPU time per request of the server process and of the PostgreSQL backends serving the bench database
// (from /proc): on a shared machine these move far less with other load than req/s does.
//
// Run: node --import tsx bench/flow-control.bench.ts [seconds] [concurrency] [rounds]
//      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres runs it on PostgreSQL (bench/run.ts runs it on
//      both databases). BENCH_CPU_PROF_DIR=/dir writes a `node --cpu-prof` profile of the server there.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { generateApiKey } from '../src/services/api-keys.js';
import { cpuMsOfBackends, cpuSince, procCpuMs, startEchoServer, startSluiceServer, type BenchProcess } from './support/processes.js';

const SECONDS = Number(process.argv[2] ?? 5);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const ROUNDS = Number(process.argv[4] ?? 3);
const dispatcher = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 60_000 });
const note = (text: string) => process.stderr.write(`${text}\n`);

const flow = (echoUrl: string, flowControl?: Record<string, unknown>) => ({
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'order', type: 'number' }, { name: 'note', type: 'string' }] } },
    call: { id: 'call', type: 'api', name: 'Call', config: { url: `${echoUrl}/echo`, method: 'POST', body: { order: '<api.order>' }, retries: 0 } },
    out: { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<call.data>' } } },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'out' },
  ],
  ...(flowControl ? { flowControl } : {}),
});

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as any;
}

async function deploy(server: BenchProcess, key: string, name: string, state: unknown): Promise<string> {
  const me = await api(server.url, key, 'GET', '/api/v1/me');
  const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name, state });
  if (!created.data) throw new Error(`could not create ${name}: ${JSON.stringify(created)}`);
  await api(server.url, key, 'POST', `/api/v1/workflows/${created.data.id}/deploy`);
  return created.data.id;
}

let nextOrder = 0;

/** Keeps CONCURRENCY calls in flight for `seconds`, each with its own order number; answers req/s and errors. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<{ rps: number; errors: number }> {
  let done = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const order = ++nextOrder;
      try {
        const res = await request(url, { method: 'POST', headers, body: JSON.stringify({ order, note: 'bench' }), dispatcher });
        const text = await res.body.text();
        if (res.statusCode !== 200 || !text.includes(`"order":${order}`)) errors++;
      } catch {
        errors++;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { rps: done / seconds, errors };
}

const env = (key: string, dataDir: string): Record<string, string> => ({
  SLUICE_DATA_DIR: dataDir,
  SLUICE_BOOTSTRAP_API_KEY: key,
  SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
  SLUICE_LIMIT_SYNC_FREE: 'unlimited',
  SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
});

const VARIANTS = [
  { label: 'no flow control', flowControl: undefined },
  { label: 'concurrency 1 per key, a key per call', flowControl: { concurrency: { limit: 1, key: '<api.order>' } } },
  { label: 'one shared key, limit 1000', flowControl: { concurrency: { limit: 1000, key: '<api.note>' } } },
].filter((_, i) => !process.env.BENCH_FLOW_ONLY || process.env.BENCH_FLOW_ONLY.split(",").includes(String(i)));

const echo = await startEchoServer();
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-flow-'));
const key = generateApiKey();
let admin: pg.Client | undefined;
let dbName: string | undefined;
let serverEnv = env(key, dataDir);
if (databaseUrl) {
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  dbName = `sluice_bench_flow_${Date.now()}`;
  await admin.query(`CREATE DATABASE "${dbName}"`);
  serverEnv = { ...serverEnv, DATABASE_URL: Object.assign(new URL(databaseUrl), { pathname: `/${dbName}` }).toString() };
}
const totals = VARIANTS.map(() => ({ rps: [] as number[], errors: 0, serverCpuMs: 0, databaseCpuMs: 0, requests: 0 }));

/** CPU time of the PostgreSQL backends serving the bench database. */
const backendsCpuMs = async () => (admin ? cpuMsOfBackends(admin, dbName!) : new Map<number, number>());
try {
  if (!databaseUrl) await (await startSluiceServer(serverEnv)).stop();
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const server = await startSluiceServer(serverEnv, { nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
  try {
    const ids = [];
    for (const [i, variant] of VARIANTS.entries()) ids.push(await deploy(server, key, `bench ${i}`, flow(echo.url, variant.flowControl)));
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const urls = ids.map((id) => `${server.url}/api/workflows/${id}/execute`);
    for (const url of urls) await load(url, headers, 2); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, url] of urls.entries()) {
        const serverBefore = procCpuMs(server.child.pid!);
        const databaseBefore = await backendsCpuMs();
        const result = await load(url, headers, SECONDS);
        totals[i].serverCpuMs += procCpuMs(server.child.pid!) - serverBefore;
        totals[i].databaseCpuMs += cpuSince(databaseBefore, await backendsCpuMs());
        totals[i].requests += result.rps * SECONDS;
        note(`round ${round + 1}, ${VARIANTS[i].label}: ${result.rps.toFixed(0)} req/s`);
        totals[i].rps.push(result.rps);
        totals[i].errors += result.errors;
      }
    }
  } finally {
    await server.stop();
  }
} finally {
  await echo.stop();
  await dispatcher.close();
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(totals[0].rps);
const lines = [
  `flow control on the execute path — ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}, one serve process, ${ROUNDS} rounds × ${SECONDS} s per variant, ` +
    `${CONCURRENCY} concurrent — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  '',
  '| workflow | req/s (mean of rounds) | × no flow control | server CPU ms/req | database CPU ms/req | errors |',
  '|---|---|---|---|---|---|',
  ...VARIANTS.map((variant, i) => {
    const perRequest = (ms: number) => (totals[i].requests > 0 ? (ms / totals[i].requests).toFixed(3) : '-');
    const database = databaseUrl ? perRequest(totals[i].databaseCpuMs) : 'in server';
    return `| ${variant.label} | ${mean(totals[i].rps).toFixed(0)} | ${(mean(totals[i].rps) / base).toFixed(3)} | ${perRequest(totals[i].serverCpuMs)} | ${database} | ${totals[i].errors} |`;
  }),
];
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
