// What a receiver gets for a completed execution: one delivery per matching active subscription, written with the
// execution (outbox), carrying the documented headers and exact payload, signed so a receiver's check passes
// (docs/guarantees.md 3).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries } from '../../src/db/schema.js';
import type { TestApp } from '../support/app.js';
import type { FakeUpstream } from '../net/fake-upstream.js';
import { createDeployedWorkflow, EVENT_DATA_FIELDS, eventually, failingState, plainState, runOnce, startReceiver, subscribe, useWorkerApp, verifyDelivery } from './support.js';

let t: TestApp;

async function receiver(status = 200) {
  const r = await startReceiver((_req, res) => {
    res.writeHead(status);
    res.end('ok');
  });
  return fixture.track(r);
}

const fixture = useWorkerApp((ready) => {
  t = ready.t;
});

const bodyOf = (r: FakeUpstream, i = 0) => JSON.parse(r.requests[i].body.toString('utf8'));

describe('completion deliveries', () => {
  it('sends the exact documented payload and headers, signed, for an execute call', async () => {
    const wf = await createDeployedWorkflow(t, plainState());
    const r = await receiver();
    const secret = 'whsec_test_secret_123';
    await subscribe(t, wf.id, { url: `${r.url}/hook`, secret });

    const res = await t.request('POST', `/api/workflows/${wf.id}/execute`, { body: { q: 'hi' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.output).toMatchObject({ result: 'HI' });
    await r.waitForRequests(1);

    const req = r.requests[0];
    expect(req.method).toBe('POST');
    expect(req.url).toBe(`${new URL(r.url).pathname}/hook`);
    const body = bodyOf(r);
    expect(Object.keys(body)).toEqual(['id', 'type', 'timestamp', 'data', 'links']);
    expect(body.id).toMatch(/^evt_/);
    expect(body.type).toBe('workflow.execution.completed');
    expect(typeof body.timestamp).toBe('number');
    expect(Math.abs(body.timestamp - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(body.data)).toEqual(EVENT_DATA_FIELDS);
    expect(body.data).toMatchObject({
      workflowId: wf.id,
      executionId: res.body.executionId,
      status: 'success',
      level: 'info',
      trigger: 'api',
      files: null,
      deploymentVersion: wf.version,
    });
    expect(new Date(body.data.startedAt).toISOString()).toBe(body.data.startedAt);
    expect(new Date(body.data.endedAt).toISOString()).toBe(body.data.endedAt);
    expect(body.data.totalDurationMs).toBeGreaterThanOrEqual(0);
    expect(body.data.cost).toEqual({ total: expect.any(Number), tokens: { prompt: 0, completion: 0, total: 0 }, models: {} });
    expect(body.links.execution).toBe(`/v1/logs/executions/${res.body.executionId}`);
    expect(body.links.log).toMatch(/^\/v1\/logs\/log_/);

    // Headers (names are case-insensitive; node lowercases them).
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['service-event']).toBe('workflow.execution.completed');
    expect(req.headers['service-timestamp']).toMatch(/^\d{13}$/);
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.eventId, body.id));
    expect(req.headers['service-delivery-id']).toBe(delivery.id);
    expect(req.headers['idempotency-key']).toBe(delivery.id);
    expect(req.headers['service-signature']).toMatch(/^t=\d{13},v1=[0-9a-f]{64}$/);
    expect(req.headers['service-test']).toBeUndefined();

    // A receiver following docs/guarantees.md 3.2 accepts it, and rejects a wrong secret, changed body or stale time.
    expect(verifyDelivery(req.headers, req.body, secret)).toBe(200);
    expect(verifyDelivery(req.headers, req.body, 'wrong-secret')).toBe(401);
    expect(verifyDelivery(req.headers, Buffer.from(req.body.toString().replace('success', 'error')), secret)).toBe(401);
    expect(verifyDelivery(req.headers, req.body, secret, Number(req.headers['service-timestamp']) + 5 * 60_000 + 1)).toBe(401);
    expect(verifyDelivery({ ...req.headers, 'service-signature': undefined }, req.body, secret)).toBe(401);

    // The links resolve through the logs API.
    const log = await t.request('GET', `/api${body.links.log}`);
    expect(log.status).toBe(200);
    expect(log.body.data.executionId).toBe(res.body.executionId);
    const execution = await t.request('GET', `/api${body.links.execution}`);
    expect(execution.status).toBe(200);
    expect(execution.body.executionId).toBe(res.body.executionId);

    await eventually(async () => {
      const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.id, delivery.id));
      return row.status === 'succeeded' && row;
    });
  });

  it('carries the deployment version that ran, and null for a manual run of the draft', async () => {
    const wf = await createDeployedWorkflow(t, plainState());
    const r = await receiver();
    await subscribe(t, wf.id, { url: r.url });
    const v1 = await t.request('POST', `/api/workflows/${wf.id}/execute`, { body: { q: 'one' } });
    expect(v1.status).toBe(200);
    expect((await t.request('POST', `/api/v1/workflows/${wf.id}/deploy`)).body.version).toBe(2);
    const v2 = await t.request('POST', `/api/workflows/${wf.id}/execute`, { body: { q: 'two' } });
    const draft = await t.request('POST', `/api/v1/workflows/${wf.id}/run?stream=false`, { body: { input: { q: 'draft' } } });
    expect(draft.status, draft.text).toBe(200);
    await r.waitForRequests(3);
    const versions = Object.fromEntries(r.requests.map((q) => JSON.parse(q.body.toString()).data).map((d) => [d.executionId, d.deploymentVersion]));
    expect(versions).toEqual({ [v1.body.executionId]: 1, [v2.body.executionId]: 2, [draft.body.executionId]: null });
  });

  it('sends no signature header without a secret', async () => {
    const wf = await createDeployedWorkflow(t);
    const r = await receiver();
    await subscribe(t, wf.id, { url: r.url });
    await runOnce(t, wf);
    await r.waitForRequests(1);
    expect(r.requests[0].headers['service-signature']).toBeUndefined();
    expect(r.requests[0].headers['service-delivery-id']).toMatch(/^dlv_/);
  });

  it('adds each optional part only when its flag is set', async () => {
    const wf = await createDeployedWorkflow(t);
    const plain = await receiver();
    const output = await receiver();
    const spans = await receiver();
    const limits = await receiver();
    const usage = await receiver();
    const all = await receiver();
    await subscribe(t, wf.id, { url: plain.url });
    await subscribe(t, wf.id, { url: output.url, includeFinalOutput: true });
    await subscribe(t, wf.id, { url: spans.url, includeTraceSpans: true });
    await subscribe(t, wf.id, { url: limits.url, includeRateLimits: true });
    await subscribe(t, wf.id, { url: usage.url, includeUsageData: true });
    await subscribe(t, wf.id, {
      url: all.url,
      includeFinalOutput: true,
      includeTraceSpans: true,
      includeRateLimits: true,
      includeUsageData: true,
    });
    const outcome = await runOnce(t, wf, 'api', { q: 'flags' });
    for (const r of [plain, output, spans, limits, usage, all]) await r.waitForRequests(1);

    const optional = ['finalOutput', 'traceSpans', 'rateLimits', 'usage'];
    const present = (r: FakeUpstream) => optional.filter((k) => k in bodyOf(r).data);
    expect(present(plain)).toEqual([]);
    expect(present(output)).toEqual(['finalOutput']);
    expect(present(spans)).toEqual(['traceSpans']);
    expect(present(limits)).toEqual(['rateLimits']);
    expect(present(usage)).toEqual(['usage']);
    expect(present(all)).toEqual(optional);

    const full = bodyOf(all).data;
    expect(full.finalOutput).toEqual(outcome.result.output);
    expect(full.traceSpans.map((s: { blockId: string }) => s.blockId)).toEqual(
      outcome.result.traceSpans.map((s) => s.blockId),
    );
    const window = { limit: expect.any(Number), remaining: expect.any(Number), resetAt: expect.any(String) };
    expect(full.rateLimits).toEqual({ sync: window, async: window });
    expect(full.usage).toEqual({ currentPeriodCost: expect.any(Number), limit: 10, plan: 'free', isExceeded: false });
    expect(full.usage.currentPeriodCost).toBeGreaterThan(0);

    // One event: every subscription got the same event id and timestamp, each its own delivery id.
    const bodies = [plain, output, spans, limits, usage, all].map((r) => bodyOf(r));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.timestamp)).size).toBe(1);
    const ids = [plain, output, spans, limits, usage, all].map((r) => r.requests[0].headers['service-delivery-id']);
    expect(new Set(ids).size).toBe(6);
  });

  it('honours levelFilter, triggerFilter and active', async () => {
    const ok = await createDeployedWorkflow(t);
    const bad = await createDeployedWorkflow(t, failingState());
    const errorsOnly = await receiver();
    const infoOnly = await receiver();
    const scheduleOnly = await receiver();
    const inactive = await receiver();
    const everything = await receiver();
    for (const wf of [ok, bad]) {
      await subscribe(t, wf.id, { url: errorsOnly.url, levelFilter: ['error'] });
      await subscribe(t, wf.id, { url: infoOnly.url, levelFilter: ['info'] });
      await subscribe(t, wf.id, { url: scheduleOnly.url, triggerFilter: ['schedule'] });
      await subscribe(t, wf.id, { url: inactive.url, active: false });
      await subscribe(t, wf.id, { url: everything.url });
    }
    const failed = await runOnce(t, bad, 'api', {});
    expect(failed.result.success).toBe(false);
    await runOnce(t, ok, 'manual');
    await runOnce(t, ok, 'schedule');

    await everything.waitForRequests(3);
    await errorsOnly.waitForRequests(1);
    await infoOnly.waitForRequests(2);
    await scheduleOnly.waitForRequests(1);
    // Everything else would have been sent by now: the catch-all receiver already has all three.
    await eventually(async () => {
      const pending = await t.app.db.select().from(deliveries).where(eq(deliveries.status, 'pending'));
      return pending.length === 0;
    });
    const summary = (r: FakeUpstream) => r.requests.map((q) => JSON.parse(q.body.toString()).data).map((d) => `${d.trigger}/${d.level}`);
    expect(summary(errorsOnly)).toEqual(['api/error']);
    expect(summary(errorsOnly)[0]).toBe('api/error');
    expect(JSON.parse(errorsOnly.requests[0].body.toString()).data.status).toBe('error');
    expect(summary(infoOnly).sort()).toEqual(['manual/info', 'schedule/info']);
    expect(summary(scheduleOnly)).toEqual(['schedule/info']);
    expect(inactive.requests).toHaveLength(0);
    expect(summary(everything).sort()).toEqual(['api/error', 'manual/info', 'schedule/info']);
  });

  it('writes deliveries in the transaction of the execution: a workflow without subscriptions writes none', async () => {
    const wf = await createDeployedWorkflow(t);
    const outcome = await runOnce(t, wf);
    const rows = await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, outcome.executionId));
    expect(rows).toEqual([]);
  });
});
