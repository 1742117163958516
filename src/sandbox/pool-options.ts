// How many worker threads run user code, how many runs may wait for one, and what each thread may use. One pool
// per process, so these are set once (configureSandboxPool), not per run like SandboxLimits.
import { availableParallelism } from 'node:os';

export interface SandboxPoolOptions {
  /** Worker threads kept for user code, one run each; the pool grows past them only while long runs hold them all
   *  (maxThreads). Default: the number of cores. */
  size: number;
  /** The most worker threads at once. While runs older than `growAfterMs` hold `size` threads or more (endless
   *  loops, likely), the pool starts more, so the next run does not wait for a loop's deadline: the operating
   *  system shares the cores among them instead. One workspace may hold at most max(size, maxThreads - size) of
   *  them. An idle thread costs about 9 MiB (20–30 MiB when run through tsx), a busy one up to its run's memory
   *  limit + 16 MiB more. Default max(16, 4 × size); equal to `size` turns growing off. */
  maxThreads: number;
  /** How long a run must have held its thread before it counts as long (see maxThreads). Default 50 ms: a typical
   *  function block takes 1–3 ms. */
  growAfterMs: number;
  /** A thread beyond `size` that has been idle this long, and is not the one kept spare, is ended. Default 30 s,
   *  well above the 0.3–0.8 s a thread takes to start. */
  shrinkAfterMs: number;
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
/** Threads the pool may grow to, per thread it keeps (and never fewer than MIN_MAX_THREADS). */
export const MAX_THREADS_PER_WORKER = 4;
const MIN_MAX_THREADS = 16;

const maxThreadsFor = (size: number) => Math.max(MIN_MAX_THREADS, MAX_THREADS_PER_WORKER * size);

export function defaultPoolOptions(): SandboxPoolOptions {
  const size = availableParallelism();
  return {
    size,
    maxThreads: maxThreadsFor(size),
    growAfterMs: 50,
    shrinkAfterMs: 30_000,
    maxQueued: QUEUED_PER_WORKER * size,
    graceMs: 1000,
    workerHeapMb: 256,
    workerStackMb: 16,
    workerNice: 10,
  };
}

/** Fills in defaults (maxQueued and maxThreads follow a given size) and rejects nonsense, a programming error. */
export function resolvePoolOptions(options: Partial<SandboxPoolOptions>): SandboxPoolOptions {
  const defaults = defaultPoolOptions();
  const size = options.size ?? defaults.size;
  const resolved: SandboxPoolOptions = {
    size,
    maxThreads: options.maxThreads ?? maxThreadsFor(size),
    growAfterMs: options.growAfterMs ?? defaults.growAfterMs,
    shrinkAfterMs: options.shrinkAfterMs ?? defaults.shrinkAfterMs,
    maxQueued: options.maxQueued ?? QUEUED_PER_WORKER * size,
    graceMs: options.graceMs ?? defaults.graceMs,
    workerHeapMb: options.workerHeapMb ?? defaults.workerHeapMb,
    workerStackMb: options.workerStackMb ?? defaults.workerStackMb,
    workerNice: options.workerNice ?? defaults.workerNice,
  };
  for (const [key, value] of Object.entries(resolved)) {
    const allowsZero = key === 'maxQueued' || key === 'graceMs' || key === 'workerNice' || key === 'growAfterMs' || key === 'shrinkAfterMs';
    if (!Number.isInteger(value) || value < (allowsZero ? 0 : 1) || (key === 'workerNice' && value > 19)) {
      throw new RangeError(`Sandbox pool option ${key} must be a ${allowsZero ? 'non-negative' : 'positive'} integer${key === 'workerNice' ? ' up to 19' : ''}, got ${value}`);
    }
  }
  if (resolved.maxThreads < size) throw new RangeError(`Sandbox pool option maxThreads must be at least size (${size}), got ${resolved.maxThreads}`);
  return resolved;
}
