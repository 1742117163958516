// Memory of the embedded server: starts `sluice serve` on PGlite the way `npm start` does (a child process, data
// directory in a temp dir), samples its RSS from /proc, and reports the peak (VmHWM, reset between phases) of each
// phase: first start on an empty data directory, idle, 16 concurrent execute calls (the workflow of
// execute.bench.ts), then the same after a restart on the existing directory. Beside it, the reference: bare
// `PGlite.create(dir)` with PGlite's defaults in a plain node process.
// Run: node --import tsx bench/memory.bench.ts [seconds] [concurrency]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const IDLE_MS = 5_000;
const TARGET_MB = 400;
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const probe = new URL('./memory-probe.mjs', import.meta.url).href;
const apiKey = `sk-sluice-${'b'.repeat(30)}`;
const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
const MB = 2 ** 20;

// ---- /proc readings (Linux) ----

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // the process has exited
  }
}

/** Resets VmHWM to the current RSS, so the next reading is the peak of the phase that follows. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

const nodeBinary = realpathSync(process.execPath);

/** The node processes a process has started (not, e.g., the esbuild service tsx runs). */
function nodeChildrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (list) out.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    // exited
  }
  return out.filter((child) => {
    try {
      return readlinkSync(`/proc/${child}/exe`) === nodeBinary;
    } catch {
      return false;
    }
  });
}

/** Records the peak RSS of the node child processes a process starts (e.g. a one-off database init) while they live. */
function watchChildren(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    for (const child of nodeChildrenOf(pid)) peak = Math.max(peak, statusKb(child, 'VmHWM'));
  }, 50);
  return {
    peakMb: () => peak / 1024,
    stop: () => clearInterval(timer),
  };
}

// ---- the server ----

interface Breakdown {
  main: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  worker: { wasmBytes: number; heapUsed: number; heapTotal: number } | null;
}

interface RunningServer {
  child: ChildProcess;
  url: string;
  breakdown(): Promise<Breakdown>;
  stop(): Promise<void>;
}

/** Spawns the server; `onSpawn` sees its pid at once, before it has started listening. */
function startServer(dataDir: string, onSpawn: (pid: number) => void): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    LOG_LEVEL: 'info',
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: apiKey,
    SLUICE_LIMIT_SYNC_FREE: 'unlimited',
    SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
  };
  const child = spawn(process.execPath, ['--import', probe, join(root, 'bin/sluice.mjs'), 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  onSpawn(child.pid!);
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(out);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.resume();
      child.stderr!.resume();
      resolvePromise({
        child,
        url: match[1],
        breakdown: () =>
          new Promise((done) => {
            child.once('message', (m) => done(m as Breakdown));
            child.send('memory');
          }),
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sluice exited with ${code} before listening:\n${out}`)));
  });
}

// ---- load (as in execute.bench.ts) ----

function listen(server: Server): Promise<string> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"n":42}'));
});
const upstreamUrl = await listen(upstream);
const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };

async function deployWorkflow(url: string): Promise<string> {
  const me = (await (await fetch(`${url}/api/v1/workspaces`, { headers })).json()) as { data: Array<{ id: string }> };
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
  const res = await fetch(`${url}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify({ workspaceId: me.data[0].id, name: 'memory', state }) });
  const created = (await res.json()) as { data: { id: string } };
  const deployed = await fetch(`${url}/api/v1/workflows/${created.data.id}/deploy`, { method: 'POST', headers });
  if (!deployed.ok) throw new Error(`deploy failed: ${deployed.status} ${await deployed.text()}`);
  return created.data.id;
}

async function load(url: string): Promise<{ rps: number; errors: number }> {
  let count = 0;
  let errors = 0;
  const until = Date.now() + SECONDS * 1000;
  const client = async () => {
    while (Date.now() < until) {
      const res = await request(url, { method: 'POST', headers, body: '{}', dispatcher });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
      count++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { rps: count / SECONDS, errors };
}

// ---- phases ----

const rows: string[][] = [];
const mb = (kb: number) => (kb / 1024).toFixed(0);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function row(phase: string, server: RunningServer, note = '') {
  const pid = server.child.pid!;
  const peak = statusKb(pid, 'VmHWM');
  const rss = statusKb(pid, 'VmRSS');
  const b = await server.breakdown();
  const heap = (h: { heapUsed: number; heapTotal: number }) => `${(h.heapUsed / MB).toFixed(0)}/${(h.heapTotal / MB).toFixed(0)}`;
  rows.push([
    phase,
    mb(peak),
    mb(rss),
    heap(b.main),
    (b.main.external / MB).toFixed(0),
    b.worker ? heap(b.worker) : '—',
    b.worker ? (b.worker.wasmBytes / MB).toFixed(0) : '—',
    note,
  ]);
  resetPeak(pid);
  return peak / 1024;
}

async function run(label: string, dataDir: string) {
  const started = Date.now();
  let watcher!: ReturnType<typeof watchChildren>;
  const server = await startServer(dataDir, (pid) => (watcher = watchChildren(pid)));
  const startMs = Date.now() - started;
  await sleep(500); // let the post-listen start-up (worker, maintenance) settle into the start figure
  watcher.stop();
  const initPeak = watcher.peakMb();
  const startPeak = await row(`${label}: start`, server, `listening after ${(startMs / 1000).toFixed(1)} s${initPeak > 0 ? `; one-off init process peak ${initPeak.toFixed(0)} MB` : ''}`);
  await sleep(IDLE_MS);
  await row(`${label}: idle ${IDLE_MS / 1000} s`, server);
  const workflowId = await deployWorkflow(server.url);
  const result = await load(`${server.url}/api/workflows/${workflowId}/execute`);
  const loadPeak = await row(`${label}: ${CONCURRENCY} concurrent execute, ${SECONDS} s`, server, `${result.rps.toFixed(0)} req/s, ${result.errors} errors`);
  await sleep(IDLE_MS);
  await row(`${label}: idle after load`, server);
  await server.stop();
  return { startPeak, loadPeak, initPeak };
}

/** The reference: PGlite's defaults, nothing else in the process. */
function bareReference(dataDir: string): Promise<number> {
  const script = `import { PGlite } from '@electric-sql/pglite'; const db = await PGlite.create(process.argv[1]); await db.query('select 1'); await db.close();`;
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, statusKb(child.pid!, 'VmHWM'))), 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code === 0) done(peak / 1024);
      else reject(new Error(`bare PGlite exited with ${code}`));
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-memory-'));
const first = await run('first start', dataDir);
if (!existsSync(join(dataDir, 'pglite', 'PG_VERSION'))) throw new Error('the server did not create its database');
const again = await run('restart', dataDir);

const bareDir = mkdtempSync(join(tmpdir(), 'sluice-memory-bare-'));
const bareFirst = await bareReference(bareDir);
const bareAgain = await bareReference(bareDir);

console.log(`Memory (embedded PGlite) — \`sluice serve\` as \`npm start\` runs it, ${CONCURRENCY} concurrent execute calls for ${SECONDS} s — ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`);
console.log('RSS in MB from /proc/<pid>/status: peak = VmHWM over the phase (reset after each), end = VmRSS when it ended.');
console.log('V8 heaps used/total MB (main thread; PGlite worker thread), main external MB, wasm = PGlite WASM memory MB.\n');
const header = ['phase', 'peak', 'end', 'main heap', 'main ext', 'worker heap', 'wasm', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
for (const r of [header, ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd());
console.log(`\nreference, bare PGlite.create(dir) with PGlite's defaults in a plain node process: first start peak ${bareFirst.toFixed(0)} MB, reopen peak ${bareAgain.toFixed(0)} MB`);
const worstLoad = Math.max(first.loadPeak, again.loadPeak);
console.log(`target: peak RSS under load ≤ ${TARGET_MB} MB — ${worstLoad.toFixed(0)} MB: ${worstLoad <= TARGET_MB ? 'met' : 'NOT met'}`);
console.log(`first start: server peak ${first.startPeak.toFixed(0)} MB${first.initPeak > 0 ? `, its one-off init process ${first.initPeak.toFixed(0)} MB (exited before the server opened the database)` : ''}; restart: server peak ${again.startPeak.toFixed(0)} MB`);

rmSync(dataDir, { recursive: true, force: true });
rmSync(bareDir, { recursive: true, force: true });
upstream.close();
await dispatcher.close();
process.exit(0);
