// The five triggers as the logs API `triggers` filter and the webhook subscriptions' `triggerFilter` see them: one
// workflow is run by each of api, webhook, schedule, manual and chat, through the real server and worker, and each
// filter selects exactly the runs of its trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { TRIGGER_TYPES, type TriggerType } from '../../src/workflow/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { callWebhook } from './support.js';

let t: TestApp;
let worker: Worker;
let receiver: FakeUpstream;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  receiver = await startUpstream((_req, res) => {
    res.writeHead(200);
    res.end('ok');
  });
});
afterAll(async () => {
  await worker?.stop(1000);
  await receiver?.close();
  await t?.close();
});

/** Every trigger block, each starting its own small branch. */
function allTriggers(path: string, withSchedule: boolean) {
  const blocks = [
    { id: 'api', type: 'api_trigger', name: 'API' },
    { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path } },
    { id: 'chat', type: 'chat_trigger', name: 'Chat' },
    ...(withSchedule ? [{ id: 'tick', type: 'schedule_trigger', name: 'Tick', config: { cron: '* * * * * *' } }] : []),
    { id: 'fromApi', type: 'function', name: 'From API', config: { code: "return 'api';" } },
    { id: 'fromHook', type: 'function', name: 'From Hook', config: { code: "return 'webhook';" } },
    { id: 'fromChat', type: 'function', name: 'From Chat', config: { code: "return 'chat';" } },
    { id: 'fromTick', type: 'function', name: 'From Tick', config: { code: "return 'schedule';" } },
  ];
  const edges: Array<[string, string]> = [['api', 'fromApi'], ['hook', 'fromHook'], ['chat', 'fromChat']];
  if (withSchedule) edges.push(['tick', 'fromTick']);
  return makeState(blocks, edges);
}

describe('trigger filters', () => {
  it('the logs API triggers filter and each subscription’s triggerFilter select exactly the runs of their triggers', async () => {
    const path = `all-five-${Date.now()}`;
    const wf = await createAndDeploy(t, allTriggers(path, true));
    const subscriptions = new Map<string, TriggerType[]>();
    for (const trigger of TRIGGER_TYPES) {
      const res = await t.request('POST', `/api/v1/workflows/${wf}/webhooks`, { body: { url: `${receiver.url}/${trigger}`, triggerFilter: [trigger] } });
      expect(res.status).toBe(201);
      subscriptions.set(`/${trigger}`, [trigger]);
    }
    const both = await t.request('POST', `/api/v1/workflows/${wf}/webhooks`, { body: { url: `${receiver.url}/chat-or-manual`, triggerFilter: ['chat', 'manual'] } });
    expect(both.status).toBe(201);

    // One run of each request-driven trigger; the schedule fires on its own every second.
    const api = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(api.status).toBe(200);
    const hook = await callWebhook(t, path, '{}', { 'content-type': 'application/json' });
    expect(hook.status).toBe(200);
    const chat = await t.request('POST', `/api/chat/${wf}`, { body: { message: 'hi', stream: false } });
    expect(chat.status).toBe(200);
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`);
    expect(manual.status).toBe(200);
    const logsOf = async (triggers: string) => {
      const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${wf}&triggers=${triggers}&limit=1000`);
      expect(res.status).toBe(200);
      return res.body.data as Array<{ executionId: string; trigger: string }>;
    };
    await eventually(async () => ((await logsOf('schedule')).length > 0 ? true : undefined), 15_000);
    // Stop the schedule so the set of runs is final.
    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: allTriggers(path, false) } });
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    await eventually(async () => (worker.inFlight() === 0 ? true : undefined));

    const expected: Record<TriggerType, string[]> = {
      api: [api.body.executionId],
      webhook: [hook.body.executionId],
      chat: [chat.body.executionId],
      manual: [manual.body.executionId],
      schedule: (await logsOf('schedule')).map((log) => log.executionId),
      // Queue-triggered runs are covered by test/connectors/queue-trigger.test.ts; this workflow has none.
      queue: [],
    };
    for (const trigger of TRIGGER_TYPES) {
      const logs = await logsOf(trigger);
      expect(logs.every((log) => log.trigger === trigger), trigger).toBe(true);
      expect(logs.map((log) => log.executionId).sort(), trigger).toEqual([...expected[trigger]].sort());
    }
    const pair = await logsOf('chat,manual');
    expect(pair.map((log) => log.executionId).sort()).toEqual([...expected.chat, ...expected.manual].sort());
    const everything = await logsOf(TRIGGER_TYPES.join(','));
    expect(everything).toHaveLength(Object.values(expected).flat().length);

    // Completion webhooks: each subscription receives the completions of its triggers and nothing else.
    subscriptions.set('/chat-or-manual', ['chat', 'manual']);
    const total = [...subscriptions.values()].reduce((sum, triggers) => sum + triggers.flatMap((tr) => expected[tr]).length, 0);
    await receiver.waitForRequests(total);
    const received = new Map<string, string[]>();
    for (const request of receiver.requests) {
      const body = JSON.parse(request.body.toString('utf8')) as { data: { executionId: string; trigger: string } };
      received.set(request.url, [...(received.get(request.url) ?? []), body.data.executionId]);
    }
    for (const [url, triggers] of subscriptions) {
      expect((received.get(url) ?? []).sort(), url).toEqual(triggers.flatMap((tr) => expected[tr]).sort());
    }
  });
});
