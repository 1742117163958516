// Recording how a job ended. The job's row is updated (or deleted) only where this worker still holds it — the
// same worker and claim number — so a worker that lost its lease (it hung; another worker took the job over)
// changes nothing. The handler's own writes ride in the same statement, gated on that same condition: one round
// trip, all or nothing.
// Outcomes (and claims, claim.ts) are relaxed commits (db/relaxed.ts): if PostgreSQL itself crashes, the last instants
// of them may be lost — the job then looks claimed or unsettled, its lease runs out, and it runs again (a duplicate
// delivery with the same delivery id: at-least-once holds). It saves a disk flush per job.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { toJsonText } from '../db/json.js';
import { storableText } from '../db/storable.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOf } from '../db/rows.js';
import { notifyWorkers } from './enqueue.js';
import type { ClaimedJob, JobResult } from './types.js';

/** Longest error text kept on a job row. */
const MAX_ERROR_LENGTH = 2000;

const clip = (text: string) => storableText(text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text);
const iso = (ms: number) => new Date(ms).toISOString();
const json = (value: unknown) => (value === undefined ? null : toJsonText(value));

/**
 * A job's result as JSON text, or why it has none: a result JSON cannot hold (a string past what JavaScript can
 * build, a BigInt) fails its job with the reason, instead of failing the write and leaving the job `running` until
 * its lease lapses and another worker runs it again.
 */
function storedResult(result: unknown): { text: string | null; problem?: string } {
  try {
    return { text: json(result) };
  } catch (err) {
    return { text: null, problem: `The job's result could not be stored (${err instanceof Error ? err.message : String(err)})` };
  }
}

function jobStatement(job: ClaimedJob, workerId: string, result: JobResult, keepFinished: boolean, now: number): SQL {
  const { outcome } = result;
  const held = sql`id = ${job.id} and status = 'running' and locked_by = ${workerId} and attempts = ${job.attempts}`;
  switch (outcome.type) {
    case 'complete':
    case 'fail': {
      if (!keepFinished) return sql`delete from jobs where ${held} returning id`;
      const stored = storedResult(outcome.result);
      const errors = [outcome.type === 'fail' ? outcome.error : undefined, stored.problem].filter((e) => e !== undefined);
      return sql`update jobs set
          status = ${errors.length === 0 ? 'completed' : 'failed'},
          result = ${stored.text}::jsonb,
          last_error = ${errors.length === 0 ? null : clip(errors.join('; '))}::text,
          completed_at = ${iso(now)}::timestamptz,
          lease_until = null
        where ${held} returning id`;
    }
    case 'retry':
      return sql`update jobs set
          status = 'queued', run_at = ${iso(outcome.runAt)}::timestamptz, last_error = ${clip(outcome.error)}::text,
          lease_until = null, locked_by = null
        where ${held} returning id`;
    case 'release':
      // Handed back unattempted: the claim does not count.
      return sql`update jobs set
          status = 'queued', run_at = ${outcome.runAt !== undefined ? sql`${iso(outcome.runAt)}::timestamptz` : outcome.keepPlace ? sql`run_at` : sql`${iso(now)}::timestamptz`},
          attempts = attempts - 1, lease_until = null, locked_by = null
          ${outcome.payloadPatch ? sql`, payload = payload || ${toJsonText(outcome.payloadPatch)}::jsonb` : sql``}
          ${outcome.flow ? sql`, flow_key = ${outcome.flow.key}::text, flow_limit = ${outcome.flow.limit}::int` : sql``}
        where ${held} returning id`;
  }
}

export interface Settlement {
  job: ClaimedJob;
  result: JobResult;
  keepFinished: boolean;
}

/**
 * Settles several jobs in one statement (one round trip, one commit): each gets its own fenced job update and
 * gated writes. Returns, per job, whether it was still this worker's to settle. All or nothing: if any write
 * fails, none is applied (the caller then settles them one by one).
 */
export async function settleJobs(db: Db, workerId: string, items: Settlement[], now: number): Promise<boolean[]> {
  if (items.length === 0) return [];
  const ctes: SQL[] = [RELAXED_COMMIT];
  items.forEach((item, i) => {
    const held = `h${i}`;
    ctes.push(sql`${sql.raw(held)} as (${jobStatement(item.job, workerId, item.result, item.keepFinished, now)})`);
    // Data-modifying WITH items always run, referenced or not; each write checks its job's own `held` itself.
    const writes = item.result.writes?.(sql.raw(`exists (select 1 from ${held})`)) ?? [];
    writes.forEach((write, j) => ctes.push(sql`${sql.raw(`${held}w${j}`)} as (${write})`));
  });
  const counts = sql.join(
    items.map((_, i) => sql.raw(`(select count(*)::int from h${i}) as h${i}`)),
    sql`, `,
  );
  const statement = sql`with ${sql.join(ctes, sql`, `)} select ${counts}, ${RELAXED_COMMIT_TAKEN} as relaxed`;
  const rows = await rowsOf(db, statement);
  const held = items.map((_, i) => Number(rows[0]?.[`h${i}`]) === 1);
  if (items.some((item, i) => held[i] && item.result.outcome.type === 'release')) await notifyWorkers(db);
  return held;
}
