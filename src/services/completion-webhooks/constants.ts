// Vocabulary of completion webhooks (SEED.md §Webhook subscription, §Events).
export { TRIGGER_TYPES } from '../../workflow/index.js';

/** The only event kind (SEED.md §Events). */
export const COMPLETION_EVENT = 'workflow.execution.completed';
export const LOG_LEVELS = ['info', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Job kind of one delivery attempt series. */
export const DELIVERY_JOB = 'webhook.deliver';

/** Longest Retry-After honoured (SPEC §6). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** Random extra delay on each retry, as a fraction of the scheduled delay (SEED.md §Limits: up to 10%). */
export const RETRY_JITTER = 0.1;
