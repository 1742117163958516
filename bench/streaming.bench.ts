// Streaming: delay from an upstream model token to the client's chunk, through the execute endpoint (stream: true)
// with one agent block, beside its floor — a bare node:http proxy that reads the same upstream SSE and re-emits each
// token as a chunk record. Tokens are sent one at a time, each once the client has the previous one, so every sample
// is pure latency with no queueing. Upstream, proxy/Sluice and client share this process (and clock).
// Run: node --import tsx bench/streaming.bench.ts [runs] [tokensPerRun]   (target: Sluice p50 < 5 ms)
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { generateApiKey } from '../src/services/api-keys.js';
import { createAppContext } from '../src/app/context.js';
import { bootstrapAdmin } from '../src/services/workspaces.js';
import { startHttpServer } from '../src/server.js';

const RUNS = Number(process.argv[2] ?? 5);
const TOKENS = Number(process.argv[3] ?? 400);
const dispatcher = new Agent({ connections: 8 });

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

// ---- the fake model: writes token i when the driver asks for it -----------------------------------------------------
let openStream: ((res: ServerResponse) => void) | undefined;
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    openStream?.(res);
  });
});
const upstreamUrl = await listen(upstream);
const tokenEvent = (text: string) =>
  `data: ${JSON.stringify({ model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const finishEvents =
  `data: ${JSON.stringify({ model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n` +
  `data: ${JSON.stringify({ model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 10, completion_tokens: TOKENS, total_tokens: 10 + TOKENS } })}\n\n` +
  'data: [DONE]\n\n';

// ---- the floor: a bare proxy turning upstream deltas into chunk records -----------------------------------------------
const floor = createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const up = await request(`${upstreamUrl}/v1/chat/completions`, { method: 'POST', body: '{}', dispatcher });
    let buffer = '';
    for await (const part of up.body) {
      buffer += (part as Buffer).toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.slice(6);
        if (data === '[DONE]') continue;
        const text = (JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content;
        if (text) res.write(`data: ${JSON.stringify({ blockId: 'ai', chunk: text })}\n\n`);
      }
    }
    res.end('data: [DONE]\n\n');
  });
});
const floorUrl = await listen(floor);

// ---- one measured run: returns per-token delays in ms ------------------------------------------------------------------
async function measure(url: string, headers: Record<string, string>, body: string): Promise<number[]> {
  const streamReady = new Promise<ServerResponse>((resolve) => (openStream = resolve));
  const delays: number[] = [];
  let waiting: { index: number; wake: () => void } | undefined;
  const sentAt: number[] = [];
  const res = await request(url, { method: 'POST', headers, body, dispatcher });
  const reading = (async () => {
    let buffer = '';
    for await (const part of res.body) {
      buffer += (part as Buffer).toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!event.startsWith('data: {"blockId"')) continue;
        const record = JSON.parse(event.slice(6)) as { chunk: string };
        const index = Number(record.chunk.slice(1));
        delays[index] = performance.now() - sentAt[index]!;
        if (waiting?.index === index) waiting.wake();
      }
    }
  })();
  const upstreamRes = await streamReady;
  for (let i = 0; i < TOKENS; i++) {
    const received = new Promise<void>((wake) => (waiting = { index: i, wake }));
    sentAt[i] = performance.now();
    upstreamRes.write(tokenEvent(`t${i}`));
    await received;
  }
  upstreamRes.end(finishEvents);
  await reading;
  return delays;
}

// ---- Sluice -------------------------------------------------------------------------------------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
const config = loadConfig({
  SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
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
const state = {
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 0 }, config: {} },
    ai: {
      id: 'ai',
      type: 'agent',
      name: 'AI',
      position: { x: 200, y: 0 },
      config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: `${upstreamUrl}/v1`, userPrompt: 'count', retries: 0 },
    },
  },
  edges: [{ id: 'e1', source: 'start', target: 'ai' }],
  loops: {},
  parallels: {},
};
const created = (await (
  await fetch(`${server.url}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify({ workspaceId: admin.workspaceId, name: 'bench', state }) })
).json()) as { data: { id: string } };
await fetch(`${server.url}/api/v1/workflows/${created.data.id}/deploy`, { method: 'POST', headers });
const executeUrl = `${server.url}/api/workflows/${created.data.id}/execute`;

const runs = async (url: string, h: Record<string, string>, body: string) => {
  await measure(url, h, body); // warm-up: JIT, connection pools, the first PGlite writes
  const all: number[] = [];
  for (let r = 0; r < RUNS; r++) all.push(...(await measure(url, h, body)));
  return all.sort((a, b) => a - b);
};
const floorDelays = await runs(floorUrl, { 'content-type': 'application/json' }, '{}');
const sluiceDelays = await runs(executeUrl, headers, '{"stream":true}');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (d: number[]) => `p50 ${pct(d, 50).toFixed(3)} ms, p99 ${pct(d, 99).toFixed(3)} ms, max ${d[d.length - 1]!.toFixed(3)} ms (n=${d.length})`;
console.log(`streaming: upstream token → client chunk — ${RUNS} runs × ${TOKENS} tokens, one token in flight — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`);
console.log(`floor (bare node:http SSE proxy): ${fmt(floorDelays)}`);
console.log(`sluice execute, agent block:      ${fmt(sluiceDelays)}`);
console.log(`ratio: p50 ${(pct(sluiceDelays, 50) / pct(floorDelays, 50)).toFixed(2)}× floor, p99 ${(pct(sluiceDelays, 99) / pct(floorDelays, 99)).toFixed(2)}× floor; target p50 < 5 ms: ${pct(sluiceDelays, 50) < 5 ? 'met' : 'NOT met'}`);

await server.close();
await database.close();
upstream.close();
floor.close();
await dispatcher.close();
process.exit(0);
