// Throttle and debounce on the triggers no API caller drives (docs/workflows.md "Flow control", docs/api.md 4.11):
// webhooks (a throttled call is queued and answered 202 unless a response block answers it; a debounced burst is one
// run), queue trigger messages against the local RabbitMQ (held unacknowledged until their start; a debounced burst
// is one run) and schedule ticks (they wait for a start, or are skipped under a singleton's skip). One process
// (PGlite, or PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';
import { mostStartsInWindow, type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited', SLUICE_METRICS_ENABLED: 'true' }, 100);
const { startWorker } = flow;
// The names the tests use, set once the app is up.
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

/**
 * `trigger` (named `T`) → an API block calling the recording server with `<t.body.customer>` as key and
 * `<t.body.tag>` as tag (a schedule's input has no body: its calls go under `key`) → optionally a response block.
 */
function triggered(trigger: { type: string; config: Record<string, unknown> }, flowControl: Record<string, unknown>, options: { respond?: boolean; key?: string } = {}) {
  const url = options.key ? `${server.url}?key=${options.key}` : `${server.url}?key=<t.body.customer>&tag=<t.body.tag>`;
  const blocks = [
    { id: 'start', type: trigger.type, name: 'T', config: trigger.config },
    { id: 'call', type: 'api', name: 'Call', config: { url, method: 'GET', retries: 0, timeoutMs: 60_000 } },
    ...(options.respond ? [{ id: 'respond', type: 'response', name: 'Respond', config: { status: 201, body: { answered: true } } }] : []),
  ];
  const edges: Array<[string, string]> = options.respond ? [['start', 'call'], ['call', 'respond']] : [['start', 'call']];
  return { ...makeState(blocks, edges), flowControl };
}

const visitsOf = (key: string) => server.visits.filter((v) => v.key === key);

/** The logs of the workflow (one page of the logs API). */
async function logsOf(workflowId: string): Promise<Array<{ executionId: string; startedAt: string; trigger: string }>> {
  const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${workflowId}&limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const startsOf = async (workflowId: string) => (await logsOf(workflowId)).map((log) => Date.parse(log.startedAt));

async function metricsText() {
  return (await t.request('GET', '/metrics')).text;
}

describe('throttle and debounce on webhooks', { timeout: 120_000 }, () => {
  const hook = (path: string, body: Record<string, unknown>) =>
    fetch(`${t.url}/api/webhooks/trigger/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('throttle: calls over the rate are answered 202 and run later; no period holds more starts than the limit', async () => {
    const path = `thr-${randomUUID().slice(0, 8)}`;
    const periodMs = 3000;
    const customer = `w-${path}`;
    const wf = await createAndDeploy(t, triggered({ type: 'webhook_trigger', config: { path } }, { throttle: { limit: 2, periodMs, key: '<t.body.customer>' } }), 'Throttled hook');
    await startWorker();
    const answers: Array<{ status: number; body: Record<string, unknown>; executionId: string | null }> = [];
    for (let i = 0; i < 6; i++) {
      const res = await hook(path, { customer, tag: String(i) });
      answers.push({ status: res.status, body: (await res.json()) as Record<string, unknown>, executionId: res.headers.get('x-execution-id') });
    }
    // The first two start at once (a fresh key); later ones over the rate are queued.
    expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
    const queued = answers.filter((a) => a.status === 202);
    expect(queued.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 202)).toBe(true);
    for (const answer of queued) {
      expect(answer.body).toMatchObject({ success: true, async: true, status: 'queued', executionId: answer.executionId });
      expect(answer.body.taskId).toBeTruthy();
    }
    // Every call ran once, with its own body.
    await eventually(async () => visitsOf(customer).length === 6 || undefined, 60_000, 'six runs');
    expect(visitsOf(customer).map((v) => v.tag).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    const logs = await eventually(async () => {
      const found = await logsOf(wf);
      return found.length === 6 ? found : undefined;
    }, 30_000, 'six logs');
    expect(new Set(logs.map((log) => log.trigger))).toEqual(new Set(['webhook']));
    expect(mostStartsInWindow(logs.map((log) => Date.parse(log.startedAt)), periodMs)).toBeLessThanOrEqual(2);
    // A queued call's run says why it waited.
    const detail = await logDetailOf(t, queued[0].executionId!);
    expect(detail.flowControl).toEqual({ reason: 'throttle' });
  });

  it('throttle: a webhook answered by a response block gets 429 THROTTLED with Retry-After over the rate', async () => {
    const path = `thr-sync-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(
      t,
      triggered({ type: 'webhook_trigger', config: { path } }, { throttle: { limit: 1, periodMs: 60_000 } }, { respond: true }),
      'Throttled answering hook',
    );
    const first = await hook(path, { customer: path, tag: 'a' });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ answered: true });
    const refused = await hook(path, { customer: path, tag: 'b' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('THROTTLED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await metricsText()).toContain(`sluice_flow_control_refusals_total{workflow_id="${wf}",code="THROTTLED"} 1`);
    // Nothing was queued for it: only the first call ran.
    expect(visitsOf(path).map((v) => v.tag)).toEqual(['a']);
  });

  it('debounce: a burst of calls becomes one run with the last body; every call is answered 202 with its execution id', async () => {
    const path = `deb-${randomUUID().slice(0, 8)}`;
    const customer = `d-${path}`;
    const wf = await createAndDeploy(t, triggered({ type: 'webhook_trigger', config: { path } }, { debounce: { periodMs: 1500, key: '<t.body.customer>' } }), 'Debounced hook');
    await startWorker();
    const answers: Array<{ status: number; body: Record<string, unknown>; header: string | null }> = [];
    for (let i = 0; i < 10; i++) {
      const res = await hook(path, { customer, tag: String(i) });
      answers.push({ status: res.status, body: (await res.json()) as Record<string, unknown>, header: res.headers.get('x-execution-id') });
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    // Another key is a burst of its own.
    const other = await hook(path, { customer: `${customer}-other`, tag: 'other' });
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const executionId = answers[0].body.executionId as string;
    expect(new Set(answers.map((a) => a.body.executionId))).toEqual(new Set([executionId]));
    expect(new Set(answers.map((a) => a.header))).toEqual(new Set([executionId]));
    expect(new Set(answers.map((a) => a.body.taskId)).size).toBe(1);
    expect(other.status).toBe(202);
    expect(((await other.json()) as { executionId: string }).executionId).not.toBe(executionId);

    const log = await logDetailOf(t, executionId, 30_000);
    expect(log.flowControl).toEqual({ reason: 'debounce' });
    await eventually(async () => visitsOf(`${customer}-other`).length === 1 || undefined, 30_000, 'the other key’s run');
    expect(visitsOf(customer).map((v) => v.tag)).toEqual(['9']);
    // The other run's log is committed after its call reached the receiver: wait for it rather than race it.
    const logs = await eventually(async () => {
      const listed = await logsOf(wf);
      return listed.length >= 2 && listed;
    }, 30_000, 'both runs logged');
    expect(logs.filter((l) => l.executionId === executionId)).toHaveLength(1);
    expect(logs).toHaveLength(2);
    expect(await metricsText()).toContain(`sluice_flow_control_debounced_total{workflow_id="${wf}"} 9`);
  });

  it('debounce: a webhook answered by a response block is refused with 409 DEBOUNCED', async () => {
    const path = `deb-sync-${randomUUID().slice(0, 8)}`;
    await createAndDeploy(t, triggered({ type: 'webhook_trigger', config: { path } }, { debounce: { periodMs: 1000 } }, { respond: true }), 'Debounced answering hook');
    const refused = await hook(path, { customer: path, tag: 'x' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe('DEBOUNCED');
    expect(visitsOf(path)).toHaveLength(0);
  });
});

describe('throttle and debounce on chat', { timeout: 60_000 }, () => {
  const chatTrigger = { type: 'chat_trigger', config: {} };
  const chat = (wf: string) => t.request('POST', `/api/chat/${wf}`, { body: { message: 'hi', stream: false } });

  it('a chat message over the rate gets 429 THROTTLED, streaming or not; a debounced workflow’s chat is 409 DEBOUNCED', async () => {
    const key = `chat-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, triggered(chatTrigger, { throttle: { limit: 1, periodMs: 60_000 } }, { key }), 'Throttled chat');
    expect((await chat(wf)).status).toBe(200);
    const refused = await chat(wf);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('THROTTLED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const streamed = await t.request('POST', `/api/chat/${wf}`, { body: { message: 'hi' } });
    expect(streamed.status).toBe(429);
    expect(visitsOf(key)).toHaveLength(1);

    const debounced = await createAndDeploy(t, triggered(chatTrigger, { debounce: { periodMs: 1000 } }, { key: `${key}-d` }), 'Debounced chat');
    const answer = await chat(debounced);
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('DEBOUNCED');
    expect(visitsOf(`${key}-d`)).toHaveLength(0);
  });
});

describe('throttle and debounce on queue trigger messages (RabbitMQ)', { timeout: 120_000 }, () => {
  let model: amqp.ChannelModel;
  let channel: amqp.Channel;
  let credentialId: string;
  const queues: string[] = [];

  beforeAll(async () => {
    model = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    channel = await model.createChannel();
    const created = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: `rabbit ${randomUUID().slice(0, 8)}`, type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
    });
    credentialId = created.body.data.id;
  });
  afterAll(async () => {
    for (const queue of queues) await channel?.deleteQueue(queue).catch(() => {});
    await model?.close();
  });

  async function consumed(queue: string, concurrency: number, flowControl: Record<string, unknown>, name: string) {
    queues.push(queue);
    await channel.assertQueue(queue, { durable: true });
    const wf = await createAndDeploy(t, triggered({ type: 'queue_trigger', config: { credentialId, queue, concurrency } }, flowControl), name);
    await startWorker();
    await eventually(async () => (await channel.checkQueue(queue)).consumerCount === 1 || undefined, 20_000, 'the consumer');
    return wf;
  }

  const send = (queue: string, body: Record<string, unknown>) =>
    channel.sendToQueue(queue, Buffer.from(JSON.stringify(body)), { contentType: 'application/json', persistent: true });

  /** Undeploys: the consumer stops, and any message it had not acknowledged goes back to the queue. */
  async function undeployAndCount(wf: string, queue: string) {
    expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    await eventually(async () => (await channel.checkQueue(queue)).consumerCount === 0 || undefined, 20_000, 'the consumer to stop');
    return (await channel.checkQueue(queue)).messageCount;
  }

  it('throttle: messages wait unacknowledged for their start; every message runs and no period holds more starts than the limit', async () => {
    const queue = `sluice-thr-${randomUUID().slice(0, 8)}`;
    const periodMs = 800;
    const wf = await consumed(queue, 4, { throttle: { limit: 1, periodMs } }, 'Throttled queue');
    for (let i = 0; i < 4; i++) send(queue, { customer: queue, tag: String(i) });
    await eventually(async () => visitsOf(queue).length === 4 || undefined, 60_000, 'four runs');
    expect(visitsOf(queue).map((v) => v.tag).sort()).toEqual(['0', '1', '2', '3']);
    const logs = await eventually(async () => {
      const found = await logsOf(wf);
      return found.length === 4 ? found : undefined;
    }, 30_000, 'four logs');
    expect(mostStartsInWindow(logs.map((log) => Date.parse(log.startedAt)), periodMs)).toBe(1);
    // The messages held back say so on their runs' logs.
    const reasons = await Promise.all(logs.map(async (log) => (await logDetailOf(t, log.executionId)).flowControl?.reason));
    expect(reasons.filter((r) => r === 'throttle').length).toBeGreaterThanOrEqual(1);
    expect(await metricsText()).toMatch(new RegExp(`sluice_flow_control_waits_total\\{workflow_id="${wf}",reason="throttle"\\} \\d+`));
    // Every message was acknowledged: none comes back when the consumer stops.
    expect(await undeployAndCount(wf, queue)).toBe(0);
  });

  it('debounce: a burst of messages becomes one run with the last message; the burst’s messages are acknowledged', async () => {
    const queue = `sluice-deb-${randomUUID().slice(0, 8)}`;
    const wf = await consumed(queue, 1, { debounce: { periodMs: 1500, key: '<t.body.customer>' } }, 'Debounced queue');
    for (let i = 0; i < 10; i++) send(queue, { customer: queue, tag: String(i) });
    const log = await eventually(async () => {
      const found = await logsOf(wf);
      return found.length > 0 ? found[0] : undefined;
    }, 60_000, 'the burst’s run');
    const detail = await logDetailOf(t, log.executionId);
    expect(detail.trigger).toBe('queue');
    expect(detail.flowControl).toEqual({ reason: 'debounce' });
    await eventually(async () => visitsOf(queue).length === 1 || undefined, 30_000, 'the run’s call');
    expect(visitsOf(queue).map((v) => v.tag)).toEqual(['9']);
    expect(await metricsText()).toContain(`sluice_flow_control_debounced_total{workflow_id="${wf}"} 9`);
    expect(await undeployAndCount(wf, queue)).toBe(0);
    expect(await logsOf(wf)).toHaveLength(1);
  });
});

describe('throttle on schedule ticks', { timeout: 120_000 }, () => {
  const everySecond = { type: 'schedule_trigger', config: { cron: '* * * * * *', timezone: 'UTC' } };

  it('a tick over the rate waits for its start: no period holds more starts than the limit', async () => {
    const key = `tick-${randomUUID().slice(0, 8)}`;
    const periodMs = 2500;
    const wf = await createAndDeploy(t, triggered(everySecond, { throttle: { limit: 1, periodMs } }, { key }), 'Throttled schedule');
    await startWorker();
    try {
      await eventually(async () => visitsOf(key).length >= 3 || undefined, 60_000, 'three ticks’ runs');
    } finally {
      expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    }
    const starts = await eventually(async () => {
      const found = await startsOf(wf);
      return found.length >= 3 ? found : undefined;
    }, 30_000, 'three logs');
    expect(mostStartsInWindow(starts, periodMs)).toBe(1);
    expect(await metricsText()).toMatch(new RegExp(`sluice_flow_control_waits_total\\{workflow_id="${wf}",reason="throttle"\\} \\d+`));
  });

  it('under a singleton’s skip, a tick over the rate is skipped and counted as a THROTTLED refusal', async () => {
    const key = `tick-skip-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(
      t,
      triggered(everySecond, { singleton: { mode: 'skip' }, throttle: { limit: 1, periodMs: 60_000 } }, { key }),
      'Throttled skipping schedule',
    );
    await startWorker();
    try {
      await eventually(async () => (await metricsText()).includes(`sluice_flow_control_refusals_total{workflow_id="${wf}",code="THROTTLED"}`) || undefined, 30_000, 'a tick skipped by the throttle');
    } finally {
      expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    }
    expect(visitsOf(key)).toHaveLength(1);
  });
});
