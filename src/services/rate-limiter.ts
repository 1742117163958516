// Per-minute rate limits shared by every process without a database round trip per request (docs/api.md 4.8, 6.5).
//
// The shared count stays in `rate_limit_windows` (one row per bucket and one-minute window), but a process takes
// tokens from it in leases: one atomic increment reserves k requests, which it then admits from memory. The lease
// grows while requests keep coming (doubling while reservations follow each other within 100 ms, and at least as
// many as are waiting for it, up to 256) and is never more than a quarter of what the window has left, so near the
// limit every request is counted on its own.
//
// Guarantees, for any number of processes:
// - never more than `limit` requests admitted per bucket and window (a lease is granted only out of what is left);
// - the cost of leasing is the other way: tokens leased but not used before the window ends are lost, at most one
//   lease per process, i.e. at most max(1, a quarter of what was left) requests refused that a single exact counter
//   would have let through;
// - one process alone is exact whenever requests are spaced more than 100 ms apart (each lease is then 1).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOf } from '../db/rows.js';
import { RATE_WINDOW_MS, type RateBucket, type RateDecision } from './limits.js';

const MAX_LEASE = 256;
/** Reservations closer together than this grow the next lease. */
const BURST_GAP_MS = 100;

interface BucketState {
  windowStart: number;
  /** Leased and not yet used. */
  tokens: number;
  /** Requests waiting for the reservation under way: the next lease is at least this large. */
  waiting: number;
  /** The shared count after this process's last reservation. */
  sharedCount: number;
  /** The window's tokens are all leased (by anyone): refuse until it ends. */
  exhausted: boolean;
  lease: number;
  lastReservedAt: number;
  reserving?: Promise<void>;
}

export interface RateLimiter {
  /** Admits or refuses one request of `userId` in `bucket`. */
  consume(input: { bucket: RateBucket; userId: string; limit: number | null; now?: number }): Promise<RateDecision>;
}

export function createRateLimiter(db: Db): RateLimiter {
  const states = new Map<string, BucketState>();

  function stateFor(key: string, windowStart: number): BucketState {
    let state = states.get(key);
    if (!state || state.windowStart !== windowStart) {
      // A new window starts from an exact count again; old windows are dropped as they are replaced.
      state = { windowStart, tokens: 0, waiting: 0, sharedCount: 0, exhausted: false, lease: 1, lastReservedAt: 0 };
      states.set(key, state);
      if (states.size > 50_000) pruneOldWindows(states, windowStart);
    }
    return state;
  }

  async function reserve(key: string, state: BucketState, limit: number): Promise<void> {
    const now = Date.now();
    const grown = now - state.lastReservedAt < BURST_GAP_MS ? state.lease * 2 : 1;
    state.lease = Math.min(MAX_LEASE, Math.max(grown, state.waiting));
    state.lastReservedAt = now;
    const left = Math.max(0, limit - state.sharedCount);
    const wanted = Math.max(1, Math.min(state.lease, Math.floor(left / 4)));
    const count = await addToRateWindow(db, key, new Date(state.windowStart), wanted);
    const before = count - wanted;
    const granted = Math.max(0, Math.min(wanted, limit - before));
    state.sharedCount = Math.max(state.sharedCount, count);
    state.tokens += granted;
    if (granted === 0) state.exhausted = true;
  }

  return {
    async consume({ bucket, userId, limit, now = Date.now() }) {
      const windowStart = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
      const resetAt = new Date(windowStart + RATE_WINDOW_MS);
      if (limit === null) return { allowed: true, limit: null, remaining: null, resetAt, retryAfterSeconds: 0 };
      const key = `${bucket}:${userId}`;
      const state = stateFor(key, windowStart);
      for (;;) {
        if (state.tokens > 0) {
          state.tokens--;
          // Admitted so far by everyone, as far as this process knows: the shared count less what it still holds.
          const remaining = Math.max(0, limit - (state.sharedCount - state.tokens));
          return { allowed: true, limit, remaining, resetAt, retryAfterSeconds: 0 };
        }
        if (state.exhausted) {
          const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
          return { allowed: false, limit, remaining: 0, resetAt, retryAfterSeconds };
        }
        state.waiting++;
        try {
          state.reserving ??= reserve(key, state, limit).finally(() => {
            state.reserving = undefined;
          });
          await state.reserving;
        } finally {
          state.waiting--;
        }
      }
    },
  };
}

/**
 * Adds `n` to a bucket's window and returns the count including them: one atomic upsert, so concurrent callers (in
 * any process) each see a different count. A relaxed commit: a counter lost in a database crash only lets a few more
 * requests through in that minute.
 */
export async function addToRateWindow(db: Db, bucket: string, windowStart: Date, n: number): Promise<number> {
  const rows = await rowsOf<{ count: number | string }>(db, sql`
    with ${RELAXED_COMMIT}
    insert into rate_limit_windows (bucket, window_start, count)
    values (${bucket}, ${windowStart.toISOString()}::timestamptz, ${n})
    on conflict (bucket, window_start) do update set count = rate_limit_windows.count + ${n}
    returning count, ${RELAXED_COMMIT_TAKEN} as relaxed`);
  return Number(rows[0]?.count ?? n);
}

function pruneOldWindows(states: Map<string, BucketState>, currentWindow: number): void {
  for (const [key, state] of states) if (state.windowStart < currentWindow) states.delete(key);
}
