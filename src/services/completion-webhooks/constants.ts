// Vocabulary of completion webhooks (docs/api.md 7, docs/guarantees.md 3.1).
export { TRIGGER_TYPES } from '../../workflow/index.js';

/** The only event kind (docs/guarantees.md 3.1). */
export const COMPLETION_EVENT = 'workflow.execution.completed';
export const LOG_LEVELS = ['info', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Job kind of one delivery attempt series. */
export const DELIVERY_JOB = 'webhook.deliver';

/** Longest Retry-After honoured (docs/guarantees.md 3.4). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
/**
 * How long a delivery whose body cannot be built (file storage down, a value of its log unreadable) is tried again
 * before it is given up (docs/guarantees.md 3.4): long enough to ride out a storage outage, short enough that a value
 * that will never be read back does not keep the delivery, and its log, pending for ever.
 */
export const UNBUILT_GIVE_UP_MS = 24 * 3_600_000;
/** Random extra delay on each retry, as a fraction of the scheduled delay (docs/guarantees.md 3.4: up to 10%). */
export const RETRY_JITTER = 0.1;

/**
 * A delivery an execution's completion causes, as the run recorder writes it with the log (outbox.ts makes them). Kept
 * here, with the vocabulary, so the recorder's statement needs nothing of the outbox's context-bound side.
 */
export interface OutboxDelivery {
  id: string;
  eventId: string;
  subscriptionId: string;
  workflowId: string;
  executionId: string;
  /** What the body is built from when it is sent (delivery-body.ts): the body itself is not stored. */
  envelope: string;
}
