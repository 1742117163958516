// A delivery is a row (its body fixed from now on: stored, or built from the log that does not change) plus the job that attempts it; both are written in the caller's
// transaction, so they exist exactly when whatever caused them (an execution's completion) does.
import type { Db } from '../../db/client.js';
import { deliveries } from '../../db/schema.js';
import { enqueueJobs } from '../../jobs/enqueue.js';
import { newId } from '../../ids.js';
import { COMPLETION_EVENT, DELIVERY_JOB } from './constants.js';

export interface NewDelivery {
  /** Assigned here when not given. */
  id?: string;
  eventId: string;
  subscriptionId: string;
  workflowId: string;
  executionId: string | null;
  /** The body itself: a test event's (about no log). */
  body?: string | null;
  /** What the body of a delivery of an execution is built from when it is sent (delivery-body.ts). */
  envelope?: string | null;
}

export interface DeliveryJobPayload {
  deliveryId: string;
  /** Set for test events and redeliveries: a person asked for them, so a disabled subscription still gets them. */
  manual?: boolean;
  /** Set once its body could not be built (attempt-delivery.ts): since when (epoch ms), and how many times. */
  unbuilt?: { since: number; count: number };
}

export async function createDeliveries(db: Db, items: NewDelivery[], options: { manual?: boolean } = {}) {
  if (items.length === 0) return [];
  const now = new Date();
  const rows = await db
    .insert(deliveries)
    .values(items.map((item) => ({ ...item, id: item.id ?? newId('dlv'), eventType: COMPLETION_EVENT, nextAttemptAt: now })))
    .returning();
  await enqueueJobs(
    db,
    rows.map((row) => {
      const payload: DeliveryJobPayload = options.manual ? { deliveryId: row.id, manual: true } : { deliveryId: row.id };
      return { kind: DELIVERY_JOB, payload, runAt: now };
    }),
  );
  return rows;
}
