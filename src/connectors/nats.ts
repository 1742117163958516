// NATS through @nats-io/transport-node: one connection per credential version and process (ConnectionCache). Core
// publishes are confirmed by a flush (the server has read them); JetStream publishes by the stream's ack. Queue
// triggers consume a JetStream durable consumer on a connection of their own (consumeNats).
import type { PubAck } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { raceAbort } from '../engine/abort.js';
import { onFirstUse } from '../lazy-import.js';
import { testKnobMs } from '../test-knobs.js';
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';
import type { ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';
import { useLiveConnection } from './live-connection.js';
import { decodeBody, waitForRuns, type MessageHandler, type QueueConsumer, type QueueMessage } from './queue-message.js';

export const NATS_CONNECT_TIMEOUT_MS = 10_000;

type NatsCredential = ResolvedCredential<'nats'>;

const natsClient = onFirstUse(() => import('@nats-io/transport-node'));
const natsJetStream = onFirstUse(() => import('@nats-io/jetstream'));

export async function openNats(credential: NatsCredential, policy: HostPolicy, name = 'sluice'): Promise<NatsConnection> {
  const { host, port, user, password, token, tls } = credential.data;
  const address = await checkedConnectorAddress(host, policy);
  const hostPart = address.includes(':') ? `[${address}]` : address;
  const { connect } = await natsClient();
  return connect({
    servers: `${hostPart}:${port ?? 4222}`,
    name,
    ...(user !== undefined ? { user } : {}),
    ...(password !== undefined ? { pass: password } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(tls ? { tls: { servername: host } as object } : {}),
    timeout: NATS_CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: 10,
  });
}

function natsOpener(credential: NatsCredential, policy: HostPolicy): ConnectionOpener<NatsConnection> {
  return {
    kind: 'nats',
    open: () => openNats(credential, policy),
    close: (nc) => nc.close(),
  };
}

export interface NatsPublish {
  subject: string;
  message: Uint8Array;
  jetstream: boolean;
  headers?: Record<string, string>;
}

export type NatsPublishResult = { subject: string } & Partial<Pick<PubAck, 'stream' | 'seq' | 'duplicate'>>;

export async function publishNats(
  connections: ConnectionCache,
  credential: NatsCredential,
  policy: HostPolicy,
  request: NatsPublish,
  signal: AbortSignal,
): Promise<NatsPublishResult> {
  return useLiveConnection(connections, credential, natsOpener(credential, policy), (nc) => !nc.isClosed(), async (nc) => {
    let h: MsgHdrs | undefined;
    if (request.headers && Object.keys(request.headers).length > 0) {
      h = (await natsClient()).headers();
      for (const [key, value] of Object.entries(request.headers)) h.set(key, value);
    }
    if (request.jetstream) {
      try {
        const ack = await raceAbort((await natsJetStream()).jetstream(nc).publish(request.subject, request.message, { ...(h ? { headers: h } : {}) }), signal);
        return { subject: request.subject, stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (/no responders|503|jetstream is not enabled/i.test(text)) throw new Error(`No JetStream stream captures subject "${request.subject}"`);
        throw error;
      }
    }
    nc.publish(request.subject, request.message, { ...(h ? { headers: h } : {}) });
    await raceAbort(nc.flush(), signal);
    return { subject: request.subject };
  });
}

export async function testNats(credential: ResolvedCredential, policy: HostPolicy): Promise<string> {
  const nc = await openNats(credential as NatsCredential, policy, 'sluice-test');
  try {
    const info = nc.info;
    return `Connected to NATS ${info?.version ?? ''}${info?.jetstream ? ' (JetStream)' : ''}`.trim();
  } finally {
    await nc.close().catch(() => {});
  }
}

export interface NatsConsumeOptions {
  subject: string;
  /** The stream whose messages are consumed; by default the stream that captures `subject`. */
  stream?: string;
  /** The durable consumer every worker process shares, so each message goes to one of them. */
  durable: string;
  /** Messages unacknowledged at a time, across every worker process (the consumer's max_ack_pending). */
  concurrency: number;
}

/**
 * How long the server waits for an ack before sending a message again; a run in hand says it is working more often.
 * `SLUICE_TEST_NATS_ACK_WAIT_MS` (a test knob, src/test-knobs.ts) shortens it for a test that kills a worker and
 * waits for its messages to be sent again (every worker on the consumer must have the same, or they undo each other's
 * consumer update).
 */
export const NATS_ACK_WAIT_MS = testKnobMs('SLUICE_TEST_NATS_ACK_WAIT_MS', 30_000, 1_000);
const WORKING_EVERY_MS = Math.min(10_000, Math.floor(NATS_ACK_WAIT_MS / 3));

/**
 * Consumes a JetStream durable pull consumer (explicit acks, created or updated on open) on a connection of its own.
 * A message is acked once `handle` settles it 'ack' and nak'ed (sent again at once) on 'requeue'; one whose worker
 * died is sent again after the ack wait. Core NATS (no stream) would be at most once, so a subject no stream captures
 * is refused.
 */
export async function consumeNats(credential: NatsCredential, policy: HostPolicy, options: NatsConsumeOptions, handle: MessageHandler): Promise<QueueConsumer> {
  const nc = await openNats(credential, policy, `sluice-${options.durable}`);
  let stopping = false;
  const closed = nc.closed().then((error) => (stopping ? undefined : (error ?? new Error('The NATS connection closed'))));
  try {
    const { AckPolicy, jetstream, jetstreamManager, JetStreamApiError } = await natsJetStream();
    const jsm = await jetstreamManager(nc);
    const stream = options.stream ?? (await jsm.streams.find(options.subject).catch(() => undefined));
    if (!stream) throw new Error(`No JetStream stream captures subject "${options.subject}": a NATS queue trigger consumes a stream (core NATS subjects are at most once)`);
    const config = {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      max_ack_pending: options.concurrency,
      filter_subject: options.subject,
      ack_wait: NATS_ACK_WAIT_MS * 1_000_000,
    };
    try {
      await jsm.consumers.add(stream, config);
    } catch (error) {
      // It exists with other settings (a changed concurrency or subject): take this deployment's.
      if (!(error instanceof JetStreamApiError)) throw error;
      await jsm.consumers.update(stream, options.durable, { max_ack_pending: config.max_ack_pending, filter_subject: config.filter_subject, ack_wait: config.ack_wait });
    }
    const consumer = await jetstream(nc).consumers.get(stream, options.durable);
    const messages = await consumer.consume({ max_messages: options.concurrency });
    const inHand = new Set<Promise<void>>();
    const loop = (async () => {
      for await (const delivered of messages) {
        const message: QueueMessage = {
          body: decodeBody(delivered.data),
          headers: natsHeaderRecord(delivered.headers),
          properties: {
            subject: delivered.subject,
            stream: delivered.info.stream,
            seq: delivered.seq,
            redelivered: delivered.redelivered,
            deliveryCount: delivered.info.deliveryCount,
            consumer: delivered.info.consumer,
          },
        };
        const working = setInterval(() => delivered.working(), WORKING_EVERY_MS).unref();
        const settled = handle(message)
          .catch(() => 'requeue' as const)
          .then((settlement) => (settlement === 'ack' ? delivered.ack() : delivered.nak()))
          .finally(() => clearInterval(working));
        const tracked = settled.finally(() => inHand.delete(tracked));
        inHand.add(tracked);
      }
    })();
    void loop.catch(() => undefined);
    return {
      closed,
      async stop(graceMs) {
        // Messages pulled but not yet handed out are never acked: the server sends them again after the ack wait.
        messages.stop();
        await waitForRuns(inHand, graceMs);
        stopping = true;
        await nc.close().catch(() => undefined);
      },
    };
  } catch (error) {
    stopping = true;
    await nc.close().catch(() => undefined);
    throw error;
  }
}

function natsHeaderRecord(h: MsgHdrs | undefined): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  if (!h) return record;
  for (const key of h.keys()) {
    const values = h.values(key);
    record[key] = values.length === 1 ? values[0] : values;
  }
  return record;
}
