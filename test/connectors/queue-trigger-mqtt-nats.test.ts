// Queue triggers on MQTT (shared subscription, QoS 1, persistent session) and NATS (JetStream durable consumer)
// (issue 26): one run per message with the body (JSON parsed), headers and properties; a failed run's message is
// acknowledged unless the trigger asks for redelivery; undeploying stops consuming; a config whose field does not fit
// its credential's type is a 400. Against the real local Mosquitto and NATS, with the worker in this process.
import { randomUUID } from 'node:crypto';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { and, eq, ne } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker, type AppWorker } from '../../src/app/worker.js';
import { executions } from '../../src/db/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { finalOutputColumns, withFinalOutputs } from '../support/final-outputs.js';

let t: TestApp;
let worker: AppWorker;
let publisher: MqttClient;
let nc: NatsConnection;
let jsm: JetStreamManager;
const streams: string[] = [];
let mqttCredential: string;
let natsCredential: string;
let amqpCredential: string;
const run = randomUUID().slice(0, 8);

async function credential(type: string, data: Record<string, unknown>): Promise<string> {
  const created = await t.request('POST', '/api/v1/credentials', { body: { workspaceId: t.workspaceId, name: `${type}-${randomUUID()}`, type, data } });
  expect(created.status, created.text).toBe(201);
  return created.body.data.id;
}

beforeAll(async () => {
  // A loaded machine's first sandbox start can take seconds: the runs must not time out on it.
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '100', SLUICE_EXECUTION_TIMEOUT_MS: '60000' });
  worker = createAppWorker(t.app, { pollIntervalMs: 100 });
  await worker.start();
  publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 5 });
  nc = await natsConnect({ servers: '127.0.0.1:4222' });
  jsm = await jetstreamManager(nc);
  mqttCredential = await credential('mqtt', { host: '127.0.0.1', port: 1883 });
  natsCredential = await credential('nats', { host: '127.0.0.1', port: 4222 });
  amqpCredential = await credential('amqp', { host: '127.0.0.1', user: 'guest', password: 'guest' });
});
afterAll(async () => {
  await worker?.stop(1_000);
  for (const stream of streams) await jsm?.streams.delete(stream).catch(() => {});
  await publisher?.endAsync();
  await nc?.close();
  await t?.close();
});

/** queue trigger → a function that fails when the message asks it to (on its first delivery only, with `once`). */
function consumerState(trigger: Record<string, unknown>) {
  return makeState(
    [
      { id: 'q', type: 'queue_trigger', config: { concurrency: 2, ...trigger } },
      {
        id: 'work',
        type: 'function',
        config: {
          code: 'const b = <q.body>; if (b && b.fail && !(b.once && <q.properties>.redelivered)) throw new Error("failed on " + b.n); return { got: b, headers: <q.headers>, properties: <q.properties> };',
        },
      },
    ],
    [['q', 'work']],
  );
}

type LogRow = { level: string | null; trigger: string; finalOutput: Record<string, any> | null; error: string | null };

async function finishedRuns(workflowId: string): Promise<LogRow[]> {
  return withFinalOutputs(
    await t.app.db
      .select({ level: executions.level, trigger: executions.trigger, ...finalOutputColumns, error: executions.error })
      .from(executions)
      .where(and(eq(executions.workflowId, workflowId), ne(executions.status, 'running'))),
  );
}

async function queueLogs(workflowId: string, count: number): Promise<LogRow[]> {
  return eventually(async () => {
    const rows = await finishedRuns(workflowId);
    return rows.length >= count ? rows : undefined;
  }, 20_000, `${count} queue-triggered logs`);
}

/** Deploys and waits until the worker consumes this trigger. */
async function deployConsumer(trigger: Record<string, unknown>, name: string): Promise<string> {
  const wf = await createAndDeploy(t, consumerState(trigger), name);
  await eventually(async () => ((await consumersOf(wf)) ? true : undefined), 10_000, 'the consumer');
  return wf;
}

async function consumersOf(workflowId: string): Promise<number> {
  return worker.queueConsumers().filter((key) => key.startsWith(`${workflowId}:`)).length;
}

async function newStream(subject: string): Promise<string> {
  const name = `sluice_trigger_${randomUUID().slice(0, 8)}`;
  await jsm.streams.add({ name, subjects: [subject] });
  streams.push(name);
  return name;
}

describe('queue trigger: MQTT', () => {
  it('starts one run per message of a wildcard topic with the body, user properties and topic, and acknowledges it', async () => {
    const wf = await deployConsumer({ credentialId: mqttCredential, topic: `sluice/${run}/sensors/+` }, 'MQTT consumer');
    await publisher.publishAsync(`sluice/${run}/sensors/a`, JSON.stringify({ n: 1 }), { qos: 1, properties: { userProperties: { tenant: 'acme' } } });
    await publisher.publishAsync(`sluice/${run}/sensors/b`, 'plain words', { qos: 1 });
    const logs = await queueLogs(wf, 2);
    expect(logs.map((log) => [log.trigger, log.level, log.error])).toEqual([
      ['queue', 'info', null],
      ['queue', 'info', null],
    ]);
    expect(logs.map((log) => log.finalOutput?.result)).toEqual(
      expect.arrayContaining([
        { got: { n: 1 }, headers: { tenant: 'acme' }, properties: expect.objectContaining({ topic: `sluice/${run}/sensors/a`, qos: 1, retain: false, redelivered: false }) },
        { got: 'plain words', headers: {}, properties: expect.objectContaining({ topic: `sluice/${run}/sensors/b`, qos: 1 }) },
      ]),
    );
    // Acknowledged: nothing comes again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await finishedRuns(wf)).toHaveLength(2);
  });

  it('acknowledges a failed run unless redeliverOnError asks the broker for it again', async () => {
    const acked = await deployConsumer({ credentialId: mqttCredential, topic: `sluice/${run}/acked` }, 'MQTT fails, acked');
    const again = await deployConsumer({ credentialId: mqttCredential, topic: `sluice/${run}/again`, redeliverOnError: 'true' }, 'MQTT fails once, redelivered');
    await publisher.publishAsync(`sluice/${run}/acked`, JSON.stringify({ n: 7, fail: true }), { qos: 1 });
    const [failed] = await queueLogs(acked, 1);
    expect(failed.level).toBe('error');
    expect(failed.error).toContain('failed on 7');

    await publisher.publishAsync(`sluice/${run}/again`, JSON.stringify({ n: 8, fail: true, once: true }), { qos: 1 });
    const both = await queueLogs(again, 2);
    expect(both.map((log) => log.level).sort()).toEqual(['error', 'info']);
    expect(both.find((log) => log.level === 'info')!.finalOutput?.result).toMatchObject({ got: { n: 8 }, properties: { redelivered: true } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await finishedRuns(acked)).toHaveLength(1);
    expect(await finishedRuns(again)).toHaveLength(2);
  });

  it('stops consuming when the workflow is undeployed', async () => {
    const wf = await deployConsumer({ credentialId: mqttCredential, topic: `sluice/${run}/gone` }, 'MQTT undeployed');
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBeLessThan(300);
    await eventually(async () => ((await consumersOf(wf)) === 0 ? true : undefined), 10_000, 'the consumer to stop');
    await publisher.publishAsync(`sluice/${run}/gone`, 'nobody listens', { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await finishedRuns(wf)).toHaveLength(0);
  });
});

describe('queue trigger: NATS JetStream', () => {
  it('starts one run per message with the body, headers and stream properties, and acks it', async () => {
    const subject = `sluice.${run}.orders`;
    const stream = await newStream(subject);
    const wf = await deployConsumer({ credentialId: natsCredential, subject }, 'NATS consumer');
    const h = natsHeaders();
    h.set('x-tenant', 'acme');
    const js = jetstream(nc);
    await js.publish(subject, JSON.stringify({ n: 1 }), { headers: h });
    await js.publish(subject, 'plain words');
    const logs = await queueLogs(wf, 2);
    expect(logs.every((log) => log.trigger === 'queue' && log.level === 'info')).toBe(true);
    expect(logs.map((log) => log.finalOutput?.result)).toEqual(
      expect.arrayContaining([
        { got: { n: 1 }, headers: { 'x-tenant': 'acme' }, properties: expect.objectContaining({ subject, stream, seq: 1, redelivered: false }) },
        { got: 'plain words', headers: {}, properties: expect.objectContaining({ subject, stream, seq: 2 }) },
      ]),
    );
    // The durable consumer (one for every worker) was made with explicit acks and the trigger's concurrency.
    const durable = (await jsm.consumers.list(stream).next())[0];
    expect(durable.config).toMatchObject({ ack_policy: AckPolicy.Explicit, max_ack_pending: 2 });
    await eventually(async () => {
      const info = await jsm.consumers.info(stream, durable.name);
      return info.num_ack_pending === 0 && info.num_pending === 0 ? true : undefined;
    }, 10_000, 'both acked');
  });

  it('acks a failed run unless redeliverOnError naks it for another delivery', async () => {
    const subject = `sluice.${run}.fails`;
    await newStream(`sluice.${run}.fails.>`);
    const acked = await deployConsumer({ credentialId: natsCredential, subject: `${subject}.acked` }, 'NATS fails, acked');
    const again = await deployConsumer({ credentialId: natsCredential, subject: `${subject}.again`, redeliverOnError: 'true' }, 'NATS fails once, redelivered');
    const js = jetstream(nc);
    await js.publish(`${subject}.acked`, JSON.stringify({ n: 7, fail: true }));
    const [failed] = await queueLogs(acked, 1);
    expect(failed.level).toBe('error');
    await js.publish(`${subject}.again`, JSON.stringify({ n: 8, fail: true, once: true }));
    const both = await queueLogs(again, 2);
    expect(both.map((log) => log.level).sort()).toEqual(['error', 'info']);
    expect(both.find((log) => log.level === 'info')!.finalOutput?.result).toMatchObject({ got: { n: 8 }, properties: { redelivered: true, deliveryCount: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await finishedRuns(acked)).toHaveLength(1);
  });

  it('stops consuming when the workflow is undeployed: the message waits in the stream', async () => {
    const subject = `sluice.${run}.gone`;
    const stream = await newStream(subject);
    const wf = await deployConsumer({ credentialId: natsCredential, subject, durable: `gone_${run}` }, 'NATS undeployed');
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBeLessThan(300);
    await eventually(async () => ((await consumersOf(wf)) === 0 ? true : undefined), 10_000, 'the consumer to stop');
    await jetstream(nc).publish(subject, 'left for later');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await finishedRuns(wf)).toHaveLength(0);
    expect((await jsm.consumers.info(stream, `gone_${run}`)).num_pending).toBe(1);
  });

  it('does not consume a subject no stream captures (core NATS would be at most once)', async () => {
    const wf = await createAndDeploy(t, consumerState({ credentialId: natsCredential, subject: `sluice.${run}.nostream` }), 'NATS no stream');
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await consumersOf(wf)).toBe(0);
  });
});

describe('queue trigger: config follows the credential type', () => {
  it('refuses a field of another broker on save, and a missing credential on deploy, with a 400 naming the field', async () => {
    const topicOnRabbit = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Topic on RabbitMQ', state: consumerState({ credentialId: amqpCredential, topic: 'sensors/#' }) },
    });
    expect(topicOnRabbit.status).toBe(400);
    expect(topicOnRabbit.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'state.blocks.q.config.queue', message: expect.stringMatching(/amqp credential consumes a RabbitMQ/) }),
        expect.objectContaining({ path: 'state.blocks.q.config.topic', message: expect.stringMatching(/for MQTT credentials/) }),
      ]),
    );
    const queueOnMqtt = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Queue on MQTT', state: consumerState({ credentialId: mqttCredential, queue: 'jobs' }) },
    });
    expect(queueOnMqtt.status).toBe(400);
    expect(queueOnMqtt.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'state.blocks.q.config.topic' })]));

    const unknown = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Unknown credential', state: consumerState({ credentialId: 'cred_missing', topic: 'a/b' }) },
    });
    expect(unknown.status).toBe(201);
    const deployed = await t.request('POST', `/api/v1/workflows/${unknown.body.data.id}/deploy`);
    expect(deployed.status).toBe(400);
    expect(deployed.body.details).toEqual([expect.objectContaining({ path: 'state.blocks.q.config.credentialId' })]);
  });

  it('keeps another broker’s fields once the credential’s own field is given (the editor hides them, keeping their values)', async () => {
    const switched = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Switched to MQTT', state: consumerState({ credentialId: mqttCredential, topic: 'a/b', queue: 'jobs', subject: 'x.y', durable: 'd' }) },
    });
    expect(switched.status, switched.text).toBe(201);
    expect(switched.body.data.state.blocks.q.config).toMatchObject({ topic: 'a/b', queue: 'jobs', subject: 'x.y', durable: 'd' });
  });
});
