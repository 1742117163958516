// The job worker: claims due jobs up to its concurrency, runs each through the handler of its kind, records the
// outcome, and keeps the leases of running jobs alive. Woken at once by enqueues (NOTIFY) and by finished jobs;
// otherwise it looks every poll interval.
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Database, Db } from '../db/client.js';
import { randomBase62 } from '../ids.js';
import type { Logger } from '../logger.js';
import { claimDueJobs, extendLeases, requeueExpiredLeases } from './claim.js';
import { systemClock } from './clock.js';
import { createSettleQueue } from './settle-queue.js';
import type { ClaimedJob, Clock, JobHandlers, JobResult } from './types.js';
import { listenForJobs, type StopListening } from './wakeups.js';

/** A job claimed more often than this is failed unread (unless its handler sets its own bound). */
const DEFAULT_MAX_CLAIMS = 25;
/** After the grace period and cancellation, how long handlers get to hand their jobs back. */
const CANCEL_WAIT_MS = 5_000;
/** Delay before re-running a job whose handler threw: doubles per claim, capped. */
const CRASH_RETRY_BASE_MS = 1_000;
const CRASH_RETRY_MAX_MS = 5 * 60_000;

export interface WorkerOptions {
  db: Db;
  /** For instant wake-ups (LISTEN); without it the worker only polls. */
  database?: Database;
  handlers: JobHandlers;
  logger: Logger;
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  clock?: Clock;
  workerId?: string;
}

export interface Worker {
  readonly id: string;
  start(): Promise<void>;
  /** Look for due jobs now (tests call it after moving their clock). */
  wake(): void;
  /** Stops claiming; in-flight jobs get `graceMs` to finish, then are cancelled and handed back. */
  stop(graceMs: number): Promise<void>;
  inFlight(): number;
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, handlers, logger, concurrency, pollIntervalMs, leaseMs } = options;
  const clock = options.clock ?? systemClock;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBase62(6)}`;
  const inflight = new Map<string, { kind: string; done: Promise<void> }>();
  const perKind = new Map<string, number>();
  const cancel = new AbortController();
  let stopping = false;
  let wakeRequested = false;
  let interruptSleep: (() => void) | undefined;
  let loopDone: Promise<void> = Promise.resolve();
  let heartbeat: NodeJS.Timeout | undefined;
  let stopListening: StopListening | undefined;
  let nextLeaseSweep = 0;
  const settle = createSettleQueue(db, workerId, clock);

  const wake = () => {
    wakeRequested = true;
    interruptSleep?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested || stopping) return resolve();
      const finish = () => {
        clearTimeout(timer);
        interruptSleep = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      interruptSleep = finish;
    });

  async function runHandler(job: ClaimedJob): Promise<JobResult> {
    const handler = handlers[job.kind];
    if (job.attempts > (handler.maxClaims ?? DEFAULT_MAX_CLAIMS)) {
      return { outcome: { type: 'fail', error: `Gave up after ${job.attempts - 1} claims (workers kept stopping during this job)` } };
    }
    try {
      return await handler.run(job, { clock, signal: cancel.signal, workerId });
    } catch (err) {
      if (cancel.signal.aborted) return { outcome: { type: 'release' } };
      logger.error({ err, jobId: job.id, kind: job.kind }, 'job handler failed; retrying later');
      const wait = Math.min(CRASH_RETRY_BASE_MS * 2 ** (job.attempts - 1), CRASH_RETRY_MAX_MS);
      const message = err instanceof Error ? err.message : String(err);
      return { outcome: { type: 'retry', runAt: clock.now() + wait, error: `Internal error: ${message}` } };
    }
  }

  async function runJob(job: ClaimedJob): Promise<void> {
    try {
      const result = await runHandler(job);
      const settled = await settle(job, result, handlers[job.kind].keepFinished ?? false);
      if (!settled) logger.warn({ jobId: job.id, kind: job.kind }, 'job was taken over by another worker; outcome dropped');
    } catch (err) {
      // Most likely the database is unreachable; the lease lapses and the job runs again elsewhere.
      logger.error({ err, jobId: job.id, kind: job.kind }, 'could not record job outcome');
    }
  }

  function start(job: ClaimedJob) {
    perKind.set(job.kind, (perKind.get(job.kind) ?? 0) + 1);
    const done = runJob(job).finally(() => {
      inflight.delete(job.id);
      perKind.set(job.kind, (perKind.get(job.kind) ?? 1) - 1);
      wake();
    });
    inflight.set(job.id, { kind: job.kind, done });
  }

  async function prefetch(claimed: ClaimedJob[]): Promise<void> {
    const byKind = new Map<string, ClaimedJob[]>();
    for (const job of claimed) {
      // A job about to be given up (see runHandler) never runs, so nothing is read for it.
      if (job.attempts > (handlers[job.kind].maxClaims ?? DEFAULT_MAX_CLAIMS)) continue;
      byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), job]);
    }
    await Promise.all(
      [...byKind].map(async ([kind, batch]) => {
        try {
          await handlers[kind].prefetch?.(batch);
        } catch (err) {
          logger.warn({ err, kind }, 'prefetch failed; jobs read their own data');
        }
      }),
    );
  }

  /** Claim groups: kinds with their own concurrency bound are claimed separately, so no claim overshoots one. */
  function claimGroups(free: number): Array<{ kinds: string[]; limit: number }> {
    const shared: string[] = [];
    const groups: Array<{ kinds: string[]; limit: number }> = [];
    for (const [kind, handler] of Object.entries(handlers)) {
      if (handler.concurrency === undefined) shared.push(kind);
      else groups.push({ kinds: [kind], limit: Math.min(free, handler.concurrency - (perKind.get(kind) ?? 0)) });
    }
    if (shared.length > 0) groups.unshift({ kinds: shared, limit: free });
    return groups;
  }

  /** Claims until capacity is full or nothing is due. */
  async function fill(): Promise<void> {
    if (clock.now() >= nextLeaseSweep) {
      nextLeaseSweep = clock.now() + pollIntervalMs;
      const requeued = await requeueExpiredLeases(db, clock.now());
      if (requeued > 0) logger.warn({ requeued }, 'requeued jobs whose worker stopped holding them');
    }
    for (;;) {
      let claimedAny = false;
      let mayHaveMore = false;
      for (const group of claimGroups(concurrency - inflight.size)) {
        const limit = Math.min(group.limit, concurrency - inflight.size);
        if (stopping || limit <= 0) continue;
        const claimed = await claimDueJobs(db, { workerId, kinds: group.kinds, limit, now: clock.now(), leaseMs });
        await prefetch(claimed);
        for (const job of claimed) start(job);
        claimedAny ||= claimed.length > 0;
        mayHaveMore ||= claimed.length === limit;
      }
      if (!claimedAny || !mayHaveMore || stopping) return;
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      try {
        await fill();
      } catch (err) {
        logger.error({ err }, 'worker could not claim jobs; retrying');
      }
      await sleep(pollIntervalMs);
    }
  }

  async function renewLeases(): Promise<void> {
    try {
      await extendLeases(db, { workerId, jobIds: [...inflight.keys()], now: clock.now(), leaseMs });
    } catch (err) {
      logger.warn({ err }, 'could not renew job leases');
    }
  }

  async function settleInFlight(timeoutMs: number): Promise<void> {
    const all = Promise.all([...inflight.values()].map((entry) => entry.done));
    await Promise.race([all, delay(timeoutMs, undefined, { ref: false })]);
  }

  return {
    id: workerId,
    async start() {
      if (options.database) {
        try {
          stopListening = await listenForJobs(options.database, wake, logger);
        } catch (err) {
          logger.warn({ err }, 'job wake-ups unavailable; polling only');
        }
      }
      // Renewed well before it lapses, so one slow renewal does not hand a running job to another worker.
      heartbeat = setInterval(() => void renewLeases(), Math.max(100, Math.floor(leaseMs / 3)));
      heartbeat.unref();
      loopDone = loop();
    },
    wake,
    async stop(graceMs) {
      if (stopping) return loopDone;
      stopping = true;
      interruptSleep?.();
      await loopDone;
      await stopListening?.();
      if (inflight.size > 0) await settleInFlight(graceMs);
      if (inflight.size > 0) {
        logger.info({ jobs: inflight.size }, 'cancelling jobs still running after the grace period');
        cancel.abort();
        await settleInFlight(CANCEL_WAIT_MS);
      }
      if (heartbeat) clearInterval(heartbeat);
    },
    inFlight: () => inflight.size,
  };
}
