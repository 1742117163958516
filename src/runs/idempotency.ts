// `Idempotency-Key` on execute calls (README "Idempotency"), in every mode: plain, streaming and async. The key is
// claimed before the run, bound to a hash of the request (its mode and exact body bytes), and answered once:
// - the same key again with the same request within 24 h replays the first answer (`Idempotent-Replayed: true`): a
//   plain call gets the first response, a streaming call the first run's final record, an async call the same task;
// - while the first call still runs, a repeat gets 409 IDEMPOTENCY_CONFLICT;
// - the same key with a different request is 422 IDEMPOTENCY_KEY_REUSED (as Stripe does): a key names one request;
// - after 24 h the key is free again.
// The answer of a run is committed with its log (run-recorder.ts); a run interrupted by a crash gets its error
// answer when its log is closed (runs/runners.ts), so no key stays claimed forever.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { AppError } from '../errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse };

export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('VALIDATION_ERROR', 400, `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, [
      { path: 'Idempotency-Key', message: 'invalid length' },
    ]);
  }
}

/** What a key is bound to: the mode of the call and its exact body. */
export function requestHash(mode: string, body: Uint8Array): string {
  return createHash('sha256').update(mode).update('\n').update(body).digest('hex');
}

/** Claims the key for a new execution, or tells the caller what to replay. Safe against concurrent callers. */
export async function claimIdempotencyKey(
  db: Db,
  input: {
    workflowId: string;
    key: string;
    executionId: string;
    requestHash: string;
    /** A claim still `running` after this long (its process died before the run began) is taken over. */
    abandonedAfterMs: number;
  },
): Promise<IdempotencyClaim> {
  const where = and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key));
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        workflowId: input.workflowId,
        key: input.key,
        executionId: input.executionId,
        requestHash: input.requestHash,
        status: 'running',
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: 'claimed' };
    const [existing] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) continue; // expired and deleted in between: try to claim again
    const age = Date.now() - existing.createdAt.getTime();
    const expired = age > IDEMPOTENCY_TTL_MS;
    if (expired || (existing.status === 'running' && age > input.abandonedAfterMs)) {
      // Deleted only while it is still that old claim (compared by age: the column keeps microseconds, a Date does not).
      const cutoff = new Date(Date.now() - (expired ? IDEMPOTENCY_TTL_MS : input.abandonedAfterMs));
      await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, cutoff)));
      continue;
    }
    if (existing.requestHash !== null && existing.requestHash !== input.requestHash) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        422,
        'This Idempotency-Key was already used with a different request (mode or body); use a new key for a new request',
      );
    }
    if (existing.status !== 'done') {
      throw new AppError('IDEMPOTENCY_CONFLICT', 409, 'An execution with this Idempotency-Key is still running');
    }
    return {
      kind: 'replay',
      response: {
        status: existing.responseStatus ?? 200,
        headers: existing.responseHeaders ?? {},
        body: existing.responseBody,
      },
    };
  }
  throw new AppError('IDEMPOTENCY_CONFLICT', 409, 'The Idempotency-Key could not be claimed; retry');
}

/** Stores the answer of a call that did not go through the run recorder (an async call's 202). */
export async function completeIdempotencyKey(
  db: Db,
  input: { workflowId: string; key: string; response: StoredResponse },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      status: 'done',
      responseStatus: input.response.status,
      responseHeaders: input.response.headers,
      responseBody: input.response.body ?? null,
    })
    .where(and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key)));
}

/** Frees a key whose call never produced an answer (refused before it ran), so the client may retry. */
export async function releaseIdempotencyKey(db: Db, input: { workflowId: string; key: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key)));
}
