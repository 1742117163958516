// NATS through @nats-io/transport-node: one connection per credential version and process (ConnectionCache). Core
// publishes are confirmed by a flush (the server has read them); JetStream publishes by the stream's ack.
import { jetstream, type PubAck } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { raceAbort } from '../engine/abort.js';
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';
import type { ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';
import { useLiveConnection } from './live-connection.js';

export const NATS_CONNECT_TIMEOUT_MS = 10_000;

type NatsCredential = ResolvedCredential<'nats'>;

export async function openNats(credential: NatsCredential, policy: HostPolicy, name = 'sluice'): Promise<NatsConnection> {
  const { host, port, user, password, token, tls } = credential.data;
  const address = await checkedConnectorAddress(host, policy);
  const hostPart = address.includes(':') ? `[${address}]` : address;
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
    let h: ReturnType<typeof natsHeaders> | undefined;
    if (request.headers && Object.keys(request.headers).length > 0) {
      h = natsHeaders();
      for (const [key, value] of Object.entries(request.headers)) h.set(key, value);
    }
    if (request.jetstream) {
      try {
        const ack = await raceAbort(jetstream(nc).publish(request.subject, request.message, { ...(h ? { headers: h } : {}) }), signal);
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
