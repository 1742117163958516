// Execute endpoint throughput and latency: api_trigger → api (local upstream) → response, beside its floor — a bare
// node:http proxy making the same upstream call. Also the event-loop lag of the Sluice process under that load.
// Run: node --import tsx bench/execute.bench.ts [seconds] [concurrency]   (PGlite; set BENCH_DATABASE_URL for PostgreSQL)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { generateApiKey } from '../src/services/api-keys.js';
import { createAppContext } from '../src/services/app-context.js';
import { bootstrapAdmin } from '../src/services/workspaces.js';
import { startHttpServer } from '../src/server.js';

const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const dispatcher = new Agent({ connections: CONCURRENCY * 2 });

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

async function load(url: string, headers: Record<string, string>, body: string) {
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const res = await request(url, { method: 'POST', headers, body, dispatcher });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rps: latencies.length / SECONDS, p50: pct(50), p99: pct(99), errors, count: latencies.length };
}

const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"n":42}'));
});
const upstreamUrl = await listen(upstream);

// The floor: receive the request, call the upstream, answer with its JSON.
const floor = createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    const up = await request(`${upstreamUrl}/data`, { dispatcher });
    const data = await up.body.json();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: data }));
  });
});
const floorUrl = await listen(floor);

const databaseUrl = process.env.BENCH_DATABASE_URL;
let dbName: string | undefined;
if (databaseUrl) {
  dbName = `sluice_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
}
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
const config = loadConfig({
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
  SLUICE_DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SLUICE_LIMIT_SYNC_FREE: 'unlimited',
  SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
});
const database = databaseUrl
  ? await openDatabase({ kind: 'postgres', url: Object.assign(new URL(databaseUrl), { pathname: `/${dbName}` }).toString() })
  : await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
const app = await createAppContext(config, createLogger('silent'), database);
const admin = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'bench@localhost', plan: 'free' });
const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
const headers = { 'x-api-key': admin.apiKey, 'content-type': 'application/json' };
const state = {
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: {} },
    call: { id: 'call', type: 'api', name: 'Call', config: { url: `${upstreamUrl}/data`, method: 'GET', retries: 0 } },
    out: { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<call.data>' } } },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'out' },
  ],
};
const created = await (await fetch(`${server.url}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify({ workspaceId: admin.workspaceId, name: 'bench', state }) })).json() as { data: { id: string } };
await fetch(`${server.url}/api/v1/workflows/${created.data.id}/deploy`, { method: 'POST', headers });

const floorResult = await load(`${floorUrl}/`, { 'content-type': 'application/json' }, '{}');
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
const sluice = await load(`${server.url}/api/workflows/${created.data.id}/execute`, headers, '{}');
lag.disable();

const fmt = (r: typeof sluice) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}`;
console.log(`execute endpoint — ${database.kind}, ${SECONDS} s, ${CONCURRENCY} concurrent — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`);
console.log(`floor (bare node:http proxy): ${fmt(floorResult)}`);
console.log(`sluice execute:               ${fmt(sluice)}`);
console.log(`ratio: throughput ${(sluice.rps / floorResult.rps).toFixed(3)}× of floor, p50 ${(sluice.p50 / floorResult.p50).toFixed(1)}× floor`);
console.log(`event-loop lag in the Sluice process under load: p50 ${(lag.percentile(50) / 1e6).toFixed(2)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(2)} ms, max ${(lag.max / 1e6).toFixed(2)} ms`);

await server.close();
await database.close();
upstream.close();
floor.close();
await dispatcher.close();
if (databaseUrl && dbName) {
  const admin2 = new pg.Client({ connectionString: databaseUrl });
  await admin2.connect();
  await admin2.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin2.end();
}
process.exit(0);
