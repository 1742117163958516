// Delivery history (docs/api.md 7: paged, each attempt shown) and redelivery, which creates a new delivery that goes
// through the same worker path, signing and retry schedule as any other.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deliveries, deliveryAttempts } from '../../db/schema.js';
import { isStorableText } from '../../db/storable.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { FileStorage } from '../files/storage.js';
import type { AppContext } from '../app-context.js';
import { createDeliveries } from './create-deliveries.js';
import { deliveryBodies, LOG_GONE } from './delivery-body.js';

type DeliveryRow = typeof deliveries.$inferSelect;
type AttemptRow = typeof deliveryAttempts.$inferSelect;

export interface AttemptView {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface DeliveryView {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  executionId: string | null;
  /** pending | succeeded | failed */
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
  /** The exact body sent on every attempt; null once the execution's log is deleted by retention. */
  payload: unknown;
  attempts: AttemptView[];
}

/** `body`: the delivery's body (delivery-body.ts), null when it can no longer be built. */
export function toDeliveryView(row: DeliveryRow, body: string | null, attempts: AttemptRow[] = []): DeliveryView {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    eventId: row.eventId,
    eventType: row.eventType,
    executionId: row.executionId,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    payload: body === null ? null : (JSON.parse(body) as unknown),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
    })),
  };
}

const encodeCursor = (deliveryId: string) => Buffer.from(JSON.stringify({ d: deliveryId })).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { d?: unknown };
    const { d } = parsed;
    if (typeof d === 'string' && d.length > 0 && d.length <= 64 && isStorableText(d)) return d;
  } catch {
    // fall through
  }
  throw badRequest('Invalid cursor', [{ path: 'cursor', message: 'not a cursor from a previous page' }]);
}

/** Newest first. The cursor names the last delivery shown; the next page starts strictly after it. */
export async function listDeliveries(
  db: Db,
  subscriptionId: string,
  page: { limit: number; cursor?: string },
  storage: FileStorage,
): Promise<{ data: DeliveryView[]; nextCursor: string | null }> {
  const conditions = [eq(deliveries.subscriptionId, subscriptionId)];
  if (page.cursor) {
    const after = decodeCursor(page.cursor);
    const [anchor] = await db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(and(eq(deliveries.id, after), eq(deliveries.subscriptionId, subscriptionId)))
      .limit(1);
    if (!anchor) throw badRequest('Invalid cursor', [{ path: 'cursor', message: 'not a cursor of this subscription' }]);
    // Compared in the database, at the column's full (microsecond) precision.
    conditions.push(
      sql`(${deliveries.createdAt}, ${deliveries.id}) < (select d.created_at, d.id from deliveries d where d.id = ${after})`,
    );
  }
  const rows = await db
    .select()
    .from(deliveries)
    .where(and(...conditions))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(page.limit + 1);
  const pageRows = rows.slice(0, page.limit);
  const attempts =
    pageRows.length === 0
      ? []
      : await db
          .select()
          .from(deliveryAttempts)
          .where(inArray(deliveryAttempts.deliveryId, pageRows.map((r) => r.id)))
          .orderBy(asc(deliveryAttempts.attempt));
  const bodies = await deliveryBodies({ db, storage }, pageRows);
  return {
    data: pageRows.map((row, i) => toDeliveryView(row, bodies[i], attempts.filter((a) => a.deliveryId === row.id))),
    nextCursor: rows.length > page.limit ? encodeCursor(pageRows[pageRows.length - 1].id) : null,
  };
}

/**
 * Sends the same event again as a new delivery (new delivery id, same event id and body: the same envelope, built
 * from the same log). Refused once the log is gone: its body can no longer be built.
 */
export async function redeliver(
  app: AppContext,
  scope: { workflowId: string; subscriptionId?: string },
  deliveryId: string,
): Promise<DeliveryView> {
  const { workflowId } = scope;
  const conditions = [eq(deliveries.id, deliveryId), eq(deliveries.workflowId, workflowId)];
  if (scope.subscriptionId) conditions.push(eq(deliveries.subscriptionId, scope.subscriptionId));
  const [original] = await app.db
    .select()
    .from(deliveries)
    .where(and(...conditions))
    .limit(1);
  if (!original) throw notFound('Delivery');
  const [body] = await deliveryBodies({ db: app.db, storage: app.files.storage, logger: app.logger }, [original]);
  if (body === null) throw new AppError('EXECUTION_LOG_GONE', 410, `Cannot redeliver: ${LOG_GONE}`);
  const [created] = await app.db.transaction((tx) =>
    createDeliveries(
      tx,
      [
        {
          eventId: original.eventId,
          subscriptionId: original.subscriptionId,
          workflowId,
          executionId: original.executionId,
          body: original.body,
          envelope: original.envelope,
        },
      ],
      { manual: true },
    ),
  );
  return toDeliveryView(created, body);
}
