// What the Prometheus metrics cost the execute path: the execute bench's flow (POST JSON → HTTP POST to a local echo →
// answer with its JSON) against two `sluice serve` processes on embedded PGlite that differ only in
// SLUICE_METRICS_ENABLED. Only one server is loaded at a time; rounds alternate A B B A … so drift (a warming cache, a
// noisy neighbour) falls on both alike, and the medians are compared. The "on" server is scraped once per round, as
// Prometheus would scrape it. On a shared machine wall-clock throughput is noisy, so each round also reads the server
// process's CPU time (/proc, Linux) and reports CPU per request; and the instrumentation calls one execute makes are
// timed in a loop in this process, for their cost per request in isolation.
//
// Run: node --import tsx bench/metrics.bench.ts [seconds per round] [rounds] [concurrency] [warm-up seconds]
//      BENCH_METRICS_BOTH_ON=1 turns metrics on in both servers: an A/A run, whose "cost" is the noise floor.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { createMetrics } from '../src/observability/metrics.js';
import { generateApiKey } from '../src/services/api-keys.js';
import { load } from './support/load.js';
import { startEchoServer, startSluiceServer, type BenchProcess } from './support/processes.js';
import { median } from './support/stats.js';

const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 8);
const CONCURRENCY = Number(process.argv[4] ?? 16);
/** Each server is loaded this long before the rounds: throughput keeps rising for ~20 s (JIT, PGlite's WASM tiering). */
const WARMUP_SECONDS = Number(process.argv[5] ?? 25);
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

interface Round {
  rps: number;
  p50: number;
  errors: number;
  /** CPU time (user + system) of the server process per request, in ms. */
  cpuMsPerRequest: number;
}

interface Target {
  label: string;
  server: BenchProcess;
  executeUrl: string;
  headers: Record<string, string>;
  dataDir: string;
  rounds: Round[];
}

/** CPU time the process has used, in ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** ns per execute of the calls the metrics add to it: one request, one run, three blocks, one recorder batch. */
function instrumentationNsPerRequest(): number {
  const metrics = createMetrics();
  const once = () => {
    metrics.httpRequest('POST', '/api/workflows/:workflowId/execute', 200, 0.004);
    metrics.block('api_trigger', 'success');
    metrics.block('api', 'success');
    metrics.block('response', 'success');
    metrics.execution('api', 'success', 0.003);
    metrics.recorderBatch(1);
  };
  for (let i = 0; i < 20_000; i++) once();
  const n = 200_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) once();
  return Number(process.hrtime.bigint() - started) / n;
}

async function startTarget(label: string, metricsEnabled: boolean, echoUrl: string): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const key = generateApiKey();
  const server = await startSluiceServer({
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: key,
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
    SLUICE_LIMIT_SYNC_FREE: 'unlimited',
    SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
    SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    SLUICE_METRICS_ENABLED: String(metricsEnabled),
  });
  const me = await api(server.url, key, 'GET', '/api/v1/me');
  const created = await api(server.url, key, 'POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'bench', state: flow(echoUrl) });
  await api(server.url, key, 'POST', `/api/v1/workflows/${created.data.id}/deploy`);
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  return { label, server, executeUrl: `${server.url}/api/workflows/${created.data.id}/execute`, headers, dataDir, rounds: [] };
}

const echo = await startEchoServer();
const targets: Target[] = [];
try {
  const off = await startTarget('metrics off', process.env.BENCH_METRICS_BOTH_ON === '1', echo.url);
  const on = await startTarget('metrics on', true, echo.url);
  targets.push(on, off);
  for (const target of targets) await load(dispatcher, [target.executeUrl], target.headers, WARMUP_SECONDS, CONCURRENCY);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [on, off] : [off, on];
    for (const target of order) {
      const cpuBefore = cpuMs(target.server.child.pid!);
      const result = await load(dispatcher, [target.executeUrl], target.headers, SECONDS, CONCURRENCY);
      const cpuMsPerRequest = (cpuMs(target.server.child.pid!) - cpuBefore) / (result.rps * SECONDS);
      target.rounds.push({ ...result, cpuMsPerRequest });
      note(`round ${round + 1} ${target.label}: ${result.rps.toFixed(0)} req/s, ${cpuMsPerRequest.toFixed(3)} ms CPU/request`);
    }
    const scraped = await fetch(`${on.server.url}/metrics`);
    if (scraped.status !== 200 || !(await scraped.text()).includes('sluice_executions_total')) throw new Error('the metrics server did not serve its metrics');
  }
} finally {
  for (const target of targets) await target.server.stop();
  await echo.stop();
  await dispatcher.close();
  for (const target of targets) rmSync(target.dataDir, { recursive: true, force: true });
}

const [on, off] = targets;
const onRps = median(on.rounds.map((r) => r.rps));
const offRps = median(off.rounds.map((r) => r.rps));
const offCpu = median(off.rounds.map((r) => r.cpuMsPerRequest));
// Round by round (each pair ran back to back), then the median: a round disturbed by a neighbour affects one pair.
const pairwise = (pick: (r: Round) => number) => median(on.rounds.map((r, i) => pick(r) / pick(off.rounds[i]) - 1)) * 100;
const instrumentationNs = instrumentationNsPerRequest();
const lines = [
  `metrics cost on the execute path — ${ROUNDS} rounds × ${SECONDS} s per server, ${CONCURRENCY} concurrent, alternating — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`,
  'flow: POST JSON → HTTP POST to a local echo → answer with its JSON; embedded PGlite; each server its own process',
  '',
  '| | req/s per round | median req/s | median p50 ms | CPU ms/request per round | median CPU ms/request | errors |',
  '|---|---|---|---|---|---|---|',
  ...targets.map(
    (t) =>
      `| ${t.label} | ${t.rounds.map((r) => r.rps.toFixed(0)).join(', ')} | ${median(t.rounds.map((r) => r.rps)).toFixed(0)} | ${median(t.rounds.map((r) => r.p50)).toFixed(2)} | ${t.rounds.map((r) => r.cpuMsPerRequest.toFixed(3)).join(', ')} | ${median(t.rounds.map((r) => r.cpuMsPerRequest)).toFixed(3)} | ${t.rounds.reduce((n, r) => n + r.errors, 0)} |`,
  ),
  '',
  `throughput cost of metrics: ${(-pairwise((r) => r.rps)).toFixed(1)} % (median over rounds of on vs off req/s; negative = on was faster; medians alone: ${(((offRps - onRps) / offRps) * 100).toFixed(1)} %)`,
  `CPU cost of metrics: ${pairwise((r) => r.cpuMsPerRequest).toFixed(1)} % (median over rounds of on vs off CPU per request)`,
  `the metric calls of one execute, timed alone: ${(instrumentationNs / 1000).toFixed(2)} µs = ${((instrumentationNs / 1e6 / offCpu) * 100).toFixed(2)} % of the CPU an execute costs with metrics off`,
];
await new Promise((resolve) => process.stdout.write(`${lines.join('\n')}\n`, resolve));
process.exit(0);
