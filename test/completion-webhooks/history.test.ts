// Delivery history (paged, every attempt), redelivery and the signed test event (docs/guarantees.md 3.6).
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { FakeUpstream } from '../net/fake-upstream.js';
import { createDeployedWorkflow, EVENT_DATA_FIELDS, eventually, runOnce, startReceiver, subscribe, useWorkerApp, verifyDelivery } from './support.js';

let t: TestApp;

async function receiver(statuses: number[]) {
  const r = await startReceiver((_req, res, _recorded, index) => {
    res.writeHead(statuses[Math.min(index, statuses.length - 1)]);
    res.end('{"received":true}');
  });
  return fixture.track(r);
}

const fixture = useWorkerApp((ready) => {
  t = ready.t;
});

const hooks = (workflowId: string) => `/api/v1/workflows/${workflowId}/webhooks`;

async function history(workflowId: string, subscriptionId: string, query = '') {
  const res = await t.request('GET', `${hooks(workflowId)}/${subscriptionId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; nextCursor: string | null };
}

async function settled(workflowId: string, subscriptionId: string, count: number) {
  return eventually(async () => {
    const page = await history(workflowId, subscriptionId, '?limit=100');
    return page.data.length === count && page.data.every((d) => d.status !== 'pending') && page;
  });
}

describe('delivery history, redelivery and test events', () => {
  it('lists deliveries newest first, paged, with each attempt', async () => {
    const r = await receiver([400]);
    const wf = await createDeployedWorkflow(t);
    const sub = await subscribe(t, wf.id, { url: r.url });
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await runOnce(t, wf));
    await settled(wf.id, sub.id, 3);

    const first = await history(wf.id, sub.id, '?limit=2');
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await history(wf.id, sub.id, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const listed = [...first.data, ...second.data];
    expect(listed.map((d) => d.executionId)).toEqual(runs.map((run) => run.executionId).reverse());

    const [newest] = listed;
    expect(newest).toEqual({
      id: expect.stringMatching(/^dlv_/),
      subscriptionId: sub.id,
      eventId: expect.stringMatching(/^evt_/),
      eventType: 'workflow.execution.completed',
      executionId: runs[2].executionId,
      status: 'failed',
      attemptCount: 1,
      nextAttemptAt: null,
      lastStatusCode: 400,
      lastError: 'HTTP 400 Bad Request: {"received":true}',
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      payload: expect.objectContaining({ type: 'workflow.execution.completed', data: expect.objectContaining({ executionId: runs[2].executionId }) }),
      attempts: [{ attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), statusCode: 400, error: expect.stringMatching(/^HTTP 400/) }],
    });

    for (const bad of ['?cursor=garbage', '?limit=0', '?limit=101', '?limit=abc']) {
      const res = await t.request('GET', `${hooks(wf.id)}/${sub.id}/deliveries${bad}`);
      expect(res.status, bad).toBe(400);
    }
    // Forged cursors naming a delivery id the database cannot take (NUL once reached it and answered 500).
    for (const d of ['\u0000', 'dlv_\u0000', '\ud800']) {
      const cursor = Buffer.from(JSON.stringify({ d })).toString('base64url');
      const res = await t.request('GET', `${hooks(wf.id)}/${sub.id}/deliveries?cursor=${cursor}`);
      expect(res.status, `${JSON.stringify(d)}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'cursor' }] });
    }
    // A cursor from another subscription's history is refused, not silently applied.
    const other = await subscribe(t, wf.id, { url: r.url, active: false });
    expect((await t.request('GET', `${hooks(wf.id)}/${other.id}/deliveries?cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('redelivers the same event as a new delivery, however the first one ended', async () => {
    const r = await receiver([400, 200]);
    const secret = 'whsec_redeliver';
    const wf = await createDeployedWorkflow(t);
    const sub = await subscribe(t, wf.id, { url: r.url, secret });
    await runOnce(t, wf);
    const [failed] = (await settled(wf.id, sub.id, 1)).data;
    expect(failed.status).toBe('failed');

    const res = await t.request('POST', `${hooks(wf.id)}/deliveries/${failed.id}/redeliver`);
    expect(res.status).toBe(202);
    const again = res.body.data;
    expect(again.id).not.toBe(failed.id);
    expect(again.eventId).toBe(failed.eventId);
    expect(again.status).toBe('pending');
    await r.waitForRequests(2);
    expect(r.requests[1].body.equals(r.requests[0].body)).toBe(true);
    expect(r.requests[1].headers['service-delivery-id']).toBe(again.id);
    expect(verifyDelivery(r.requests[1].headers, r.requests[1].body, secret)).toBe(200);
    const page = await settled(wf.id, sub.id, 2);
    expect(page.data.map((d) => [d.id, d.status])).toEqual([
      [again.id, 'succeeded'],
      [failed.id, 'failed'],
    ]);

    // Also under its subscription's path; unknown or foreign ids are 404.
    expect((await t.request('POST', `${hooks(wf.id)}/${sub.id}/deliveries/${failed.id}/redeliver`)).status).toBe(202);
    expect((await t.request('POST', `${hooks(wf.id)}/deliveries/dlv_doesnotexist/redeliver`)).status).toBe(404);
    const otherWf = await createDeployedWorkflow(t);
    expect((await t.request('POST', `${hooks(otherWf.id)}/deliveries/${failed.id}/redeliver`)).status).toBe(404);
  });

  it('sends a signed test event through the same path, marked as a test', async () => {
    const r = await receiver([200]);
    const secret = 'whsec_test_event';
    const wf = await createDeployedWorkflow(t);
    const sub = await subscribe(t, wf.id, { url: r.url, secret, includeFinalOutput: true, includeUsageData: true });
    const res = await t.request('POST', `${hooks(wf.id)}/${sub.id}/test`);
    expect(res.status).toBe(202);
    await r.waitForRequests(1);
    const [req] = r.requests;
    expect(verifyDelivery(req.headers, req.body, secret)).toBe(200);
    expect(req.headers['service-test']).toBe('true');
    expect(req.headers['service-delivery-id']).toBe(res.body.data.id);
    const body = JSON.parse(req.body.toString());
    expect(body.type).toBe('workflow.execution.completed');
    expect(Object.keys(body.data)).toEqual([...EVENT_DATA_FIELDS, 'finalOutput', 'usage']);
    expect(body.data.workflowId).toBe(wf.id);
    // The test event ran no deployment.
    expect(body.data.deploymentVersion).toBeNull();
    const page = await settled(wf.id, sub.id, 1);
    expect(page.data[0]).toMatchObject({ id: res.body.data.id, status: 'succeeded', executionId: null });

    // A disabled subscription still gets a test event on request (a person asked for it).
    await t.request('PATCH', `${hooks(wf.id)}/${sub.id}`, { body: { active: false } });
    expect((await t.request('POST', `${hooks(wf.id)}/${sub.id}/test`)).status).toBe(202);
    await r.waitForRequests(2);
  });
});
