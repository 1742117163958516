// Throttle (docs/workflows.md "Flow control"): at most `limit` run starts per `periodMs` per key, across every process.
// A sliding window, not a fixed one: a fixed window lets 2 × limit starts through around its boundary (limit at the
// end of one window, limit at the start of the next), and "no period ever holds more than limit starts" is what a
// partner's rate limit asks for. The window is kept as `limit` rows per key (`flow_throttle_starts`): start number
// 0…limit-1 and when it was last used. A start takes a number whose last use is older than the period — an upsert
// whose WHERE re-checks that on the row it locks, so two processes never take the same one — and the key is full
// while every number was used within the period; then the next start frees when the oldest of them is a period old.
// Times are the database's clock, the one clock every process shares.
// - Sync and streaming calls take their start before they run, or are refused with 429 THROTTLED and Retry-After.
// - Async runs take theirs when a worker starts them; a throttled one goes back to the queue, due when a start frees
//   (async-executions.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { AppError } from '../errors.js';
import type { WorkflowState } from '../workflow/index.js';
import { flowKeyOf } from './flow-keys.js';

/** Tries to take a start before the key counts as full: only a race for the same start number tries again. */
const TAKE_ATTEMPTS = 4;

/** A run's throttle: the key whose starts it counts against, and the rate. */
export interface RunThrottle {
  workflowId: string;
  /** `<workflowId>:<key value>`. */
  throttleKey: string;
  limit: number;
  periodMs: number;
}

/** A start taken (`at`: when, epoch ms on the database's clock), or when the next one frees. */
export type ThrottleStart = { taken: true; at: number } | { taken: false; freeAt: number };

/** The throttle of a run of `state` with `input`; undefined when the workflow sets none. */
export function runThrottleOf(workflowId: string, state: WorkflowState, input: Record<string, unknown>): RunThrottle | undefined {
  const throttle = state.flowControl?.throttle;
  if (!throttle) return undefined;
  return { workflowId, throttleKey: flowKeyOf(workflowId, throttle.key, input), limit: throttle.limit, periodMs: throttle.periodMs };
}

/**
 * Takes a start of the key for `executionId` now; or, when the key is full, says when (epoch ms) the next start frees.
 * A run that already took one (a job claimed again after its worker died) keeps it.
 */
export async function takeStart(db: Db, throttle: RunThrottle, executionId: string): Promise<ThrottleStart> {
  const period = sql`(${throttle.periodMs}::int * interval '1 millisecond')`;
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    const rows = await rowsOf<{ taken: number | null; mine: number | null; used: number; free_at: number | null; at: number | null }>(
      db,
      // The free numbers are tried from the lowest: racing takers of a small limit meet on the same number, one wins
      // and the others look again (TAKE_ATTEMPTS).
      sql`with clock as (select clock_timestamp() as now),
      free as (
        select s from generate_series(0, ${throttle.limit - 1}::int) s
        where not exists (select 1 from flow_throttle_starts t, clock
          where t.throttle_key = ${throttle.throttleKey} and t.slot = s and t.started_at > clock.now - ${period})
        order by s limit 1),
      taken as (
        insert into flow_throttle_starts (throttle_key, slot, workflow_id, execution_id, started_at)
        select ${throttle.throttleKey}, free.s, ${throttle.workflowId}, ${executionId}, clock.now from free, clock
        where exists (select 1 from workflows w where w.id = ${throttle.workflowId})
          and not exists (select 1 from flow_throttle_starts t where t.throttle_key = ${throttle.throttleKey} and t.execution_id = ${executionId})
        on conflict (throttle_key, slot) do update set execution_id = excluded.execution_id, started_at = excluded.started_at
          where flow_throttle_starts.started_at <= excluded.started_at - ${period}
        returning slot, started_at)
      select (select slot from taken) as taken,
        (select slot from flow_throttle_starts t where t.throttle_key = ${throttle.throttleKey} and t.execution_id = ${executionId} limit 1) as mine,
        (select (extract(epoch from coalesce((select started_at from taken),
          (select started_at from flow_throttle_starts t where t.throttle_key = ${throttle.throttleKey} and t.execution_id = ${executionId} limit 1))) * 1000)::float8) as at,
        (select count(*)::int from flow_throttle_starts t, clock where t.throttle_key = ${throttle.throttleKey} and t.started_at > clock.now - ${period}) as used,
        (select (extract(epoch from min(t.started_at) + ${period}) * 1000)::float8 from flow_throttle_starts t, clock
          where t.throttle_key = ${throttle.throttleKey} and t.started_at > clock.now - ${period}) as free_at`,
    );
    const [row] = rows;
    // Floored to the millisecond a log keeps: two starts a period apart stay at least a period apart in the logs.
    if (row && (row.taken !== null || row.mine !== null)) return { taken: true, at: row.at === null ? Date.now() : Math.floor(Number(row.at)) };
    if (!row || Number(row.used) >= throttle.limit) {
      // Full: the oldest start of the window frees first.
      return { taken: false, freeAt: row?.free_at === null || row?.free_at === undefined ? Date.now() + throttle.periodMs : Math.ceil(Number(row.free_at)) };
    }
  }
  return { taken: false, freeAt: Date.now() + 1 };
}

/** Drops starts older than any period could look back to (a key unused for a day keeps no rows). */
export async function pruneThrottleStarts(db: Db, olderThanMs: number): Promise<void> {
  await db.execute(sql`delete from flow_throttle_starts where started_at < clock_timestamp() - (${olderThanMs}::bigint * interval '1 millisecond')`);
}

/** Seconds until a start frees, for Retry-After (at least 1). */
export const retryAfterSeconds = (freeAt: number): number => Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));

export function throttledError(throttle: RunThrottle, freeAt: number): AppError {
  const seconds = retryAfterSeconds(freeAt);
  return new AppError(
    'THROTTLED',
    429,
    `Throttled: ${throttle.limit} run${throttle.limit === 1 ? '' : 's'} per ${throttle.periodMs} ms for this key have started; try again in ${seconds} s`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}
