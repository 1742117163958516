// Runs the real `sluice` command as a child process, the way a user starts it.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const SLUICE_BIN = resolve('bin/sluice.mjs');

export interface SluiceProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete clean[name];
  return { ...clean, PORT: '0', LOG_LEVEL: 'info', ...env };
}

/**
 * For tests that SIGKILL a process and wait for another to notice (the crash recovery, runners.ts): a heartbeat each
 * second and dead after 6 s instead of 5 s and 20 s (src/runs/runner-id.ts). Give it to every process of the test:
 * each judges the others' heartbeats by its own bound.
 */
export const QUICK_CRASH_BOUND = { SLUICE_TEST_HEARTBEAT_MS: '1000', SLUICE_TEST_DEAD_AFTER_MS: '6000' } as const;

/** Starts a sluice command without waiting for anything (a start-up the test holds up); output() is all it wrote. */
export function spawnSluice(
  env: Record<string, string>,
  args: string[] = ['serve'],
  bin = SLUICE_BIN,
): Pick<SluiceProcess, 'child' | 'output'> {
  const child = spawn(process.execPath, [bin, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (chunk: Buffer) => void (out += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return { child, output: () => out };
}

/** Starts `sluice serve` (of this checkout, or of the project `bin` is in) and resolves once it logs its URL. */
export function startSluice(env: Record<string, string>, args: string[] = ['serve'], bin = SLUICE_BIN): Promise<SluiceProcess> {
  const { child, output } = spawnSluice(env, args, bin);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`sluice did not start in time:\n${output()}`)), 60_000);
    // After spawnSluice's own listeners, so output() already holds this chunk.
    const onData = () => {
      const match = /"url":"(http:[^"]+)"/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolvePromise({
          child,
          url: match[1],
          output,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sluice exited with ${code} before listening:\n${output()}`));
    });
  });
}

/** Runs a sluice command to completion. */
export function runSluice(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SLUICE_BIN, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}
