// `Idempotency-Key` on execute calls (SPEC §4): the same key for the same workflow within 24 h replays the first
// execution's response; while that first one still runs, a repeat gets 409 IDEMPOTENCY_CONFLICT.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { AppError } from '../errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

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

/** Claims the key for a new execution, or tells the caller what to replay. Safe against concurrent callers. */
export async function claimIdempotencyKey(
  db: Db,
  input: { workflowId: string; key: string; executionId: string },
): Promise<IdempotencyClaim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ workflowId: input.workflowId, key: input.key, executionId: input.executionId, status: 'running' })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: 'claimed' };
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key)))
      .limit(1);
    if (!existing) continue; // expired and deleted in between: try to claim again
    if (Date.now() - existing.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key)));
      continue;
    }
    if (existing.status !== 'done') {
      throw new AppError('IDEMPOTENCY_CONFLICT', 409, 'An execution with this Idempotency-Key is still running');
    }
    return {
      kind: 'replay',
      response: {
        status: existing.responseStatus ?? 200,
        headers: (existing.responseHeaders as Record<string, string>) ?? {},
        body: existing.responseBody,
      },
    };
  }
  throw new AppError('IDEMPOTENCY_CONFLICT', 409, 'The Idempotency-Key could not be claimed; retry');
}

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

/** Frees a key whose execution never produced a response (so the client may retry). */
export async function releaseIdempotencyKey(db: Db, input: { workflowId: string; key: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.workflowId, input.workflowId), eq(idempotencyKeys.key, input.key)));
}
