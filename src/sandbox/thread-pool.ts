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
  const tenantWaiting = queue.filter((job) => job.run.tenant === run.tenant).length - free;
  if (tenantWaiting >= maxQueued) return Promise.resolve(failure(busyMessage(size, maxQueued)));
  const allWaiting = queue.length - free;
  if (allWaiting >= maxQueued * TENANT_BACKLOG_FACTOR) return Promise.resolve(failure(busyMessage(size, allWaiting)));

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
  return starting + idle + (currentOptions().size - workers.length);
}

/**
 * The oldest waiting run of the tenant with the fewest runs on workers, of those the tenant served longest ago (the
 * queue is oldest first, so the first run seen of a tenant is its oldest).
 */
function nextFairJob(): Job | undefined {
  const onWorkers = new Map<string | undefined, number>();
  for (const entry of workers) if (entry.job) onWorkers.set(entry.job.run.tenant, (onWorkers.get(entry.job.run.tenant) ?? 0) + 1);
  let chosen: Job | undefined;
  let best = { running: Number.POSITIVE_INFINITY, served: Number.POSITIVE_INFINITY };
  for (const job of queue) {
    const running = onWorkers.get(job.run.tenant) ?? 0;
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

/** Hands queued runs to idle ready workers, and starts workers (up to `size`) for runs that would still wait. */
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
  const starting = workers.filter((entry) => !entry.ready).length;
  for (let wanted = queue.length - starting; wanted > 0 && workers.length < currentOptions().size; wanted--) startWorker();
}

function dispatch(entry: PoolWorker, job: Job): void {
  if (job.coldStart) {
    job.deadline = performance.now() + job.run.limits.timeoutMs;
    job.timers.forEach(clearTimeout);
    job.timers = [setTimeout(() => stop(job, 'timeout'), Math.min(job.run.limits.timeoutMs, MAX_TIMER_MS))];
  }
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
  const entry: PoolWorker = { worker, stopSlot: new Int32Array(stop), ready: false, terminating: false };
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
    return;
  }
  const job = entry.job;
  if (!job || job.id !== message.id) return;
  entry.job = undefined;
  entry.worker.unref();
  const { type: _type, id: _id, ...outcome } = message;
  job.settle(outcome);
  pump();
}

function onExit(entry: PoolWorker, code: number): void {
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

/** Ends a worker on purpose and starts another in its place, so the pool keeps its warm size. */
function replace(entry: PoolWorker): void {
  entry.terminating = true;
  const index = workers.indexOf(entry);
  if (index >= 0) workers.splice(index, 1);
  void entry.worker.terminate();
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
