// MQTT through mqtt.js (protocol 5, so a broker's refusal comes back as a reason code): one client per credential
// version and process (ConnectionCache); QoS 1 publishes answer once the broker's PUBACK came back.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { raceAbort } from '../engine/abort.js';
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';
import type { ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';
import { useLiveConnection } from './live-connection.js';

export const MQTT_CONNECT_TIMEOUT_MS = 10_000;

type MqttCredential = ResolvedCredential<'mqtt'>;

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
  const client = mqtt.connect(await mqttOptions(credential, policy, extra));
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
    const packet = await raceAbort(client.publishAsync(request.topic, request.message, { qos: request.qos, retain: request.retain }), signal);
    const messageId = (packet as { messageId?: number } | undefined)?.messageId;
    return { topic: request.topic, qos: request.qos, ...(messageId !== undefined ? { messageId } : {}) };
  });
}

export async function testMqtt(credential: ResolvedCredential, policy: HostPolicy): Promise<string> {
  const client = await openMqtt(credential as MqttCredential, policy);
  await client.endAsync().catch(() => {});
  return 'Connected (MQTT 5)';
}
