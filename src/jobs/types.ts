// The contract between the worker and the code that runs jobs. Handlers are closures over whatever they need
// (the AppContext), so this module knows nothing of services.
import type { SQL } from 'drizzle-orm';

/** Milliseconds since the epoch. Injected so tests can run retry schedules without waiting real minutes. */
export interface Clock {
  now(): number;
}

/** A job as its handler sees it, right after this worker claimed it. */
export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  /** How many times the job has been claimed, this claim included (> 1 after a retry or a crashed worker). */
  attempts: number;
  /** When it was queued (an async run's wait in the queue is measured from it); unknown for jobs built by hand. */
  createdAt?: Date;
}

export type JobOutcome =
  /** Done; `result` is kept on the row for status queries. */
  | { type: 'complete'; result?: unknown }
  /** Done for good, unsuccessfully. */
  | { type: 'fail'; error: string; result?: unknown }
  /** Run again at `runAt` (epoch ms). */
  | { type: 'retry'; runAt: number; error: string }
  /**
   * Not run (worker stopping; no flow control slot free): back to the queue at once, and the claim does not count
   * as an attempt. `keepPlace` keeps its place in the queue (its due time) instead of going to the back; `runAt`
   * (epoch ms) makes it due then instead (a throttled run: when its next start frees). `payloadPatch` is merged into
   * the payload (top-level keys), for what the next claim must know. `flow` sets the job's flow control key (found
   * only once the job ran: a resumed run, a schedule tick), so claims pass over it until the key has a free slot.
   */
  | { type: 'release'; keepPlace?: boolean; runAt?: number; payloadPatch?: Record<string, unknown>; flow?: { key: string; limit: number } };

export interface JobResult {
  outcome: JobOutcome;
  /**
   * Domain writes that must commit together with the outcome (e.g. the delivery's attempt record), and only if
   * this worker still holds the job: a worker whose lease was taken over writes nothing. They run in the same
   * single SQL statement as the job's own update (one round trip, atomic), so each must be a data-modifying
   * statement that puts `heldByMe` — a boolean SQL condition — in its WHERE clause.
   */
  writes?: (heldByMe: SQL) => SQL[];
}

export interface JobRunContext {
  clock: Clock;
  /** Aborted when the worker stops and the grace period is over; a handler should then release or finish fast. */
  signal: AbortSignal;
  workerId: string;
}

export interface JobHandler {
  run(job: ClaimedJob, context: JobRunContext): Promise<JobResult>;
  /**
   * Called with each batch of claimed jobs of this kind just before they run, so a handler can read what they
   * need in one query instead of one each. Optional and best effort: `run` must cope without it.
   */
  prefetch?(jobs: ClaimedJob[]): Promise<void>;
  /** At most this many jobs of the kind at once per worker (default: the worker's concurrency). */
  concurrency?: number;
  /**
   * Weight of this kind when the worker's slots are divided (default 1): each kind is guaranteed its share of half
   * the slots, and the other half goes to kinds with work in proportion to their shares (see shares.ts).
   */
  share?: number;
  /** Keep completed and failed rows (async executions answer status queries); otherwise they are deleted. */
  keepFinished?: boolean;
  /**
   * Claim this kind's jobs fairly between tenants (the `tenant` given when they were queued; claim.ts) rather than
   * oldest first: for kinds one tenant could flood. Costs a little more per claim.
   */
  fairBetweenTenants?: boolean;
  /** A job claimed more often than this (a poison job that keeps killing workers) is failed without running. */
  maxClaims?: number;
  /**
   * Writes to commit with the failure of a job given up unrun (claimed more than `maxClaims` times; `error` says so),
   * so the handler's own rows record it too: a row left waiting on a job that no longer exists would wait for ever.
   */
  abandoned?(job: ClaimedJob, error: string, now: number): JobResult['writes'];
}

export type JobHandlers = Readonly<Record<string, JobHandler>>;
