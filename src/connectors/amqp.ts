// RabbitMQ (AMQP 0-9-1) through amqplib: one connection per credential version and process (ConnectionCache), a
// confirm channel per publish so the answer says the broker took the message, and consumers for queue triggers.
import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { raceAbort } from '../engine/abort.js';
import { onFirstUse } from '../lazy-import.js';
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';
import type { ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';
import { useLiveConnection } from './live-connection.js';
import { decodeBody, waitForRuns, type MessageHandler, type QueueConsumer, type QueueMessage } from './queue-message.js';

export const AMQP_CONNECT_TIMEOUT_MS = 10_000;

type AmqpCredential = ResolvedCredential<'amqp'>;

const amqplib = onFirstUse(() => import('amqplib'));

/** Opens a connection with the credential's data, to the address the host policy allows. */
export async function openAmqp(credential: AmqpCredential, policy: HostPolicy): Promise<ChannelModel> {
  const { host, port, user, password, vhost, tls } = credential.data;
  const address = await checkedConnectorAddress(host, policy);
  const model = await (await amqplib()).connect(
    {
      protocol: tls ? 'amqps' : 'amqp',
      hostname: address,
      port: port ?? (tls ? 5671 : 5672),
      username: user ?? 'guest',
      password: password ?? 'guest',
      vhost: vhost ?? '/',
      heartbeat: 30,
    },
    { timeout: AMQP_CONNECT_TIMEOUT_MS, ...(tls ? { servername: host } : {}) },
  );
  // A connection error is also a 'close'; without a listener an 'error' event would crash the process.
  model.on('error', () => {});
  return model;
}

interface PooledAmqp {
  model: ChannelModel;
  closed: boolean;
}

function amqpOpener(credential: AmqpCredential, policy: HostPolicy): ConnectionOpener<PooledAmqp> {
  return {
    kind: 'amqp',
    async open() {
      const pooled: PooledAmqp = { model: await openAmqp(credential, policy), closed: false };
      pooled.model.on('close', () => (pooled.closed = true));
      return pooled;
    },
    async close(pooled) {
      if (!pooled.closed) await pooled.model.close();
    },
  };
}

/** Runs `fn` with the process's connection for this credential, reopening it once when the broker had dropped it. */
function withAmqp<R>(connections: ConnectionCache, credential: AmqpCredential, policy: HostPolicy, fn: (model: ChannelModel) => Promise<R>) {
  return useLiveConnection(connections, credential, amqpOpener(credential, policy), (pooled) => !pooled.closed, (pooled) => fn(pooled.model));
}

export interface AmqpPublish {
  message: Buffer;
  contentType?: string;
  /** To a queue through the default exchange, or to an exchange with a routing key. */
  queue?: string;
  exchange?: string;
  routingKey?: string;
  persistent: boolean;
  headers?: Record<string, unknown>;
}

export interface AmqpPublishResult {
  exchange: string;
  routingKey: string;
}

/**
 * Publishes on a confirm channel with `mandatory`, so a message no queue would receive comes back (and is reported)
 * and the answer waits for the broker's confirm. The channel is the publish's own: an unknown exchange closes it.
 */
export async function publishAmqp(
  connections: ConnectionCache,
  credential: AmqpCredential,
  policy: HostPolicy,
  request: AmqpPublish,
  signal: AbortSignal,
): Promise<AmqpPublishResult> {
  const exchange = request.queue ? '' : (request.exchange ?? '');
  const routingKey = request.queue ?? request.routingKey ?? '';
  return withAmqp(connections, credential, policy, async (model) => {
    const channel: ConfirmChannel = await model.createConfirmChannel();
    let channelError: Error | undefined;
    channel.on('error', (error: Error) => (channelError = error));
    let returned = false;
    channel.on('return', () => (returned = true));
    try {
      await raceAbort(
        new Promise<void>((resolve, reject) => {
          channel.on('close', () => reject(channelError ?? new Error('The broker closed the channel')));
          channel.publish(
            exchange,
            routingKey,
            request.message,
            {
              mandatory: true,
              persistent: request.persistent,
              ...(request.contentType ? { contentType: request.contentType } : {}),
              ...(request.headers ? { headers: request.headers } : {}),
            },
            (error: unknown) => (error ? reject(channelError ?? new Error('The broker refused the message (nack)')) : resolve()),
          );
        }),
        signal,
      );
    } finally {
      if (!channelError) await channel.close().catch(() => {});
    }
    if (returned) {
      throw new Error(
        request.queue ? `No queue named "${request.queue}" received the message` : `No queue is bound to exchange "${exchange}" for routing key "${routingKey}"`,
      );
    }
    return { exchange, routingKey };
  });
}

export async function testAmqp(credential: ResolvedCredential, policy: HostPolicy): Promise<string> {
  const model = await openAmqp(credential as AmqpCredential, policy);
  try {
    const props = model.connection.serverProperties;
    return `Connected to ${props.product ?? 'AMQP broker'} ${props.version ?? ''}`.trim();
  } finally {
    await model.close().catch(() => {});
  }
}

export type { ConsumeMessage };

/**
 * Consumes a queue with manual acks and `prefetch` messages in hand at most, on a connection of its own. Every worker
 * process consuming the same queue is a competing consumer: RabbitMQ hands each message to one of them.
 */
export async function consumeAmqp(
  credential: AmqpCredential,
  policy: HostPolicy,
  options: { queue: string; prefetch: number; consumerTag: string },
  handle: MessageHandler,
): Promise<QueueConsumer> {
  const model = await openAmqp(credential, policy);
  let closedWith: (error: Error | undefined) => void = () => {};
  const closed = new Promise<Error | undefined>((resolve) => (closedWith = resolve));
  let stopping = false;
  model.on('close', (error?: Error) => closedWith(stopping ? undefined : (error ?? new Error('The broker closed the connection'))));
  try {
    const newChannel = async () => {
      const channel = await model.createChannel();
      channel.on('error', () => {});
      return channel;
    };
    let usable = await newChannel();
    try {
      await usable.assertQueue(options.queue, { durable: true });
    } catch (error) {
      // A queue declared elsewhere with other arguments is used as it is (the refusal closed that channel).
      if (!/PRECONDITION_FAILED/.test(String(error))) throw error;
      usable = await newChannel();
    }
    usable.on('close', () => {
      if (!stopping) void model.close().catch(() => {});
    });
    await usable.prefetch(options.prefetch);
    const inHand = new Set<Promise<void>>();
    const { consumerTag } = await usable.consume(
      options.queue,
      (delivered) => {
        if (!delivered) return;
        const message: QueueMessage = {
          body: decodeBody(delivered.content),
          headers: { ...(delivered.properties.headers ?? {}) },
          properties: amqpProperties(options.queue, delivered),
        };
        const settled = handle(message).then(
          (settlement) => {
            if (settlement === 'ack') usable.ack(delivered);
            else usable.nack(delivered, false, true);
          },
          () => usable.nack(delivered, false, true),
        );
        const tracked = settled.catch(() => {}).finally(() => inHand.delete(tracked));
        inHand.add(tracked);
      },
      { noAck: false, consumerTag: options.consumerTag },
    );
    return {
      closed,
      async stop(graceMs) {
        await usable.cancel(consumerTag).catch(() => {});
        await waitForRuns(inHand, graceMs);
        stopping = true;
        await model.close().catch(() => {});
      },
    };
  } catch (error) {
    stopping = true;
    await model.close().catch(() => {});
    throw error;
  }
}

function amqpProperties(queue: string, message: ConsumeMessage): Record<string, unknown> {
  const { fields, properties } = message;
  const shown: Record<string, unknown> = {
    queue,
    exchange: fields.exchange,
    routingKey: fields.routingKey,
    redelivered: fields.redelivered,
  };
  for (const key of ['contentType', 'contentEncoding', 'messageId', 'correlationId', 'replyTo', 'type', 'appId', 'priority', 'expiration'] as const) {
    if (properties[key] !== undefined) shown[key] = properties[key];
  }
  if (properties.timestamp !== undefined) shown.timestamp = properties.timestamp;
  if (properties.deliveryMode !== undefined) shown.persistent = properties.deliveryMode === 2;
  return shown;
}
