// MQTT through mqtt.js (protocol 5, so a broker's refusal comes back as a reason code): one client per credential
// version and process (ConnectionCache); QoS 1 publishes answer once the broker's PUBACK came back. Queue triggers
// consume a shared subscription in a persistent session of their own (consumeMqtt).
import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import { raceAbort } from '../engine/abort.js';
import { onFirstUse } from '../lazy-import.js';
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';
import type { ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';
import { useLiveConnection } from './live-connection.js';
import { decodeBody, waitForRuns, type MessageHandler, type QueueConsumer, type QueueMessage } from './queue-message.js';

export const MQTT_CONNECT_TIMEOUT_MS = 10_000;

type MqttCredential = ResolvedCredential<'mqtt'>;

const mqttjs = onFirstUse(() => import('mqtt'));

/** Client options for the credential, connecting to the address the host policy allows. */
export async function mqttOptions(credential: MqttCredential, policy: HostPolicy, extra: IClientOptions = {}): Promise<IClientOptions> {
  const { host, port, user, password, tls } = credential.data;
  const address = await checkedConnectorAddress(host, policy);
  return {
    protocol: tls ? 'mqtts' : 'mqtt',
    host: address,
    port: port ?? (tls ? 8883 : 1883),
    ...(tls ? { servername: host } : {}),
    ...(user !== undefined ? { username: user } : {}),
    ...(password !== undefined ? { password } : {}),
    protocolVersion: 5,
    connectTimeout: MQTT_CONNECT_TIMEOUT_MS,
    reconnectPeriod: 0,
    ...extra,
  };
}

export async function openMqtt(credential: MqttCredential, policy: HostPolicy, extra: IClientOptions = {}): Promise<MqttClient> {
  const client = (await mqttjs()).connect(await mqttOptions(credential, policy, extra));
  // Errors after connecting surface as a closed client; an unheard 'error' event would crash the process.
  let lastError: Error | undefined;
  client.on('error', (error) => (lastError = error));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('close', () => {
      client.end(true);
      reject(lastError ?? new Error('The MQTT broker closed the connection'));
    });
  });
  return client;
}

function mqttOpener(credential: MqttCredential, policy: HostPolicy): ConnectionOpener<MqttClient> {
  return {
    kind: 'mqtt',
    open: () => openMqtt(credential, policy),
    close: (client) => client.endAsync(),
  };
}

export interface MqttPublish {
  topic: string;
  message: Buffer;
  qos: 0 | 1;
  retain: boolean;
  /** Sent as MQTT 5 user properties. */
  headers?: Record<string, string>;
}

/** Publishes; with QoS 1 the promise settles on the broker's PUBACK (a reason code of 0x80 or more rejects it). */
export async function publishMqtt(
  connections: ConnectionCache,
  credential: MqttCredential,
  policy: HostPolicy,
  request: MqttPublish,
  signal: AbortSignal,
): Promise<{ topic: string; qos: number; messageId?: number }> {
  return useLiveConnection(connections, credential, mqttOpener(credential, policy), (client) => client.connected && !client.disconnecting, async (client) => {
    const packet = await raceAbort(client.publishAsync(request.topic, request.message, {
        qos: request.qos,
        retain: request.retain,
        ...(request.headers ? { properties: { userProperties: request.headers } } : {}),
      }), signal);
    const messageId = (packet as { messageId?: number } | undefined)?.messageId;
    return { topic: request.topic, qos: request.qos, ...(messageId !== undefined ? { messageId } : {}) };
  });
}

export async function testMqtt(credential: ResolvedCredential, policy: HostPolicy): Promise<string> {
  const client = await openMqtt(credential as MqttCredential, policy);
  await client.endAsync().catch(() => {});
  return 'Connected (MQTT 5)';
}

export interface MqttConsumeOptions {
  topic: string;
  /** The shared subscription's group: the worker processes subscribing in it share the messages, one each. */
  group: string;
  /** Stable per (worker slot, trigger): the broker keeps this session's unacknowledged messages across a crash. */
  clientId: string;
  /** Messages in hand at most (the MQTT 5 receive maximum the broker honours). */
  concurrency: number;
}

/** How long the broker keeps a consumer's session (its unacknowledged and queued messages) while it is away. */
export const MQTT_SESSION_EXPIRY_S = 7 * 24 * 3600;
/** After a run asks for redelivery, the connection is dropped this much later (once for any such runs meanwhile). */
const REDELIVER_AFTER_MS = 1_000;
/** Handed to mqtt.js instead of an ack: it reads on without sending the PUBACK, which goes once the run is logged. */
const ACK_LATER = new Error('acknowledged once the run is logged');

interface MqttInternals {
  _sendPacket(packet: { cmd: 'puback'; messageId: number; reasonCode: number }): void;
}

/**
 * Consumes `$share/<group>/<topic>` at QoS 1 in a persistent session. A message is PUBACKed only once `handle`
 * settles it 'ack'; mqtt.js acknowledges when its `handleMessage` calls back, and holds every later packet until
 * then, so the consumer calls back at once with an error (no PUBACK) and sends the PUBACK itself later.
 * MQTT has no negative acknowledgement: the broker sends an unacknowledged message again only when the session
 * reconnects, so 'requeue' drops the connection (mqtt.js reconnects to the same session) and the resends of the
 * messages still in hand are recognised by their packet id and skipped.
 */
export async function consumeMqtt(credential: MqttCredential, policy: HostPolicy, options: MqttConsumeOptions, handle: MessageHandler): Promise<QueueConsumer> {
  const { connect } = await mqttjs();
  const client = connect(
    await mqttOptions(credential, policy, {
      clientId: options.clientId,
      clean: false,
      reconnectPeriod: 1_000,
      properties: { sessionExpiryInterval: MQTT_SESSION_EXPIRY_S, receiveMaximum: options.concurrency },
    }),
  );
  const subscription = `$share/${options.group}/${options.topic}`;
  const inHandIds = new Set<number>();
  const inHand = new Set<Promise<void>>();
  let stopping = false;
  let redeliverTimer: NodeJS.Timeout | undefined;
  let closedWith: (error: Error | undefined) => void = () => {};
  const closed = new Promise<Error | undefined>((resolve) => (closedWith = resolve));
  let lastError: Error | undefined;
  client.on('error', (error) => (lastError = error));
  client.on('end', () => closedWith(stopping ? undefined : (lastError ?? new Error('The MQTT client ended'))));

  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => inHand.delete(tracked));
    inHand.add(tracked);
  };
  const redeliverSoon = () => {
    if (stopping || redeliverTimer) return;
    redeliverTimer = setTimeout(() => {
      redeliverTimer = undefined;
      if (!stopping) client.stream?.destroy();
    }, REDELIVER_AFTER_MS).unref();
  };

  // Set before the connection is up: a resumed session's unacknowledged messages arrive right after CONNACK.
  client.handleMessage = (packet, callback) => {
    const message: QueueMessage = { body: decodeBody(toBytes(packet.payload)), headers: userProperties(packet), properties: mqttProperties(packet) };
    if (packet.qos === 0) {
      // Nothing to acknowledge: the broker has already forgotten it (at most once).
      callback();
      if (!stopping) track(handle(message).then(() => undefined, () => undefined));
      return;
    }
    callback(ACK_LATER);
    const id = packet.messageId!;
    // A resend of a message whose run is in hand (after a reconnect), or one arriving as the consumer stops: it
    // stays unacknowledged in the session.
    if (stopping || inHandIds.has(id)) return;
    inHandIds.add(id);
    track(
      handle(message)
        .catch(() => 'requeue' as const)
        .then((settlement) => {
          inHandIds.delete(id);
          if (settlement === 'ack') (client as unknown as MqttInternals)._sendPacket({ cmd: 'puback', messageId: id, reasonCode: 0 });
          else redeliverSoon();
        }),
    );
  };

  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('close', () => reject(lastError ?? new Error('The MQTT broker closed the connection')));
    });
    const granted = await client.subscribeAsync(subscription, { qos: 1 });
    const refused = granted.find((grant) => grant.qos >= 0x80);
    if (refused) throw new Error(`The MQTT broker refused the subscription to "${options.topic}" (reason code 0x${refused.qos.toString(16)})`);
  } catch (error) {
    stopping = true;
    client.end(true);
    throw error;
  }
  // A broken connection is mqtt.js's to reopen (same session), so messages in hand keep their place.
  client.on('close', () => undefined);
  return {
    closed,
    async stop(graceMs) {
      stopping = true;
      clearTimeout(redeliverTimer);
      // No new messages for this session; those in hand get the grace. The session itself stays with the broker:
      // it may still hold messages routed to it (queued behind the receive maximum, or unacknowledged), which
      // this slot's next consumer of the trigger is sent.
      await client.unsubscribeAsync(subscription).catch(() => undefined);
      await waitForRuns(inHand, graceMs);
      await client.endAsync().catch(() => undefined);
    },
  };
}

function toBytes(payload: Buffer | string): Uint8Array {
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
}

/** MQTT 5 user properties (a repeated name keeps its values as a list). */
function userProperties(packet: IPublishPacket): Record<string, unknown> {
  return { ...(packet.properties?.userProperties ?? {}) };
}

function mqttProperties(packet: IPublishPacket): Record<string, unknown> {
  const { properties } = packet;
  const shown: Record<string, unknown> = { topic: packet.topic, qos: packet.qos, retain: packet.retain, redelivered: packet.dup };
  if (properties?.contentType !== undefined) shown.contentType = properties.contentType;
  if (properties?.responseTopic !== undefined) shown.responseTopic = properties.responseTopic;
  if (properties?.correlationData !== undefined) shown.correlationData = Buffer.from(properties.correlationData).toString('utf8');
  if (properties?.payloadFormatIndicator !== undefined) shown.payloadFormatIndicator = properties.payloadFormatIndicator;
  if (properties?.messageExpiryInterval !== undefined) shown.messageExpiryInterval = properties.messageExpiryInterval;
  return shown;
}
