// Sandbox isolation: latency of unrelated requests (GET /health, and executing a workflow with no code block) while
// nothing spins, beside the same while 2 function blocks run `while (true) {}` (each until its 5 s sandbox timeout,
// restarted as soon as it ends, so two loops spin for the whole phase), and again with the workers at normal
// priority (nice 0) to show what their default nice value buys on Linux. One request at a time, over one
// keep-alive connection; the spinning executions use their own connections. Also the process's event-loop lag.
// Run: node --import tsx bench/sandbox-isolation.bench.ts [secondsPerPhase]   (target: p99 < 50 ms while 2 loops spin)
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, Client, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import {
  configureSandboxPool,
  defaultPoolOptions,
  runUserCode,
  sandboxPoolStats,
  shutdownSandboxPool,
} from '../src/sandbox/index.js';
import { generateApiKey } from '../src/services/api-keys.js';
import { createAppContext } from '../src/app/context.js';
import { bootstrapAdmin } from '../src/services/workspaces.js';
import { startHttpServer } from '../src/server.js';

const SECONDS = Number(process.argv[2] ?? 10);
const LOOPS = 2;
const TARGET_P99_MS = 50;
const loadAtStart = loadavg()[0] ?? 0;

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
const config = loadConfig({
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  SLUICE_DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SLUICE_LIMIT_SYNC_FREE: 'unlimited',
  SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
});
const database = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
const app = await createAppContext(config, createLogger('silent'), database);
const admin = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'bench@localhost', plan: 'free' });
const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
const headers = { 'x-api-key': admin.apiKey, 'content-type': 'application/json' };

async function deploy(name: string, blocks: Record<string, unknown>, edges: unknown[]): Promise<string> {
  const body = JSON.stringify({ workspaceId: admin.workspaceId, name, state: { blocks, edges } });
  const created = (await (await fetch(`${server.url}/api/v1/workflows`, { method: 'POST', headers, body })).json()) as { data: { id: string } };
  await fetch(`${server.url}/api/v1/workflows/${created.data.id}/deploy`, { method: 'POST', headers });
  return created.data.id;
}
const start = { id: 'start', type: 'api_trigger', name: 'API', config: {} };
const spin = await deploy('spin', { start, fn: { id: 'fn', type: 'function', name: 'Spin', config: { code: 'while (true) {}' } } }, [
  { id: 'e1', source: 'start', target: 'fn' },
]);
const trivial = await deploy('trivial', { start, out: { id: 'out', type: 'response', name: 'Out', config: { body: { ok: true } } } }, [
  { id: 'e1', source: 'start', target: 'out' },
]);


const client = new Client(server.url, { keepAliveTimeout: 60_000 });
const spinners = new Agent({ connections: LOOPS });
// Workers start on first use; start them before measuring, as a running server would have.
await warmPool();

async function timed(method: 'GET' | 'POST', path: string): Promise<number> {
  const started = performance.now();
  const res = await client.request({ method, path, headers, body: method === 'POST' ? '{}' : undefined });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${res.statusCode}`);
  return performance.now() - started;
}

interface Phase {
  health: number[];
  execute: number[];
  /** Per sample, whether every worker was running a loop at that moment. */
  allBusy: boolean[];
  lag: ReturnType<typeof monitorEventLoopDelay>;
}

async function measure(): Promise<Phase> {
  const phase: Phase = { health: [], execute: [], allBusy: [], lag: monitorEventLoopDelay({ resolution: 1 }) };
  phase.lag.enable();
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    phase.health.push(await timed('GET', '/health'));
    phase.execute.push(await timed('POST', `/api/workflows/${trivial}/execute`));
    phase.allBusy.push(sandboxPoolStats().busy >= LOOPS);
  }
  phase.lag.disable();
  return phase;
}

async function warmPool(): Promise<void> {
  await Promise.all(Array.from({ length: LOOPS }, () => runUserCode({ code: 'return 1', inputs: {} })));
}

/** Measures while LOOPS spinning executions hold the workers (each restarted as soon as its 5 s run ends). */
async function measureWhileSpinning(): Promise<Phase & { loopsRun: number }> {
  let spinning = true;
  let loopsRun = 0;
  const keepSpinning = async () => {
    while (spinning) {
      const res = await request(`${server.url}/api/workflows/${spin}/execute`, { method: 'POST', headers, body: '{}', dispatcher: spinners });
      await res.body.text();
      loopsRun++;
    }
  };
  const tasks = Array.from({ length: LOOPS }, keepSpinning);
  const waitStart = Date.now();
  while (sandboxPoolStats().busy < LOOPS) {
    if (Date.now() - waitStart > 30_000) throw new Error('the loops never started');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const phase = await measure();
  spinning = false;
  await Promise.all(tasks);
  return { ...phase, loopsRun };
}

const idle = await measure();
const loaded = await measureWhileSpinning();
// The same with the workers at normal priority, to show what their nice value buys (it only exists on Linux).
await shutdownSandboxPool();
configureSandboxPool({ workerNice: 0 });
await warmPool();
const loadedNoNice = await measureWhileSpinning();

const share = (flags: boolean[]) => `${((100 * flags.filter(Boolean).length) / Math.max(flags.length, 1)).toFixed(0)}%`;
const pct = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const row = (label: string, samples: number[]) =>
  `${label.padEnd(30)} p50 ${pct(samples, 50).toFixed(2).padStart(7)} ms   p99 ${pct(samples, 99).toFixed(2).padStart(7)} ms   max ${Math.max(...samples).toFixed(2).padStart(8)} ms   n=${samples.length}`;
const lagRow = (phase: Phase) =>
  `${'event-loop lag'.padEnd(28)} p50 ${(phase.lag.percentile(50) / 1e6).toFixed(2).padStart(7)} ms   p99 ${(phase.lag.percentile(99) / 1e6).toFixed(2).padStart(7)} ms   max ${(phase.lag.max / 1e6).toFixed(2).padStart(8)} ms`;

console.log(
  `sandbox isolation — ${SECONDS} s per phase, one request at a time on one keep-alive connection, ` +
    `${defaultPoolOptions().size} sandbox workers — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}, ` +
    `machine load average at start ${loadAtStart.toFixed(1)}`,
);
console.log('0 loops spinning');
console.log(row('  GET /health', idle.health));
console.log(row('  execute (no code block)', idle.execute));
console.log(`  ${lagRow(idle)}`);
for (const [phase, label] of [
  [loaded, `workers at nice ${defaultPoolOptions().workerNice} (default)`],
  [loadedNoNice, 'workers at nice 0'],
] as const) {
  console.log(`${LOOPS} loops spinning, ${label} — while (true) {} function blocks, ${phase.loopsRun} runs of 5 s, all ${LOOPS} workers spinning at ${share(phase.allBusy)} of samples`);
  console.log(row('  GET /health', phase.health));
  console.log(row('  execute (no code block)', phase.execute));
  console.log(`  ${lagRow(phase)}`);
}
const verdict = (samples: number[]) => (pct(samples, 99) < TARGET_P99_MS ? 'met' : 'NOT met');
console.log(
  `target p99 < ${TARGET_P99_MS} ms while ${LOOPS} loops spin (default pool): GET /health ${verdict(loaded.health)}, ` +
    `execute ${verdict(loaded.execute)} (its own p99 with 0 loops: ${pct(idle.execute, 99).toFixed(2)} ms)`,
);

await client.close();
await spinners.close();
await server.close();
await app.close();
process.exit(0);
