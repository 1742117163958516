// What every broker's queue-trigger consumer (amqp.ts, mqtt.ts, nats.ts) shares: the message a run sees, what
// becomes of it once the run is over, and how a consumer is stopped.

/** A message as a queue trigger's run sees it: `<queue.body>`, `<queue.headers>`, `<queue.properties>`. */
export interface QueueMessage {
  body: unknown;
  headers: Record<string, unknown>;
  properties: Record<string, unknown>;
}

/** What becomes of a delivered message once its run is over (or could not be logged). */
export type Settlement = 'ack' | 'requeue';

export type MessageHandler = (message: QueueMessage) => Promise<Settlement>;

export interface QueueConsumer {
  /** Resolves when the consumer stopped on its own (the broker closed it), with why. */
  closed: Promise<Error | undefined>;
  /** Stops taking messages, waits up to `graceMs` for those in hand, then closes (unsettled ones are redelivered). */
  stop(graceMs: number): Promise<void>;
}

/** JSON when the bytes are JSON, else the text. */
export function decodeBody(content: Uint8Array): unknown {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Waits for the runs in hand, or `graceMs`, whichever comes first. */
export async function waitForRuns(inHand: Set<Promise<void>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(inHand), new Promise((resolve) => (timer = setTimeout(resolve, graceMs).unref()))]);
  clearTimeout(timer);
}
