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
/** Random extra delay on each retry, as a fraction of the scheduled delay (docs/guarantees.md 3.4: up to 10%). */
export const RETRY_JITTER = 0.1;
