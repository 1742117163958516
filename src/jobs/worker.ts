// The job worker: claims due jobs up to its concurrency (divided among job kinds, shares.ts), runs each through the
// handler of its kind, records the outcome, and keeps the leases of running jobs alive. Woken at once by enqueues
// (NOTIFY) and by finished jobs; otherwise it looks every poll interval.
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Database, Db } from '../db/client.js';
import { randomBase62 } from '../ids.js';
import type { Logger } from '../logger.js';
import { claimJobs, extendLeases, type KindClaim } from './claim.js';
import { systemClock } from './clock.js';
import { createSettleQueue } from './settle-queue.js';
import { claimOrder, claimSize, reservations, type KindSlots } from './shares.js';
import type { ClaimedJob, Clock, JobHandlers, JobResult } from './types.js';
import { listenForJobs, type StopListening } from './wakeups.js';

/** A job claimed more often than this is failed unread (unless its handler sets its own bound). */
const DEFAULT_MAX_CLAIMS = 25;
/** After the grace period and cancellation, how long handlers get to hand their jobs back. */
export const CANCEL_WAIT_MS = 5_000;
/** Delay before re-running a job whose handler threw: doubles per claim, capped. */
const CRASH_RETRY_BASE_MS = 1_000;
const CRASH_RETRY_MAX_MS = 5 * 60_000;
/**
 * Jobs whose lease lapsed (their worker died) are looked for at most this often, in the claim statement. A lease
 * lasts a minute by default, so looking twice a second found nothing almost always; this bounds how long after its
 * lease lapses a crashed worker's job waits (plus a poll interval when the worker is idle).
 */
const LEASE_SWEEP_MS = 1_000;

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
  /** Started and not stopping: claiming jobs (what GET /ready checks in a process that runs a worker). */
  running(): boolean;
  /** Since start: jobs claimed, and claim statements sent (an idle worker's looks included). */
  stats(): { jobs: number; claims: number };
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, handlers, logger, concurrency, pollIntervalMs, leaseMs } = options;
  const clock = options.clock ?? systemClock;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBase62(6)}`;
  const inflight = new Map<string, { kind: string; done: Promise<void> }>();
  const perKind = new Map<string, number>();
  const cancel = new AbortController();
  let stopping = false;
  let started = false;
  let wakeRequested = false;
  let interruptSleep: (() => void) | undefined;
  let loopDone: Promise<void> = Promise.resolve();
  let heartbeat: NodeJS.Timeout | undefined;
  let stopListening: StopListening | undefined;
  let nextLeaseSweep = 0;
  const counts = { jobs: 0, claims: 0 };
  const leaseSweepMs = Math.max(pollIntervalMs, LEASE_SWEEP_MS);
  const settle = createSettleQueue(db, workerId, clock);
  const kindSlots = Object.entries(handlers).map(([kind, handler]) => {
    const share = handler.share ?? 1;
    if (!(share > 0 && Number.isFinite(share))) throw new Error(`Job kind ${kind}: share must be a positive number`);
    return { kind, share, limit: Math.min(concurrency, handler.concurrency ?? concurrency) };
  });
  const reserved = reservations(concurrency, kindSlots);
  const slotsNow = (): KindSlots[] => kindSlots.map((k) => ({ ...k, running: perKind.get(k.kind) ?? 0 }));

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
      const error = `Gave up after ${job.attempts - 1} claims (workers kept stopping during this job)`;
      return { outcome: { type: 'fail', error }, writes: handler.abandoned?.(job, error, clock.now()) };
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

  /**
   * What to ask of each kind in one claim: kinds in claiming order, each its part of the slots as shares.ts divides
   * them, counting the kinds before it as if they got all they asked for (a kind that got less is asked again, with
   * the true counts, in the next round).
   */
  function nextAsks(exhausted: ReadonlySet<string>): KindClaim[] {
    const kinds = slotsNow();
    const order = claimOrder(kinds).filter((k) => !exhausted.has(k.kind));
    return order.map((own, i) => {
      const limit = claimSize(concurrency, kinds, reserved, order.slice(i));
      own.running += limit;
      return { kind: own.kind, limit, fair: handlers[own.kind].fairBetweenTenants ?? false };
    });
  }

  /**
   * Claims until capacity is full or nothing is due: one statement per round for all kinds, the lease sweep riding
   * in it at most every LEASE_SWEEP_MS.
   */
  async function fill(): Promise<void> {
    // A kind that had fewer due jobs than asked for is not asked again until the next look.
    const exhausted = new Set<string>();
    for (;;) {
      if (stopping) return;
      const asks = nextAsks(exhausted).filter((ask) => ask.limit > 0);
      const sweepLeases = clock.now() >= nextLeaseSweep;
      if (asks.length === 0 && !sweepLeases) return;
      if (sweepLeases) nextLeaseSweep = clock.now() + leaseSweepMs;
      counts.claims++;
      const { jobs: claimed, requeued } = await claimJobs(db, { workerId, kinds: asks, now: clock.now(), leaseMs, sweepLeases });
      counts.jobs += claimed.length;
      if (requeued > 0) logger.warn({ requeued }, 'requeued jobs whose worker stopped holding them');
      await prefetch(claimed);
      for (const job of claimed) start(job);
      for (const ask of asks) if (claimed.filter((job) => job.kind === ask.kind).length < ask.limit) exhausted.add(ask.kind);
      // Jobs put back by the sweep are claimable by the next statement: go round again at once. So are kinds this
      // round asked nothing of: a worker with fewer slots than kinds asks the first kinds for all of them, and the
      // others must get their turn when those had nothing due (else a one-slot worker never runs a schedule tick).
      if (stopping) return;
      if (claimed.length === 0 && requeued === 0 && nextAsks(exhausted).every((ask) => ask.limit === 0)) return;
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
      started = true;
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
    running: () => started && !stopping,
    stats: () => ({ ...counts }),
  };
}
