// Flow control holds whatever starts a run (docs/workflows.md "Flow control"): the editor's Run, chat, webhooks,
// schedule ticks and queue triggers obey a workflow's limit like API calls do. One process (PGlite, or PostgreSQL
// with TEST_DATABASE_URL); the queue trigger against the local RabbitMQ.
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited', SLUICE_METRICS_ENABLED: 'true' }, 150);
const { startWorker } = flow;
// The names the tests use, set once the app is up.
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

/** `trigger` → an API block calling the recording server under `key`; flow control as given. */
function triggered(trigger: { type: string; config?: Record<string, unknown> }, key: string, flowControl: Record<string, unknown>) {
  return {
    ...makeState(
      [
        { id: 'start', type: trigger.type, name: 'Start', config: trigger.config ?? {} },
        { id: 'call', type: 'api', name: 'Call', config: { url: `${server.url}?key=${key}`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
      ],
      [['start', 'call']],
    ),
    flowControl,
  };
}

/** Holds the recording server's calls and starts `first`; resolves once its run is in flight under `key`. */
async function holdOneRun<T>(key: string, first: () => Promise<T>) {
  const gate = server.hold();
  const running = first();
  await eventually(async () => server.inFlight(key) === 1, 20_000, `a run of ${key} to be in flight`);
  return { running, release: () => gate.release() };
}

describe('flow control on every trigger', { timeout: 120_000 }, () => {
  it('manual run (the editor’s Run of the draft): a second run over the limit is 429 CONCURRENCY_LIMIT', async () => {
    const created = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Manual limit', state: triggered({ type: 'api_trigger', config: { inputFormat: [] } }, 'manual', { concurrency: { limit: 1 } }) },
    });
    const wf = created.body.data.id as string;
    const run = () => t.request('POST', `/api/v1/workflows/${wf}/run`, { body: {}, headers: { accept: 'application/json' } });
    const { running, release } = await holdOneRun('manual', run);
    const refused = await run();
    release();
    expect((await running).status).toBe(200);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('CONCURRENCY_LIMIT');
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // The slot went with the run: the next one runs.
    expect((await run()).status).toBe(200);
  });

  it('chat: a message while a singleton run is in flight is 409 ALREADY_RUNNING naming it', async () => {
    const wf = await createAndDeploy(t, triggered({ type: 'chat_trigger' }, 'chat', { singleton: { mode: 'skip' } }), 'Chat limit');
    const chat = () => t.request('POST', `/api/chat/${wf}`, { body: { message: 'hi', stream: false } });
    const { running, release } = await holdOneRun('chat', chat);
    const skipped = await chat();
    release();
    const first = await running;
    expect(first.status).toBe(200);
    expect(skipped.status).toBe(409);
    expect(skipped.body).toMatchObject({ code: 'ALREADY_RUNNING', runningExecutionId: first.headers.get('x-execution-id') });
  });

  it('webhook: a call over the limit waits for the slot up to maxWaitMs, then is answered 429', async () => {
    const path = `flow-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, triggered({ type: 'webhook_trigger', config: { path } }, 'hook', { concurrency: { limit: 1, maxWaitMs: 200 } }), 'Hook limit');
    expect(wf).toBeTruthy();
    const call = () => fetch(`${t.url}/api/webhooks/trigger/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const { running, release } = await holdOneRun('hook', call);
    const refused = await call();
    release();
    expect((await running).status).toBe(200);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('CONCURRENCY_LIMIT');
    expect((await call()).status).toBe(200);
  });

  it('schedule: a tick while the singleton’s run is in flight is skipped and counted as a refusal', async () => {
    await startWorker();
    const gate = server.hold();
    const wf = await createAndDeploy(t, triggered({ type: 'schedule_trigger', config: { cron: '* * * * * *', timezone: 'UTC' } }, 'tick', { singleton: { mode: 'skip' } }), 'Tick limit');
    try {
      await eventually(async () => server.inFlight('tick') === 1, 20_000, 'a tick’s run to be in flight');
      // The ticks that came while it ran were skipped, and counted as refusals.
      await eventually(async () => {
        const metrics = await t.request('GET', '/metrics');
        return metrics.text.includes(`sluice_flow_control_refusals_total{workflow_id="${wf}",code="ALREADY_RUNNING"}`);
      }, 20_000, 'a tick skipped by flow control');
      expect(server.peakPerKey().get('tick')).toBe(1);
    } finally {
      gate.release();
      await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`);
    }
  });

  it('queue trigger: messages wait for the key’s slot, so runs never overlap beyond the limit', async () => {
    const model = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await model.createChannel();
    const queue = `sluice-flow-${randomUUID().slice(0, 8)}`;
    try {
      await channel.assertQueue(queue, { durable: true });
      const credential = await t.request('POST', '/api/v1/credentials', {
        body: { workspaceId: t.workspaceId, name: `rabbit ${queue}`, type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
      });
      // The consumer would take 4 messages at once; the limit lets one run at a time.
      const state = triggered({ type: 'queue_trigger', config: { credentialId: credential.body.data.id, queue, concurrency: 4 } }, 'queued', { concurrency: { limit: 1 } });
      const wf = await createAndDeploy(t, state, 'Queue limit');
      await startWorker(100);
      await eventually(async () => (await channel.checkQueue(queue)).consumerCount === 1 || undefined, 20_000, 'the consumer');
      for (let i = 0; i < 4; i++) channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: i })), { contentType: 'application/json' });
      await eventually(async () => server.visits.filter((v) => v.key === 'queued').length === 4 || undefined, 60_000, 'four runs');
      expect(server.peakPerKey().get('queued')).toBe(1);
      expect((await t.request('DELETE', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    } finally {
      await channel.deleteQueue(queue).catch(() => {});
      await model.close();
    }
  });
});
