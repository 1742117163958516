// The publish block (issue 26) against the real local brokers: RabbitMQ, Mosquitto, NATS with JetStream. Each test
// publishes through a deployed workflow and reads the message back with a plain client, as a consumer would; the
// block's `headers` reach it as AMQP headers, MQTT 5 user properties and NATS headers.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type Msg } from '@nats-io/transport-node';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'debug' }, { logTo: logStream });
});
afterAll(async () => t?.close());

const run = randomUUID().slice(0, 8);

async function credential(type: string, data: Record<string, unknown>): Promise<string> {
  const created = await t.request('POST', '/api/v1/credentials', { body: { workspaceId: t.workspaceId, name: `${type}-${randomUUID()}`, type, data } });
  expect(created.status, created.text).toBe(201);
  return created.body.data.id;
}

/** api trigger → publish, with an error edge to a response that shows the error. */
async function publishWorkflow(config: Record<string, unknown>): Promise<string> {
  return createAndDeploy(
    t,
    makeState(
      [
        { id: 'start', type: 'api_trigger' },
        { id: 'pub', type: 'publish', config },
        { id: 'failed', type: 'response', config: { status: 502, body: { handled: '<pub.error>', accepted: '<pub.accepted>' } } },
      ],
      [
        ['start', 'pub'],
        ['pub', 'failed', 'error'],
      ],
    ),
    `publish ${randomUUID().slice(0, 6)}`,
  );
}

async function execute(workflowId: string, body: Record<string, unknown> = {}) {
  return t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
}

describe('publish block: RabbitMQ', () => {
  let model: amqp.ChannelModel;
  let channel: amqp.Channel;
  const queue = `sluice-pub-${run}`;
  const exchange = `sluice-pub-x-${run}`;
  beforeAll(async () => {
    model = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    channel = await model.createChannel();
    await channel.assertQueue(queue, { durable: true });
    await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
    await channel.bindQueue(queue, exchange, 'orders.*');
  });
  afterAll(async () => {
    await channel?.deleteQueue(queue);
    await channel?.deleteExchange(exchange);
    await model?.close();
  });

  it('publishes to a queue and to an exchange with a routing key, persistent, answering once the broker confirmed', async () => {
    const cred = await credential('amqp', { host: '127.0.0.1', port: 5672, user: 'guest', password: 'guest', vhost: '/' });
    const toQueue = await publishWorkflow({ credentialId: cred, queue, message: { order: '<start.input.order>' }, persistent: true });
    const res = await execute(toQueue, { order: 42 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.output).toEqual({ accepted: true, broker: 'amqp', queue, exchange: '', routingKey: queue });
    const got = await eventually(async () => (await channel.get(queue, { noAck: true })) || undefined, 5_000, 'the message');
    expect(JSON.parse(got.content.toString())).toEqual({ order: 42 });
    expect(got.properties.deliveryMode).toBe(2);
    expect(got.properties.contentType).toBe('application/json');

    const toExchange = await publishWorkflow({ credentialId: cred, exchange, routingKey: 'orders.created', message: 'plain text', persistent: 'false' });
    const viaExchange = await execute(toExchange);
    expect(viaExchange.body.output).toMatchObject({ accepted: true, exchange, routingKey: 'orders.created' });
    const second = await eventually(async () => (await channel.get(queue, { noAck: true })) || undefined, 5_000, 'the routed message');
    expect(second.content.toString()).toBe('plain text');
    expect(second.properties.deliveryMode).toBe(1);
  });

  it('sends the block’s headers, references resolved, as AMQP message headers', async () => {
    const cred = await credential('amqp', { host: '127.0.0.1', user: 'guest', password: 'guest' });
    const wf = await publishWorkflow({ credentialId: cred, queue, message: 'with headers', headers: { 'x-tenant': '<start.input.tenant>', 'x-attempt': '<start.input.n>', source: 'sluice' } });
    const res = await execute(wf, { tenant: 'acme', n: 3 });
    expect(res.status, res.text).toBe(200);
    const got = await eventually(async () => (await channel.get(queue, { noAck: true })) || undefined, 5_000, 'the message');
    expect(got.content.toString()).toBe('with headers');
    expect(got.properties.headers).toEqual({ 'x-tenant': 'acme', 'x-attempt': '3', source: 'sluice' });
  });

  it('takes the error edge when no queue would get the message, the exchange does not exist, or the login is refused', async () => {
    const cred = await credential('amqp', { host: '127.0.0.1', user: 'guest', password: 'guest' });
    const unroutable = await execute(await publishWorkflow({ credentialId: cred, exchange, routingKey: 'nobody.listens', message: 'x' }));
    expect(unroutable.status).toBe(502);
    expect(unroutable.body).toEqual({ accepted: false, handled: `No queue is bound to exchange "${exchange}" for routing key "nobody.listens"` });
    const noQueue = await execute(await publishWorkflow({ credentialId: cred, queue: `missing-${run}`, message: 'x' }));
    expect(noQueue.body.handled).toBe(`No queue named "missing-${run}" received the message`);
    const noExchange = await execute(await publishWorkflow({ credentialId: cred, exchange: `missing-${run}`, routingKey: 'k', message: 'x' }));
    expect(noExchange.body.handled).toMatch(/NOT_FOUND - no exchange/);

    const secret = `amqp-secret-${run}`;
    const badLogin = await credential('amqp', { host: '127.0.0.1', user: 'guest', password: secret });
    const refused = await execute(await publishWorkflow({ credentialId: badLogin, queue, message: 'x' }));
    expect(refused.status).toBe(502);
    expect(refused.body.handled).toMatch(/ACCESS_REFUSED/);
    expect(refused.text).not.toContain(secret);
    const executionId = refused.headers.get('x-execution-id');
    const listed = await eventually(async () => {
      const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
      return res.body.data?.[0];
    });
    const detail = await t.request('GET', `/api/v1/logs/${listed.id}`);
    expect(detail.text).toContain('ACCESS_REFUSED');
    expect(detail.text).not.toContain(secret);
    expect(lines.join('')).not.toContain(secret);

    const tested = await t.request('POST', `/api/v1/credentials/${badLogin}/test`);
    expect(tested.body.data ?? tested.body).toMatchObject({ ok: false });
    expect(tested.text).not.toContain(secret);
    const ok = await t.request('POST', `/api/v1/credentials/${cred}/test`);
    expect((ok.body.data ?? ok.body).message).toMatch(/RabbitMQ/);
  });
});

describe('publish block: MQTT', () => {
  it('publishes with QoS 1 and retain, the block answering after the PUBACK; a subscriber receives it', async () => {
    const topic = `sluice/pub/${run}`;
    const subscriber = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    const received: Array<{ payload: string; retain: boolean; qos: number }> = [];
    subscriber.on('message', (_topic, payload, packet) => received.push({ payload: payload.toString(), retain: packet.retain, qos: packet.qos }));
    await subscriber.subscribeAsync(topic, { qos: 1 });
    try {
      const cred = await credential('mqtt', { host: '127.0.0.1', port: 1883 });
      const wf = await publishWorkflow({ credentialId: cred, topic, qos: '1', retain: 'true', message: { temp: 21.5 } });
      const res = await execute(wf);
      expect(res.status, res.text).toBe(200);
      expect(res.body.output).toMatchObject({ accepted: true, broker: 'mqtt', topic, qos: 1 });
      expect(res.body.output.messageId).toEqual(expect.any(Number));
      await eventually(() => received.length === 1, 5_000, 'the MQTT message');
      expect(received[0]).toMatchObject({ payload: '{"temp":21.5}', qos: 1 });
      // Retained: a later subscriber gets it too.
      const late = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
      const lateGot: string[] = [];
      late.on('message', (_t, payload) => lateGot.push(payload.toString()));
      await late.subscribeAsync(topic, { qos: 1 });
      await eventually(() => lateGot.length === 1, 5_000, 'the retained message');
      await late.publishAsync(topic, '', { retain: true, qos: 1 }); // clears the retained message
      await late.endAsync();
      expect((await t.request('POST', `/api/v1/credentials/${cred}/test`)).body.data.ok).toBe(true);
    } finally {
      await subscriber.endAsync();
    }
  });

  it('sends the block’s headers as MQTT 5 user properties', async () => {
    const topic = `sluice/pub-headers/${run}`;
    const subscriber = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { protocolVersion: 5 });
    const received: Array<{ payload: string; userProperties: unknown }> = [];
    subscriber.on('message', (_topic, payload, packet) => received.push({ payload: payload.toString(), userProperties: packet.properties?.userProperties }));
    await subscriber.subscribeAsync(topic, { qos: 1 });
    try {
      const cred = await credential('mqtt', { host: '127.0.0.1', port: 1883 });
      const wf = await publishWorkflow({ credentialId: cred, topic, qos: '1', message: 'reading', headers: { 'x-tenant': '<start.input.tenant>', unit: 'celsius' } });
      const res = await execute(wf, { tenant: 'acme' });
      expect(res.status, res.text).toBe(200);
      await eventually(() => received.length === 1, 5_000, 'the MQTT message');
      expect(received[0]).toEqual({ payload: 'reading', userProperties: { 'x-tenant': 'acme', unit: 'celsius' } });
    } finally {
      await subscriber.endAsync();
    }
  });

  it('takes the error edge when the broker cannot be reached', async () => {
    const cred = await credential('mqtt', { host: '127.0.0.1', port: 1 });
    const res = await execute(await publishWorkflow({ credentialId: cred, topic: 'x', message: 'x' }));
    expect(res.status).toBe(502);
    expect(res.body.handled).toMatch(/ECONNREFUSED|refused/i);
  });
});

describe('publish block: NATS', () => {
  it('publishes on core NATS, and to JetStream with the stream’s ack (stream, seq)', async () => {
    const nc = await natsConnect({ servers: '127.0.0.1:4222' });
    const subject = `sluice.pub.${run}`;
    const stream = `SLUICE_PUB_${run}`;
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects: [`${subject}.js`] });
    try {
      const got: string[] = [];
      const sub = nc.subscribe(subject);
      void (async () => {
        for await (const m of sub) got.push(m.string());
      })();
      await nc.flush();
      const cred = await credential('nats', { host: '127.0.0.1', port: 4222 });
      const core = await execute(await publishWorkflow({ credentialId: cred, subject, message: 'hello' }));
      expect(core.body.output).toEqual({ accepted: true, broker: 'nats', subject });
      await eventually(() => got.length === 1, 5_000, 'the NATS message');
      expect(got[0]).toBe('hello');

      const js = await execute(await publishWorkflow({ credentialId: cred, subject: `${subject}.js`, jetstream: 'true', message: { n: 1 } }));
      expect(js.status, js.text).toBe(200);
      expect(js.body.output).toMatchObject({ accepted: true, broker: 'nats', stream, seq: 1, duplicate: false });
      const stored = await jsm.streams.getMessage(stream, { seq: 1 });
      expect(stored?.string()).toBe('{"n":1}');

      const none = await execute(await publishWorkflow({ credentialId: cred, subject: `nostream.${run}`, jetstream: 'true', message: 'x' }));
      expect(none.status).toBe(502);
      expect(none.body.handled).toBe(`No JetStream stream captures subject "nostream.${run}"`);
      expect((await t.request('POST', `/api/v1/credentials/${cred}/test`)).body.data.message).toMatch(/NATS .*JetStream/);
    } finally {
      await jsm.streams.delete(stream);
      await nc.close();
    }
  });
});

describe('publish block: NATS headers', () => {
  it('sends the block’s headers as NATS message headers, on core NATS and to JetStream', async () => {
    const nc = await natsConnect({ servers: '127.0.0.1:4222' });
    const subject = `sluice.pubh.${run}`;
    const stream = `SLUICE_PUBH_${run}`;
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects: [`${subject}.js`] });
    try {
      const got: Msg[] = [];
      const sub = nc.subscribe(subject);
      void (async () => {
        for await (const m of sub) got.push(m);
      })();
      await nc.flush();
      const cred = await credential('nats', { host: '127.0.0.1', port: 4222 });
      const headers = { 'X-Tenant': '<start.input.tenant>', 'X-Attempt': '<start.input.n>' };
      const core = await execute(await publishWorkflow({ credentialId: cred, subject, message: 'hello', headers }), { tenant: 'acme', n: 2 });
      expect(core.status, core.text).toBe(200);
      await eventually(() => got.length === 1, 5_000, 'the NATS message');
      expect(got[0].string()).toBe('hello');
      expect(got[0].headers?.get('X-Tenant')).toBe('acme');
      expect(got[0].headers?.get('X-Attempt')).toBe('2');

      const js = await execute(await publishWorkflow({ credentialId: cred, subject: `${subject}.js`, jetstream: 'true', message: 'stored', headers }), { tenant: 'beta', n: 1 });
      expect(js.status, js.text).toBe(200);
      const stored = await jsm.streams.getMessage(stream, { seq: 1 });
      expect(stored?.header.get('X-Tenant')).toBe('beta');

      // A name NATS cannot carry is the block's error, not a crash.
      const bad = await execute(await publishWorkflow({ credentialId: cred, subject, message: 'x', headers: { 'bad name:': 'v' } }));
      expect(bad.status).toBe(502);
      expect(bad.body.accepted).toBe(false);
      expect(bad.body.handled).toEqual(expect.any(String));
    } finally {
      await jsm.streams.delete(stream);
      await nc.close();
    }
  });
});

describe('publish block: credentials and policy', () => {
  it('refuses a credential of another type and a private host when private networks are not allowed', async () => {
    const pg = await credential('postgres', { host: '127.0.0.1', user: 'u', database: 'd' });
    const wrongType = await execute(await publishWorkflow({ credentialId: pg, queue: 'q', message: 'x' }));
    expect(wrongType.body.handled).toMatch(/is of type postgres; this block needs amqp or mqtt or nats/);

    const strict = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
    try {
      const created = await strict.request('POST', '/api/v1/credentials', {
        body: { workspaceId: strict.workspaceId, name: 'local rabbit', type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
      });
      const wf = await createAndDeploy(
        strict,
        makeState(
          [
            { id: 'start', type: 'api_trigger' },
            { id: 'pub', type: 'publish', config: { credentialId: created.body.data.id, queue: 'q', message: 'x' } },
          ],
          [['start', 'pub']],
        ),
      );
      const res = await strict.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      expect(res.body.output.accepted).toBe(false);
      expect(res.body.output.error).toMatch(/127\.0\.0\.1/);
      expect(res.body.output.error).toMatch(/private|loopback|not allowed|refused/i);
    } finally {
      await strict.close();
    }
  });
});
