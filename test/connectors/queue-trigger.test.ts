// Queue triggers on RabbitMQ (issue 26): a deployed workflow runs once per message, the message is acknowledged once
// its run's log is written, a failed run is acknowledged unless the trigger asks for redelivery, and undeploying
// stops the consumer. Against the real local RabbitMQ, with the worker in this process.
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { executions } from '../../src/db/schema.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { finalOutputColumns, withFinalOutputs } from '../support/final-outputs.js';

let t: TestApp;
let worker: Worker;
let model: amqp.ChannelModel;
let channel: amqp.Channel;
const queues: string[] = [];
let credentialId: string;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '100' });
  worker = createAppWorker(t.app, { pollIntervalMs: 100 });
  await worker.start();
  model = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  channel = await model.createChannel();
  const created = await t.request('POST', '/api/v1/credentials', {
    body: { workspaceId: t.workspaceId, name: 'rabbit', type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
  });
  credentialId = created.body.data.id;
});
afterAll(async () => {
  await worker?.stop(1_000);
  for (const queue of queues) await channel?.deleteQueue(queue).catch(() => {});
  await model?.close();
  await t?.close();
});

function newQueue(): string {
  const queue = `sluice-trigger-${randomUUID().slice(0, 8)}`;
  queues.push(queue);
  return queue;
}

/** queue trigger → a function that fails when the message asks it to (on its first delivery only, with `once`). */
function consumerState(queue: string, extra: Record<string, unknown> = {}) {
  return makeState(
    [
      { id: 'q', type: 'queue_trigger', config: { credentialId, queue, concurrency: 2, ...extra } },
      {
        id: 'work',
        type: 'function',
        config: {
          code: 'const b = <q.body>; if (b && b.fail && !(b.once && <q.properties>.redelivered)) throw new Error("failed on " + b.n); return { got: b, headers: <q.headers>, redelivered: <q.properties>.redelivered };',
        },
      },
    ],
    [['q', 'work']],
  );
}

type LogRow = { id: string; level: string | null; trigger: string; status: string; finalOutput: Record<string, any> | null; error: string | null };

/** The workflow's finished runs, from the log table (the logs API allows a free plan 10 reads a minute). */
async function queueLogs(workflowId: string, count: number): Promise<LogRow[]> {
  return eventually(
    async () => {
      const rows = withFinalOutputs(
        await t.app.db
          .select({ id: executions.id, level: executions.level, trigger: executions.trigger, status: executions.status, ...finalOutputColumns, error: executions.error })
          .from(executions)
          .where(and(eq(executions.workflowId, workflowId), ne(executions.status, 'running'))),
      );
      return rows.length >= count ? rows : undefined;
    },
    20_000,
    `${count} queue-triggered logs`,
  );
}

async function consumersOf(queue: string) {
  return (await channel.checkQueue(queue)).consumerCount;
}

describe('queue trigger: RabbitMQ', () => {
  it('starts one run per message with the body (JSON parsed), headers and properties, and acknowledges it', async () => {
    const queue = newQueue();
    await channel.assertQueue(queue, { durable: true });
    const wf = await createAndDeploy(t, consumerState(queue), 'Consumer');
    worker.wake();
    await eventually(async () => (await consumersOf(queue)) === 1 || undefined, 10_000, 'the consumer');

    channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: 1 })), { contentType: 'application/json', headers: { 'x-tenant': 'acme' }, messageId: 'm-1' });
    channel.sendToQueue(queue, Buffer.from('plain words'), {});
    const logs = await queueLogs(wf, 2);
    expect(logs.every((log) => log.trigger === 'queue' && log.level === 'info')).toBe(true);
    const outputs = logs.map((log) => log.finalOutput?.result);
    expect(outputs).toEqual(
      expect.arrayContaining([
        { got: { n: 1 }, headers: { 'x-tenant': 'acme' }, redelivered: false },
        { got: 'plain words', headers: {}, redelivered: false },
      ]),
    );
    // The log API shows the run as queue-triggered.
    const shown = await t.request('GET', `/api/v1/logs/${logs[0].id}`);
    expect(shown.body.data.trigger).toBe('queue');
    // Both acknowledged: nothing left, nothing in hand.
    await eventually(async () => {
      const state = await channel.checkQueue(queue);
      return state.messageCount === 0 || undefined;
    });
  });

  it('acknowledges a failed run (its log says error) unless redeliverOnError asks for another delivery', async () => {
    const acked = newQueue();
    await channel.assertQueue(acked, { durable: true });
    const wfAcked = await createAndDeploy(t, consumerState(acked), 'Fails, acked');
    const redelivered = newQueue();
    await channel.assertQueue(redelivered, { durable: true });
    const wfRedelivered = await createAndDeploy(t, consumerState(redelivered, { redeliverOnError: 'true' }), 'Fails once, redelivered');
    worker.wake();
    await eventually(async () => ((await consumersOf(acked)) === 1 && (await consumersOf(redelivered)) === 1) || undefined, 10_000, 'the consumers');

    channel.sendToQueue(acked, Buffer.from(JSON.stringify({ n: 7, fail: true })));
    const [failed] = await queueLogs(wfAcked, 1);
    expect(failed.level).toBe('error');
    expect(failed.error).toContain('failed on 7');
    await eventually(async () => ((await channel.checkQueue(acked)).messageCount === 0 ? true : undefined));
    // Acknowledged: no second run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await queueLogs(wfAcked, 1)).toHaveLength(1);

    channel.sendToQueue(redelivered, Buffer.from(JSON.stringify({ n: 8, fail: true, once: true })));
    const both = await queueLogs(wfRedelivered, 2);
    expect(both.map((log) => log.level).sort()).toEqual(['error', 'info']);
    const ok = both.find((log) => log.level === 'info')!;
    expect(ok.finalOutput?.result).toMatchObject({ got: { n: 8 }, redelivered: true });
  });

  it('stops consuming when the workflow is undeployed', async () => {
    const queue = newQueue();
    await channel.assertQueue(queue, { durable: true });
    const wf = await createAndDeploy(t, consumerState(queue), 'Undeployed');
    worker.wake();
    await eventually(async () => (await consumersOf(queue)) === 1 || undefined, 10_000, 'the consumer');
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBeLessThan(300);
    worker.wake();
    await eventually(async () => (await consumersOf(queue)) === 0 || undefined, 10_000, 'the consumer to stop');
    channel.sendToQueue(queue, Buffer.from('left for later'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await channel.checkQueue(queue)).messageCount).toBe(1);
  });

  it('follows a rotated credential at once: a wrong password stops the consumer, the right one brings it back', async () => {
    const rotated = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: `rabbit-rotated-${randomUUID().slice(0, 6)}`, type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
    });
    const queue = newQueue();
    await channel.assertQueue(queue, { durable: true });
    const wf = await createAndDeploy(t, consumerState(queue, { credentialId: rotated.body.data.id }), 'Rotated credential');
    worker.wake();
    await eventually(async () => (await consumersOf(queue)) === 1 || undefined, 10_000, 'the consumer');

    // No wake from here on: the credential's change alone must reach the consumer (the safety-net poll is 30 s).
    const wrong = await t.request('PATCH', `/api/v1/credentials/${rotated.body.data.id}`, { body: { data: { password: 'not-the-password' } } });
    expect(wrong.status, wrong.text).toBe(200);
    await eventually(async () => (await consumersOf(queue)) === 0 || undefined, 10_000, 'the consumer to stop with the wrong password');
    channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: 'while refused' })));

    const right = await t.request('PATCH', `/api/v1/credentials/${rotated.body.data.id}`, { body: { data: { password: 'guest' } } });
    expect(right.status, right.text).toBe(200);
    await eventually(async () => (await consumersOf(queue)) === 1 || undefined, 10_000, 'the consumer to come back with the right password');
    const [log] = await queueLogs(wf, 1);
    expect(log.finalOutput?.result).toMatchObject({ got: { n: 'while refused' } });
  });

  it('refuses an amqp trigger that names a topic instead of a queue (the field follows the credential type)', async () => {
    const created = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Topic only', state: makeState([{ id: 'q', type: 'queue_trigger', config: { credentialId, topic: 'sensors/#' } }]) },
    });
    expect(created.status).toBe(400);
    expect(created.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'state.blocks.q.config.queue', message: expect.stringMatching(/RabbitMQ/) })]));
  });
});
