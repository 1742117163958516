// Re-runs (docs/api.md 4.9): what a re-run from the last block of a 20-block workflow costs against a full run, when
// every block before it calls an upstream that takes 50 ms. The re-run replays those blocks from the original's log, so
// it should take about one upstream call plus the request (target ≤ 0.2× the full run). Sequential calls, one client,
// wall-clock time of the whole HTTP request; the upstream runs in this process and counts the calls it gets.
//
// Run: node --import tsx bench/rerun.bench.ts [runs]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../src/services/api-keys.js';
import { startSluiceServer } from './support/processes.js';

const RUNS = Number(process.argv[2] ?? 15);
const BLOCKS = 20;
const UPSTREAM_MS = 50;
const note = (text: string) => process.stderr.write(`${text}\n`);

let upstreamCalls = 0;
const upstream = createServer((_req, res) => {
  upstreamCalls++;
  setTimeout(() => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, at: Date.now() }));
  }, UPSTREAM_MS);
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

/** API trigger → 19 API blocks in a chain, each calling the 50 ms upstream: 20 blocks. */
function chain() {
  const blocks: Record<string, unknown> = { start: { id: 'start', type: 'api_trigger', name: 'API', config: {} } };
  const edges: unknown[] = [];
  let previous = 'start';
  for (let i = 1; i < BLOCKS; i++) {
    const id = `call${i}`;
    blocks[id] = { id, type: 'api', name: `Call ${i}`, config: { url: `${upstreamUrl}/step/${i}`, method: 'POST', retries: 0 } };
    edges.push({ id: `e${i}`, source: previous, target: id });
    previous = id;
  }
  return { state: { blocks, edges }, last: previous };
}

const key = generateApiKey();
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-rerun-'));
const server = await startSluiceServer({
  SLUICE_DATA_DIR: dataDir,
  SLUICE_BOOTSTRAP_API_KEY: key,
  SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
  SLUICE_LIMIT_SYNC_FREE: 'unlimited',
  SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
});

async function post(path: string, body: unknown): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const res = await fetch(server.url + path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const parsed = await res.json();
  return { status: res.status, body: parsed, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const me = await (await fetch(`${server.url}/api/v1/me`, { headers: { 'x-api-key': key } })).json();
  const { state, last } = chain();
  const created = await post('/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'rerun bench', state });
  await post(`/api/v1/workflows/${created.body.data.id}/deploy`, {});
  const workflowId: string = created.body.data.id;

  const full: number[] = [];
  const rerun: number[] = [];
  let rerunCalls = 0;
  // Warm-up: one of each, not counted.
  const warm = await post(`/api/workflows/${workflowId}/execute`, {});
  await post(`/api/v1/executions/${warm.body.executionId}/rerun`, { fromBlock: last });
  note(`measuring ${RUNS} full runs and ${RUNS} re-runs from "${last}"`);
  for (let i = 0; i < RUNS; i++) {
    const run = await post(`/api/workflows/${workflowId}/execute`, {});
    if (run.status !== 200) throw new Error(`full run answered ${run.status}: ${JSON.stringify(run.body)}`);
    full.push(run.ms);
    const before = upstreamCalls;
    const again = await post(`/api/v1/executions/${run.body.executionId}/rerun`, { fromBlock: last });
    if (again.status !== 200) throw new Error(`re-run answered ${again.status}: ${JSON.stringify(again.body)}`);
    rerun.push(again.ms);
    rerunCalls += upstreamCalls - before;
  }
  const fullMs = median(full);
  const rerunMs = median(rerun);
  const ratio = rerunMs / fullMs;
  const row = (label: string, ms: number, calls: string) => `${label.padEnd(34)} ${ms.toFixed(1).padStart(9)}  ${calls}`;
  console.log(`${BLOCKS}-block workflow, ${BLOCKS - 1} API blocks calling a ${UPSTREAM_MS} ms upstream; ${RUNS} sequential runs each, median`);
  console.log('');
  console.log(`${'case'.padEnd(34)} ${'ms'.padStart(9)}  upstream calls per run`);
  console.log(row('full run (execute)', fullMs, String(BLOCKS - 1)));
  console.log(row(`re-run from the last block`, rerunMs, (rerunCalls / RUNS).toFixed(1)));
  console.log('');
  console.log(`re-run / full run: ${ratio.toFixed(3)}× (target ≤ 0.2×: ${ratio <= 0.2 ? 'met' : 'NOT met'})`);
} finally {
  await server.stop();
  upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
}
