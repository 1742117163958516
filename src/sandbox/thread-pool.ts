// The host side of the sandbox: worker threads that run user code, so a `while (true) {}` spins on a worker while
// the HTTP event loop stays free. Each worker runs one program at a time; runs wait in a bounded queue for a free
// worker, and their deadline counts from the moment they were asked for. Workers start on first use, stay warm,
// and never keep the process alive while idle.
//
// Fair between tenants (a run's `tenant`, its workspace): a free worker takes the oldest waiting run of the tenant
// with the fewest runs on workers (of those, the one served longest ago), and each tenant may have `maxQueued` runs
// waiting (the pool as a whole TENANT_BACKLOG_FACTOR times that). So a workspace flooding the sandbox with endless
// loops holds at most the workers it already has, and another workspace's run waits for the next worker to free
// up, never behind the flood.
//
// Never behind a loop for long: while runs that have held their threads for `growAfterMs` (endless loops, likely)
// hold `size` threads or more, the pool starts more threads, up to `maxThreads` — one for each run that waits and one
// spare, kept warm because a thread takes hundreds of milliseconds to start — and lets the operating system share the
// cores among them. One tenant holds at most max(size, maxThreads - size) threads, so a flood of loops in one
// workspace leaves `size` threads to the others even at the bound. A thread beyond `size` idle for `shrinkAfterMs`
// is ended, unless it is the spare.
//
// Stopping a run: at its deadline (or abort) the host writes to the worker's shared stop slot, which QuickJS's
// interrupt handler reads, so the run ends within milliseconds even mid-loop. A worker that has still not answered
// `graceMs` later is stuck in native code: it is terminated and replaced, and the run fails as stopped. A worker
// that dies on its own (out of heap, say) is replaced too, and only its run fails.
import { Worker } from 'node:worker_threads';
import {
  ABORTED_MESSAGE,
  SHUTDOWN_MESSAGE,
  busyMessage,
  crashedMessage,
  startFailedMessage,
  timeoutMessage,
} from './error-message.js';
import type { ResolvedLimits } from './limits.js';
import { resolvePoolOptions, type SandboxPoolOptions } from './pool-options.js';
import type { Program, ProgramOutcome } from './run-program.js';
import { STOP, type RunRequest, type ThreadData, type ThreadMessage } from './thread-protocol.js';

export interface PoolRun {
  program: Program;
  inputsJson: string;
  limits: ResolvedLimits;
  signal?: AbortSignal;
  /** Whose share of the workers the run counts against; runs without one share a single share. */
  tenant?: string;
}

interface Job {
  id: number;
  run: PoolRun;
  /** performance.now() when the run must be over; set when the run was asked for, so queueing counts. */
  deadline: number;
  /**
   * Asked for while no worker was up: it waits for a thread to start (hundreds of ms, more on a busy machine), which
   * is the pool's cost, not the run's, so its time limit starts again when it is handed to a worker.
   */
  coldStart: boolean;
  /** Why the host asked this run to stop, once it has. */
  stopped?: 'aborted' | 'timeout';
  timers: NodeJS.Timeout[];
  onAbort: () => void;
  settle: (outcome: ProgramOutcome) => void;
}

interface PoolWorker {
  worker: Worker;
  stopSlot: Int32Array;
  ready: boolean;
  job?: Job;
  /** performance.now() when the current job was handed to it. */
  busySince: number;
  /** Ends the thread if it is still idle and not needed (only threads beyond `size` are ever ended). */
  idleTimer?: NodeJS.Timeout;
  /** Set when the host ends the thread on purpose, so its exit is not reported as a crash. */
  terminating: boolean;
  /** The uncaught error that ended the thread, if any. */
  crash?: Error;
}

/** The waiting runs of all tenants together may be this many times one tenant's bound. */
export const TENANT_BACKLOG_FACTOR = 4;

/** setTimeout fires at once for longer delays; a run that long is never going to be waited for anyway. */
const MAX_TIMER_MS = 2 ** 31 - 1;

let options: SandboxPoolOptions | undefined;
const workers: PoolWorker[] = [];
const queue: Job[] = [];
let nextJobId = 1;
/** When each tenant last had a run handed to a worker (a dispatch count): ties go to the one served longest ago. */
const lastServed = new Map<string | undefined, number>();
let dispatches = 0;
let workersReplaced = 0;

/** Sets the pool's shape. Workers already running keep the heap and stack they started with. */
export function configureSandboxPool(partial: Partial<SandboxPoolOptions>): void {
  options = resolvePoolOptions(partial);
}

const currentOptions = (): SandboxPoolOptions => (options ??= resolvePoolOptions({}));

export interface SandboxPoolStats {
  /** Worker threads alive (starting, idle or busy). */
  workers: number;
  busy: number;
  queued: number;
  /** Workers terminated by the watchdog or lost to a crash since the process started. */
  workersReplaced: number;
}

export function sandboxPoolStats(): SandboxPoolStats {
  return {
    workers: workers.length,
    busy: workers.filter((entry) => entry.job).length,
    queued: queue.length,
    workersReplaced,
  };
}

/** Runs `run` on a worker thread; always resolves, with the failure as the outcome's error. */
export function runOnPool(run: PoolRun): Promise<ProgramOutcome> {
  const { size, maxQueued } = currentOptions();
  const free = freeCapacity();
  const threads = Math.max(size, workers.length);
  const tenantWaiting = queue.filter((job) => job.run.tenant === run.tenant).length - free;
  if (tenantWaiting >= maxQueued) return Promise.resolve(failure(busyMessage(threads, maxQueued)));
  const allWaiting = queue.length - free;
  if (allWaiting >= maxQueued * TENANT_BACKLOG_FACTOR) return Promise.resolve(failure(busyMessage(threads, allWaiting)));

  return new Promise<ProgramOutcome>((resolve) => {
    const job: Job = {
      id: nextJobId++,
      run,
      deadline: performance.now() + run.limits.timeoutMs,
      coldStart: !workers.some((entry) => entry.ready),
      timers: [],
      onAbort: () => stop(job, 'aborted'),
      settle: (outcome) => {
        job.timers.forEach(clearTimeout);
        run.signal?.removeEventListener('abort', job.onAbort);
        resolve(outcome);
      },
    };
    job.timers.push(setTimeout(() => stop(job, 'timeout'), Math.min(run.limits.timeoutMs, MAX_TIMER_MS)));
    run.signal?.addEventListener('abort', job.onAbort, { once: true });
    queue.push(job);
    pump();
  });
}

/** Terminates every worker and fails every run still waiting or running. The next run starts the pool again. */
export async function shutdownSandboxPool(): Promise<void> {
  for (const job of queue.splice(0)) job.settle(failure(SHUTDOWN_MESSAGE));
  const ending = workers.splice(0).map((entry) => {
    entry.terminating = true;
    clearTimeout(entry.idleTimer);
    entry.job?.settle(failure(SHUTDOWN_MESSAGE));
    entry.job = undefined;
    return entry.worker.terminate();
  });
  await Promise.all(ending);
}

function failure(error: string): ProgramOutcome {
  return { ok: false, stdout: '', error };
}

/**
 * Runs an idle, starting or not-yet-started worker will take without waiting: queued runs beyond these wait for
 * busy workers, and those are what the bounds are about.
 */
function freeCapacity(): number {
  const starting = workers.filter((entry) => !entry.ready).length;
  const idle = workers.filter((entry) => entry.ready && !entry.job).length;
  return starting + idle + Math.max(0, currentOptions().size - workers.length);
}

/** How many runs each tenant has on workers. */
function runsOnWorkers(): Map<string | undefined, number> {
  const onWorkers = new Map<string | undefined, number>();
  for (const entry of workers) if (entry.job) onWorkers.set(entry.job.run.tenant, (onWorkers.get(entry.job.run.tenant) ?? 0) + 1);
  return onWorkers;
}

/** The most threads one tenant may hold: what is left for the others when a tenant's loops grew the pool to its bound. */
function tenantThreadCap(): number {
  const { size, maxThreads } = currentOptions();
  return Math.max(size, maxThreads - size);
}

/** Waiting runs a thread could take now: a tenant at its thread cap waits for one of its own runs to end. */
function runnableWaiting(): number {
  const onWorkers = runsOnWorkers();
  const cap = tenantThreadCap();
  let runnable = 0;
  for (const job of queue) {
    const running = onWorkers.get(job.run.tenant) ?? 0;
    if (running >= cap) continue;
    onWorkers.set(job.run.tenant, running + 1);
    runnable++;
  }
  return runnable;
}

/**
 * The oldest waiting run of the tenant with the fewest runs on workers, of those the tenant served longest ago (the
 * queue is oldest first, so the first run seen of a tenant is its oldest). Tenants at their thread cap are passed over.
 */
function nextFairJob(): Job | undefined {
  const onWorkers = runsOnWorkers();
  const cap = tenantThreadCap();
  let chosen: Job | undefined;
  let best = { running: Number.POSITIVE_INFINITY, served: Number.POSITIVE_INFINITY };
  for (const job of queue) {
    const running = onWorkers.get(job.run.tenant) ?? 0;
    if (running >= cap) continue;
    const served = lastServed.get(job.run.tenant) ?? -1;
    if (running < best.running || (running === best.running && served < best.served)) {
      chosen = job;
      best = { running, served };
    }
  }
  return chosen;
}

const stoppedMessage = (job: Job) => (job.stopped === 'aborted' ? ABORTED_MESSAGE : timeoutMessage(job.run.limits.timeoutMs));

/** The deadline passed or the signal fired: a queued run ends now, a running one is told to stop and watched. */
function stop(job: Job, reason: 'aborted' | 'timeout'): void {
  if (job.stopped) return;
  job.stopped = reason;
  const queued = queue.indexOf(job);
  if (queued >= 0) {
    queue.splice(queued, 1);
    job.settle(failure(stoppedMessage(job)));
    return;
  }
  const entry = workers.find((candidate) => candidate.job === job);
  if (!entry) return;
  Atomics.store(entry.stopSlot, 0, reason === 'aborted' ? STOP.aborted : STOP.timeout);
  job.timers.push(setTimeout(() => killStuck(entry, job), currentOptions().graceMs));
}

/** The watchdog: the worker ignored its stop slot for the whole grace period, so it is stuck in native code. */
function killStuck(entry: PoolWorker, job: Job): void {
  if (entry.job !== job) return;
  entry.job = undefined;
  job.settle(failure(stoppedMessage(job)));
  replace(entry);
}

/**
 * Hands queued runs to idle ready workers, and starts workers for runs that would still wait: up to `size`, and
 * past it (up to `maxThreads`) while long runs hold the threads.
 */
function pump(): void {
  for (;;) {
    const entry = workers.find((candidate) => candidate.ready && !candidate.job);
    const job = entry && nextFairJob();
    if (!entry || !job) break;
    queue.splice(queue.indexOf(job), 1);
    if (lastServed.size > 10_000) lastServed.clear(); // a bound on memory; forgetting only costs a tie-break
    lastServed.set(job.run.tenant, ++dispatches);
    dispatch(entry, job);
  }
  const { size, maxThreads } = currentOptions();
  let starting = workers.filter((entry) => !entry.ready).length;
  for (let wanted = queue.length - starting; wanted > 0 && workers.length < size; wanted--, starting++) startWorker();
  // Growing, at most `size` threads start at once: a start is CPU work, so more at once than cores finish no sooner,
  // and a run that only waited behind a slightly long one has often been served before they are all up.
  for (let wanted = threadsLacking() ?? 0; wanted > 0 && workers.length < maxThreads && starting < size; wanted--, starting++) startWorker();
}

/**
 * While runs older than `growAfterMs` hold `size` threads or more: how many threads the pool lacks to give each
 * waiting run that may take one a thread and still keep one spare (negative: that many to spare). Otherwise
 * undefined: the pool is not growing, and threads beyond `size` are not needed.
 */
function threadsLacking(): number | undefined {
  const { size, growAfterMs } = currentOptions();
  const now = performance.now();
  const long = workers.filter((entry) => entry.job && now - entry.busySince >= growAfterMs).length;
  if (long < size) return undefined;
  const available = workers.length - long; // starting, idle, or on a run that may well end soon
  return runnableWaiting() + 1 - available;
}

/** A worker went idle: if it is beyond `size`, end it after `shrinkAfterMs` unless the pool needs it by then. */
function scheduleShrink(entry: PoolWorker): void {
  clearTimeout(entry.idleTimer);
  if (workers.length <= currentOptions().size) return;
  entry.idleTimer = setTimeout(() => {
    entry.idleTimer = undefined;
    if (entry.job || entry.terminating || !workers.includes(entry)) return;
    const lacking = threadsLacking();
    if (lacking !== undefined && lacking >= 0) {
      scheduleShrink(entry); // it is the spare the long runs still need: look again later
      return;
    }
    if (workers.length > currentOptions().size) retire(entry);
  }, currentOptions().shrinkAfterMs);
  entry.idleTimer.unref();
}

function dispatch(entry: PoolWorker, job: Job): void {
  if (job.coldStart) {
    job.deadline = performance.now() + job.run.limits.timeoutMs;
    job.timers.forEach(clearTimeout);
    job.timers = [setTimeout(() => stop(job, 'timeout'), Math.min(job.run.limits.timeoutMs, MAX_TIMER_MS))];
  }
  // Once this run has held the thread for growAfterMs, look again whether the pool should grow; a run that ends
  // sooner clears the timer with its others.
  const { growAfterMs, maxThreads } = currentOptions();
  if (workers.length < maxThreads) job.timers.push(setTimeout(pump, growAfterMs + 1));
  clearTimeout(entry.idleTimer);
  entry.busySince = performance.now();
  entry.job = job;
  Atomics.store(entry.stopSlot, 0, STOP.none);
  entry.worker.ref(); // a run in flight keeps the process alive, as a run on the main thread did
  const request: RunRequest = {
    id: job.id,
    program: job.run.program,
    inputsJson: job.run.inputsJson,
    limits: job.run.limits,
    deadlineEpochMs: performance.timeOrigin + job.deadline,
  };
  entry.worker.postMessage(request);
}

function startWorker(): PoolWorker {
  const { workerHeapMb, workerStackMb, workerNice } = currentOptions();
  const stop = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const worker = new Worker(new URL('./thread-entry.mjs', import.meta.url), {
    workerData: { stop, nice: workerNice } satisfies ThreadData,
    resourceLimits: { maxOldGenerationSizeMb: workerHeapMb, stackSizeMb: workerStackMb },
  });
  const entry: PoolWorker = { worker, stopSlot: new Int32Array(stop), ready: false, busySince: 0, terminating: false };
  workers.push(entry);
  worker.on('message', (message: ThreadMessage) => onMessage(entry, message));
  worker.on('error', (error) => {
    entry.crash = error;
  });
  worker.on('exit', (code) => onExit(entry, code));
  return entry;
}

function onMessage(entry: PoolWorker, message: ThreadMessage): void {
  if (message.type === 'ready') {
    entry.ready = true;
    entry.worker.unref(); // idle from here until pump() hands it a run
    pump();
    if (!entry.job) scheduleShrink(entry);
    return;
  }
  const job = entry.job;
  if (!job || job.id !== message.id) return;
  entry.job = undefined;
  entry.worker.unref();
  const { type: _type, id: _id, ...outcome } = message;
  job.settle(outcome);
  pump();
  if (!entry.job) scheduleShrink(entry);
}

function onExit(entry: PoolWorker, code: number): void {
  clearTimeout(entry.idleTimer);
  const index = workers.indexOf(entry);
  if (index >= 0) workers.splice(index, 1);
  if (entry.terminating) return;
  const reason = crashReason(entry, code);
  if (!entry.ready) {
    // It never started. With no other worker up, the next one would not start either: the runs waiting fail now
    // rather than at their deadlines, and a later run tries again. Otherwise they wait for the workers that run.
    if (!workers.some((other) => other.ready)) for (const job of queue.splice(0)) job.settle(failure(startFailedMessage(reason)));
    return;
  }
  workersReplaced++;
  const job = entry.job;
  entry.job = undefined;
  job?.settle(failure(crashedMessage(reason)));
  startWorker();
  pump();
}

/** Ends a worker on purpose (so its exit is not reported as a crash). */
function retire(entry: PoolWorker): void {
  entry.terminating = true;
  clearTimeout(entry.idleTimer);
  const index = workers.indexOf(entry);
  if (index >= 0) workers.splice(index, 1);
  void entry.worker.terminate();
}

/** Ends a worker on purpose and starts another in its place, so the pool keeps its warm size. */
function replace(entry: PoolWorker): void {
  retire(entry);
  workersReplaced++;
  startWorker();
  pump();
}

function crashReason(entry: PoolWorker, code: number): string {
  const error = entry.crash as (Error & { code?: string }) | undefined;
  if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') return 'it ran out of memory';
  if (error) return error.message;
  return `it exited with code ${code}`;
}
