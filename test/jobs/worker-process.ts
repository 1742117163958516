// Runs `sluice worker` as a child process, the way an operator starts it, and waits until it is working.
import { spawn, type ChildProcess } from 'node:child_process';
import { SLUICE_BIN } from '../support/process.js';

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of Object.keys(base)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete base[name];
  return { ...base, LOG_LEVEL: 'info', ...env };
}

export function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [SLUICE_BIN, 'worker'], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sluice worker did not start in time:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"msg":"worker started"')) {
        clearTimeout(timer);
        resolve({
          child,
          output: () => out,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`sluice worker exited with ${code} before starting:\n${out}`));
    });
  });
}
