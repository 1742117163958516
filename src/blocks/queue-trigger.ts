// The queue trigger: a worker consumes the queue (RabbitMQ), topic (MQTT) or subject (NATS) of the active deployment
// and starts a run per message (src/triggers/queue-consumers.ts); this block hands the run the message.
import { z } from 'zod';
import { triggerBlock } from './define-block.js';
import { queueTriggerForm } from './forms.js';

const flag = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
const name = z.string().trim().min(1).max(255).optional();

export const queueTriggerConfigSchema = z.object({
  credentialId: z.string(),
  queue: name,
  topic: z.string().trim().min(1).max(65_535).optional(),
  subject: name,
  /** NATS: the JetStream stream to consume (by default the one capturing `subject`) and the durable consumer's name. */
  stream: name,
  durable: name,
  /**
   * Runs of this trigger at a time: in each worker process for RabbitMQ (prefetch) and MQTT (receive maximum); for
   * NATS across all of them (the durable consumer's max_ack_pending).
   */
  concurrency: z.coerce.number().int().min(1).max(64).default(4),
  /** A failed run's message goes back to the broker to be delivered again, rather than being acknowledged. */
  redeliverOnError: flag.default(false),
});
export type QueueTriggerConfig = z.infer<typeof queueTriggerConfigSchema>;

export const queueTriggerBlock = triggerBlock<QueueTriggerConfig>('queue', queueTriggerForm, queueTriggerConfigSchema, async (ctx) => {
  const { body, headers, properties } = ctx.trigger.input;
  // A manual run has no message: it starts with an empty one.
  return { output: { body: body ?? null, headers: headers ?? {}, properties: properties ?? {} } };
});
