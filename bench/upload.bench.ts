// Peak memory of one 20 MB inline-file upload (docs/api.md 4.2: at most ~3× its size end to end), beside its reference.
// Run: node --import tsx bench/upload.bench.ts   (Linux only; BENCH_UPLOAD_MODES=sluice,execute picks servers)
// Prints a Markdown table; the numbers of record are in bench/REPORT-upload.md.
//
// Each server runs in its own child process, so the figure is that process's alone. Before each measured upload the
// child collects garbage, notes its RSS, and resets the kernel's peak-RSS mark (/proc/self/clear_refs); after it, the
// peak (VmHWM) minus that baseline is what the upload cost. glibc's mmap threshold is pinned at 128 KB in the child:
// otherwise it rises after start-up (PGlite frees large blocks), big buffers then come from memory freed earlier and
// still resident, and the peak is under-counted by tens of MB. Servers:
// - sluice:    readJsonBodyLimited + storeFileInputs behind a one-route Hono app — the path the execute endpoint takes;
// - execute:   the whole app, POST /api/workflows/{id}/execute with a `files` field (auth, limits, a run, the log);
// - reference: what a straightforward handler does: c.req.json(), Buffer.from(base64), writeFile.
// - sluice-s3, execute-s3: the same two with SLUICE_FILES_BACKEND=s3, storing into s3rver (an S3-protocol server that
//   runs in this parent process, so its memory is not counted).
// Also measured: how much of a 200 MB chunked body the server reads before refusing it with 413.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE_BYTES = 20 * 1024 * 1024;
const RUNS = 3;
const MB = 1024 * 1024;

type Mode = 'sluice' | 'execute' | 'reference' | 'sluice-s3' | 'execute-s3';

interface Measurement {
  baselineRssMb: number;
  peakRssDeltaMb: number;
  peakHeapUsedDeltaMb: number;
  peakExternalDeltaMb: number;
}

type ChildMessage =
  | { kind: 'listening'; port: number; executePath?: string; apiKey?: string }
  | { kind: 'armed' }
  | { kind: 'measured'; measurement: Measurement }
  | { kind: 'socket-read'; bytes: number };

// ───────────────────────────── child: one server ─────────────────────────────

async function runServer(mode: Mode): Promise<void> {
  const { serve } = await import('@hono/node-server');
  const { Hono } = await import('hono');
  const { loadConfig } = await import('../src/config.js');
  const { createLogger } = await import('../src/logger.js');
  const { openDatabase } = await import('../src/db/client.js');
  const { createAppContext } = await import('../src/app/context.js');
  const { bootstrapAdmin } = await import('../src/services/workspaces.js');
  const { generateApiKey } = await import('../src/services/api-keys.js');
  const { readJsonBodyLimited } = await import('../src/http/body.js');
  const { errorResponse, toAppError } = await import('../src/http/errors.js');
  const { storeFileInputs } = await import('../src/services/files/index.js');
  const { createApp } = await import('../src/http/app.js');

  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-upload-bench-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-0',
    SLUICE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...(mode.endsWith('-s3') ? (JSON.parse(process.env.BENCH_S3_ENV ?? '{}') as Record<string, string>) : {}),
  });
  const app = await createAppContext(config, createLogger(config.logLevel), await openDatabase({ kind: 'pglite' }));
  const admin = await bootstrapAdmin(app.db, {
    apiKey: generateApiKey(),
    adminEmail: 'bench@localhost',
    plan: 'enterprise',
  });

  const minimal = new Hono()
    .post('/upload', async (c) => {
      if (mode === 'reference') {
        const body = (await c.req.json()) as { docs: Array<{ data: string; name: string }> };
        for (const [i, doc] of body.docs.entries()) {
          const decoded = Buffer.from(doc.data.slice(doc.data.indexOf(',') + 1), 'base64');
          await writeFile(join(dataDir, `reference-${i}`), decoded);
        }
        return c.json({ stored: body.docs.length });
      }
      const body = (await readJsonBodyLimited(c, config.maxRequestBytes)).value as { docs: unknown };
      const files = await storeFileInputs(app, { workspaceId: admin.workspaceId, fieldName: 'docs', value: body.docs });
      return c.json({ files });
    })
    .onError((err, c) => errorResponse(c, toAppError(err)));

  const wholeApp = mode === 'execute' || mode === 'execute-s3';
  const fetchHandler = wholeApp ? createApp(app).fetch : minimal.fetch;
  const server = serve({ fetch: fetchHandler, port: 0, hostname: '127.0.0.1' });
  server.on('connection', (socket: Socket) =>
    socket.on('close', () => send({ kind: 'socket-read', bytes: socket.bytesRead })),
  );
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  let executePath: string | undefined;
  if (wholeApp) {
    executePath = await deployFilesWorkflow(`http://127.0.0.1:${port}`, admin.apiKey, admin.workspaceId);
  }
  send({ kind: 'listening', port, executePath, apiKey: admin.apiKey });

  let baseline = { rss: 0, heapUsed: 0, external: 0 };
  let peaks = { heapUsed: 0, external: 0 };
  let sampler: NodeJS.Timeout | undefined;
  process.on('message', (message: { kind: 'arm' | 'collect' }) => {
    if (message.kind === 'arm') {
      global.gc?.();
      global.gc?.();
      const usage = process.memoryUsage();
      baseline = { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external };
      peaks = { heapUsed: usage.heapUsed, external: usage.external };
      writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
      // Sampling misses peaks inside synchronous work (JSON.parse); VmHWM below does not.
      sampler = setInterval(() => {
        const now = process.memoryUsage();
        peaks = { heapUsed: Math.max(peaks.heapUsed, now.heapUsed), external: Math.max(peaks.external, now.external) };
      }, 2);
      send({ kind: 'armed' });
    } else {
      clearInterval(sampler);
      const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
      send({
        kind: 'measured',
        measurement: {
          baselineRssMb: baseline.rss / MB,
          peakRssDeltaMb: (hwmKb * 1024 - baseline.rss) / MB,
          peakHeapUsedDeltaMb: (peaks.heapUsed - baseline.heapUsed) / MB,
          peakExternalDeltaMb: (peaks.external - baseline.external) / MB,
        },
      });
    }
  });
}

/** A deployed `api_trigger (files field) → response` workflow; returns its execute path. */
async function deployFilesWorkflow(base: string, apiKey: string, workspaceId: string): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data?: { id?: string }; id?: string };
  };
  const state = {
    blocks: {
      start: {
        id: 'start',
        type: 'api_trigger',
        name: 'API',
        position: { x: 0, y: 0 },
        config: { inputFormat: [{ name: 'docs', type: 'files' }] },
      },
      respond: {
        id: 'respond',
        type: 'response',
        name: 'Respond',
        position: { x: 200, y: 0 },
        config: { status: 200, body: { size: '<api.docs[0].size>' } },
      },
    },
    edges: [{ id: 'e1', source: 'start', target: 'respond' }],
    loops: {},
    parallels: {},
  };
  const created = await call('POST', '/api/v1/workflows', { workspaceId, name: 'upload bench', state });
  const id = created.data?.id ?? created.id;
  await call('POST', `/api/v1/workflows/${id}/deploy`);
  return `/api/workflows/${id}/execute`;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

// ───────────────────────────── parent: orchestration ─────────────────────────────

interface Server {
  child: ChildProcess;
  port: number;
  path: string;
  apiKey?: string;
  next<K extends ChildMessage['kind']>(kind: K): Promise<Extract<ChildMessage, { kind: K }>>;
}

/** The S3 server for the -s3 modes, started on first use; its variables go to each child. */
let s3Env: Record<string, string> | undefined;
let stopS3: (() => Promise<void>) | undefined;

async function startServer(mode: Mode): Promise<Server> {
  if (mode.endsWith('-s3') && !s3Env) {
    const { startS3Server } = await import('../test/support/s3-server.js');
    const s3 = await startS3Server('sluice-bench');
    s3Env = s3.env('bench');
    stopS3 = () => s3.close();
  }
  const child = fork(fileURLToPath(import.meta.url), ['server', mode], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: 'inherit',
    env: {
      ...process.env,
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
      BENCH_S3_ENV: JSON.stringify(s3Env ?? {}),
    },
  });
  const waiting: Array<{ kind: string; resolve: (m: ChildMessage) => void }> = [];
  const inbox: ChildMessage[] = [];
  child.on('message', (message: ChildMessage) => {
    const i = waiting.findIndex((w) => w.kind === message.kind);
    if (i >= 0) waiting.splice(i, 1)[0].resolve(message);
    else inbox.push(message);
  });
  const next = <K extends ChildMessage['kind']>(kind: K) =>
    new Promise<Extract<ChildMessage, { kind: K }>>((resolve, reject) => {
      const i = inbox.findIndex((m) => m.kind === kind);
      if (i >= 0) return resolve(inbox.splice(i, 1)[0] as Extract<ChildMessage, { kind: K }>);
      waiting.push({ kind, resolve: resolve as (m: ChildMessage) => void });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
  const listening = await next('listening');
  return { child, port: listening.port, path: listening.executePath ?? '/upload', apiKey: listening.apiKey, next };
}

function writeBody(dir: string, bytes: number): string {
  const file = join(dir, `body-${bytes}.json`);
  const data = `data:application/pdf;base64,${randomBytes(bytes).toString('base64')}`;
  writeFileSync(file, JSON.stringify({ docs: [{ type: 'file', data, name: 'report.pdf', mime: 'application/pdf' }] }));
  return file;
}

/** Streams a file as the request body (from disk, so the client costs the server process nothing). */
function upload(server: Server, bodyFile: string | { chunkedBytes: number }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (server.apiKey) headers['x-api-key'] = server.apiKey;
    const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: server.path, headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    if (typeof bodyFile === 'string') {
      req.on('error', reject);
      createReadStream(bodyFile).pipe(req);
      return;
    }
    req.on('error', () => undefined); // EPIPE once the server closes an oversized upload
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bodyFile.chunkedBytes && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function measure(mode: Mode, bodyFile: string, warmupFile: string): Promise<Measurement[]> {
  const results: Measurement[] = [];
  for (let run = 0; run < RUNS; run++) {
    const server = await startServer(mode);
    try {
      const warm = await upload(server, warmupFile);
      if (warm.status !== 200) throw new Error(`${mode} warm-up: ${warm.status} ${warm.body.slice(0, 300)}`);
      server.child.send({ kind: 'arm' });
      await server.next('armed');
      const res = await upload(server, bodyFile);
      if (res.status !== 200) throw new Error(`${mode}: ${res.status} ${res.body.slice(0, 300)}`);
      server.child.send({ kind: 'collect' });
      results.push((await server.next('measured')).measurement);
    } finally {
      server.child.kill();
    }
  }
  return results;
}

async function oversizeBytesRead(): Promise<{ status: number; readMb: number }> {
  const server = await startServer('sluice');
  try {
    const res = await upload(server, { chunkedBytes: 200 * MB });
    const read = await server.next('socket-read');
    return { status: res.status, readMb: read.bytes / MB };
  } finally {
    server.child.kill();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-upload-bodies-'));
  try {
    const bodyFile = writeBody(dir, FILE_BYTES);
    const warmupFile = writeBody(dir, 1 * MB);
    const bodyMb = readFileSync(bodyFile).length / MB;
    const machine = `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, ${(totalmem() / 1024 ** 3).toFixed(1)} GB`;
    console.log(`machine: ${machine}, Node ${process.version}`);
    console.log(`file: ${FILE_BYTES / MB} MB, request body: ${bodyMb.toFixed(1)} MB of JSON; ${RUNS} runs per server\n`);
    console.log(
      '| server | peak RSS over baseline (MB), per run | worst ÷ file size | peak heapUsed Δ (sampled) | peak external Δ (sampled) |',
    );
    console.log('|---|---|---|---|---|');
    for (const mode of (process.env.BENCH_UPLOAD_MODES ?? 'sluice,execute,sluice-s3,execute-s3,reference').split(',') as Mode[]) {
      let results: Measurement[];
      try {
        results = await measure(mode, bodyFile, warmupFile);
      } catch (err) {
        console.log(`| ${mode} | failed: ${(err as Error).message.replace(/\|/g, '/')} | | | |`);
        continue;
      }
      const worst = Math.max(...results.map((r) => r.peakRssDeltaMb));
      const fmt = (values: number[]) => values.map((v) => v.toFixed(1)).join(' / ');
      console.log(
        `| ${mode} | ${fmt(results.map((r) => r.peakRssDeltaMb))} | ${(worst / (FILE_BYTES / MB)).toFixed(2)}× ` +
          `| ${fmt(results.map((r) => r.peakHeapUsedDeltaMb))} | ${fmt(results.map((r) => r.peakExternalDeltaMb))} |`,
      );
    }
    const oversize = await oversizeBytesRead();
    console.log(
      `\n200 MB chunked body against the 30 MB limit: HTTP ${oversize.status}, ` +
        `server read ${oversize.readMb.toFixed(1)} MB before closing.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stopS3?.();
  }
}

if (process.argv[2] === 'server') await runServer(process.argv[3] as Mode);
else await main();
