// The publish block: one message to RabbitMQ, MQTT or NATS, the broker following the credential's type. It answers
// only once the broker took the message (AMQP confirm, MQTT PUBACK for QoS 1, the JetStream ack); a refusal is its
// error output, like the API block's transport failures. `headers` go as AMQP message headers, MQTT 5 user properties
// or NATS message headers, so a consumer can route or trace by them without parsing the body.
import { z } from 'zod';
import { publishAmqp } from '../connectors/amqp.js';
import { assertCredentialType, type ResolvedCredential } from '../connectors/credential-data.js';
import { publishMqtt } from '../connectors/mqtt.js';
import { publishNats } from '../connectors/nats.js';
import { connectorErrorMessage } from '../connectors/test-connection.js';
import { defineBlock } from './define-block.js';
import { publishForm } from './forms.js';
import type { BlockResult, BlockRunContext } from './types.js';

const flag = (fallback: boolean) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).default(fallback);
const optionalName = z.string().trim().max(255).optional();

/** A header's value: text as it is; a reference to a number, boolean, object or list is sent as its JSON text. */
const headerValue = z.preprocess((v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null)), z.string().max(4_096));
/** Header name → value; a name the broker cannot carry (NATS takes printable ASCII without `:`) is its error output. */
const headersSchema = z
  .record(z.string().trim().min(1, 'a header needs a name').max(255), headerValue)
  .refine((record) => Object.keys(record).length <= 64, 'at most 64 headers')
  .optional();

export const publishBlockConfigSchema = z.object({
  credentialId: z.string(),
  /** Text is sent as it is; anything else as JSON. */
  message: z.unknown().optional(),
  queue: optionalName,
  exchange: optionalName,
  routingKey: z.string().max(255).optional(),
  persistent: flag(true),
  topic: z.string().max(65_535).optional(),
  qos: z.preprocess((v) => (v === '0' || v === '1' ? Number(v) : v), z.union([z.literal(0), z.literal(1)])).default(1),
  retain: flag(false),
  subject: z.string().max(255).optional(),
  jetstream: flag(false),
  /** Sent with the message: AMQP headers, MQTT 5 user properties, NATS headers. */
  headers: headersSchema,
});
export type PublishBlockConfig = z.infer<typeof publishBlockConfigSchema>;

function encode(message: unknown): { body: Buffer; contentType: string } {
  if (typeof message === 'string') return { body: Buffer.from(message, 'utf8'), contentType: 'text/plain' };
  return { body: Buffer.from(JSON.stringify(message ?? null), 'utf8'), contentType: 'application/json' };
}

async function publish(ctx: BlockRunContext<PublishBlockConfig>): Promise<Record<string, unknown>> {
  const { config, services, signal } = ctx;
  if (!config.credentialId.trim()) throw new Error('Choose a credential (amqp, mqtt or nats)');
  if (!services.credential) throw new Error('Credentials are not available here');
  const credential = await services.credential(config.credentialId.trim());
  assertCredentialType(credential, ['amqp', 'mqtt', 'nats']);
  const policy = { allowPrivateNetwork: services.allowPrivateNetwork, allowedHosts: services.allowedHosts };
  const { body, contentType } = encode(config.message);
  const headers = config.headers && Object.keys(config.headers).length > 0 ? config.headers : undefined;
  switch (credential.type) {
    case 'amqp': {
      if (!config.queue && !config.exchange) throw new Error('Give a queue, or an exchange and a routing key');
      const sent = await publishAmqp(
        services.connections,
        credential as ResolvedCredential<'amqp'>,
        policy,
        { message: body, contentType, queue: config.queue || undefined, exchange: config.exchange, routingKey: config.routingKey, persistent: config.persistent, headers },
        signal,
      );
      return { broker: 'amqp', ...(config.queue ? { queue: config.queue } : {}), ...sent };
    }
    case 'mqtt': {
      if (!config.topic) throw new Error('Give a topic');
      return { broker: 'mqtt', ...(await publishMqtt(services.connections, credential as ResolvedCredential<'mqtt'>, policy, { topic: config.topic, message: body, qos: config.qos, retain: config.retain, headers }, signal)) };
    }
    case 'nats': {
      if (!config.subject) throw new Error('Give a subject');
      return { broker: 'nats', ...(await publishNats(services.connections, credential as ResolvedCredential<'nats'>, policy, { subject: config.subject, message: body, jetstream: config.jetstream, headers }, signal)) };
    }
  }
}

export const publishBlock = defineBlock<PublishBlockConfig>(publishForm, {
  configSchema: publishBlockConfigSchema,
  async run(ctx): Promise<BlockResult> {
    try {
      return { output: { accepted: true, ...(await publish(ctx)) } };
    } catch (error) {
      // A cancelled run stops here as a cancellation, not as a broker's answer.
      if (ctx.signal.aborted) throw error;
      return { output: { accepted: false, error: connectorErrorMessage(error) }, continueOnError: true };
    }
  },
});
