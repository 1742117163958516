// How many worker threads run user code, how many runs may wait for one, and what each thread may use. One pool
// per process, so these are set once (configureSandboxPool), not per run like SandboxLimits.
import { availableParallelism } from 'node:os';

export interface SandboxPoolOptions {
  /** Worker threads running user code at once, one run each. Default: the number of cores. */
  size: number;
  /** Runs of one tenant that may wait for a free worker; the next one fails with "Sandbox is busy" (all tenants
   *  together: 4 × this). Default 64 × size. */
  maxQueued: number;
  /** How long a worker may take to answer after its run's deadline (or abort) before it is terminated and
   *  replaced: the interrupt check normally lands within milliseconds, so a worker this late is stuck in native
   *  code. Default 1000 ms. */
  graceMs: number;
  /** V8 heap of each worker thread. User values live in WebAssembly memory outside it (capped per run); this
   *  holds only host-side copies of results and console output. Default 256. */
  workerHeapMb: number;
  /** Stack of each worker thread. Node's default is 4; more room lets deep native recursion in QuickJS end in
   *  its own error rather than a host one. Default 16. */
  workerStackMb: number;
  /** Scheduling niceness of each worker thread (Linux only, 0–19; 0 leaves it alone). User code gets the CPU the
   *  HTTP and database threads leave, so a busy pool slows user code rather than every request. Default 10. */
  workerNice: number;
}

export const QUEUED_PER_WORKER = 64;

export function defaultPoolOptions(): SandboxPoolOptions {
  const size = availableParallelism();
  return { size, maxQueued: QUEUED_PER_WORKER * size, graceMs: 1000, workerHeapMb: 256, workerStackMb: 16, workerNice: 10 };
}

/** Fills in defaults (maxQueued follows a given size) and rejects nonsense, which is a programming error. */
export function resolvePoolOptions(options: Partial<SandboxPoolOptions>): SandboxPoolOptions {
  const defaults = defaultPoolOptions();
  const size = options.size ?? defaults.size;
  const resolved: SandboxPoolOptions = {
    size,
    maxQueued: options.maxQueued ?? QUEUED_PER_WORKER * size,
    graceMs: options.graceMs ?? defaults.graceMs,
    workerHeapMb: options.workerHeapMb ?? defaults.workerHeapMb,
    workerStackMb: options.workerStackMb ?? defaults.workerStackMb,
    workerNice: options.workerNice ?? defaults.workerNice,
  };
  for (const [key, value] of Object.entries(resolved)) {
    const allowsZero = key === 'maxQueued' || key === 'graceMs' || key === 'workerNice';
    if (!Number.isInteger(value) || value < (allowsZero ? 0 : 1) || (key === 'workerNice' && value > 19)) {
      throw new RangeError(`Sandbox pool option ${key} must be a ${allowsZero ? 'non-negative' : 'positive'} integer${key === 'workerNice' ? ' up to 19' : ''}, got ${value}`);
    }
  }
  return resolved;
}
