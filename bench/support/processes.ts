// Child processes of the benchmarks: each server under test runs in its own process, apart from the load generator,
// as it would in production. Servers print (or log) their URL; the Sluice ones are started the way `npm start` starts
// them, with a probe preloaded that reports event-loop lag and memory over IPC (server-probe.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
export const SLUICE_BIN = fileURLToPath(new URL('../../bin/sluice.mjs', import.meta.url));

export interface BenchProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface ProbeReading {
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  rssMb: number;
  peakRssMb: number;
}

/** Starts `args` with node and resolves with the first http URL it prints (or logs as "url":"…"). */
export function startNode(args: string[], env: NodeJS.ProcessEnv = {}, withIpc = false): Promise<BenchProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: withIpc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${out}`)), 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(out) ?? /^(http:\/\/\S+)$/m.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      resolve({
        child,
        url: match[1],
        output: () => out,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}

/**
 * Other checkouts to load beside this one (BENCH_BASELINE_DIR, comma-separated; each built, with node_modules): before
 * and after a change, in one run. Each as the `bin` startSluiceServer takes.
 */
export const baselineCheckouts = (): Array<{ dir: string; bin: string }> =>
  (process.env.BENCH_BASELINE_DIR?.split(',').filter(Boolean) ?? []).map((dir) => ({ dir, bin: join(dir, 'bin', 'sluice.mjs') }));

export const startEchoServer = () => startNode([here('./echo-server.mjs')]);
export const startFloorProxy = (upstreamUrl: string) => startNode([here('./floor-proxy.mjs')], { UPSTREAM_URL: upstreamUrl });

/**
 * `sluice serve` with the probe preloaded; `env` adds to a clean Sluice environment. `options.bin` runs another
 * checkout's `bin/sluice.mjs` (a baseline to compare with), `options.nodeArgs` go to node (e.g. `--cpu-prof`), and
 * `options.command` replaces `serve`, `options.extraArgs` follow it (e.g. `--no-worker`).
 */
export function startSluiceServer(
  env: Record<string, string>,
  options: { bin?: string; nodeArgs?: string[]; command?: string; extraArgs?: string[] } = {},
): Promise<BenchProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SLUICE_') && name !== 'DATABASE_URL'));
  return startNode(
    [...(options.nodeArgs ?? []), '--import', here('./server-probe.mjs'), options.bin ?? SLUICE_BIN, options.command ?? 'serve', ...(options.extraArgs ?? [])],
    { ...clean, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    true,
  );
}

function ask<T>(server: BenchProcess, message: string, reply: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('probe did not answer')), 10_000);
    const onMessage = (m: { type?: string }) => {
      if (m?.type !== reply) return;
      clearTimeout(timer);
      server.child.off('message', onMessage);
      resolve(m as T);
    };
    server.child.on('message', onMessage);
    server.child.send(message);
  });
}

export const resetLag = (server: BenchProcess) => ask(server, 'lag-reset', 'lag-reset');
/** CPU time (user + system, every thread) the server process has used since it started, in ms. */
export const cpuTimeMs = async (server: BenchProcess) => (await ask<{ micros: number }>(server, 'cpu', 'cpu')).micros / 1000;
export const probe = (server: BenchProcess) => ask<ProbeReading>(server, 'probe', 'probe');

/** CPU time (user + system) a process has used so far, in ms, from /proc (clock ticks of 10 ms; 0 once it is gone). */
export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

/** CPU time so far of each PostgreSQL backend connected to `database` (pid → ms), read with `admin`. */
export async function cpuMsOfBackends(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
  return new Map(rows.map((row) => [row.pid, procCpuMs(row.pid)]));
}

/** What the backends in `after` used since `before` (a backend that connected meanwhile counts from 0). */
export const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
