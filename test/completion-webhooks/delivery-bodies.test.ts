// A delivery's body is built from the execution's log when it is sent (issue 28: each value stored once): the delivery
// row stores what its subscription asked for, never the run's payload, however many subscriptions hear of the run.
// What a receiver gets is unchanged — the documented payload, signed over the exact bytes, the same bytes on every
// retry and redelivery — and the log's large values (in file storage past SLUICE_INLINE_VALUE_LIMIT) are read back
// for it. Retention keeps a log while a delivery of it is pending (docs/guarantees.md 3.3, 5); a redelivery asked for
// once the log is gone is refused, saying why.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { deliveries, files } from '../../src/db/schema.js';
import { createLogger } from '../../src/logger.js';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';
import { EVENT_DATA_FIELDS, startReceiver, subscribe, useWorkerApp, verifyDelivery } from './support.js';

let t: TestApp;
const fixture = useWorkerApp(
  (ready) => {
    t = ready.t;
  },
  // The smallest inline limit, so the run's big value goes to file storage; a retry soon enough to wait for.
  { env: { SLUICE_INLINE_VALUE_LIMIT: '1024', SLUICE_WEBHOOK_RETRY_SCHEDULE: '2s', SLUICE_LOG_RETENTION_DAYS: '30' } },
);

const DAY_MS = 24 * 3_600_000;
const hooks = (workflowId: string) => `/api/v1/workflows/${workflowId}/webhooks`;

/** `api_trigger → function` whose output repeats the input 200 times: about 2 KB, over the inline limit. */
const state = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
    { id: 'grow', type: 'function', name: 'Grow', config: { code: 'const q = <api.q>; return { q, big: q.repeat(200) }' } },
  ],
  [['start', 'grow']],
);

async function receiver(statuses: number[]) {
  const r = await startReceiver((_req, res, _recorded, index) => {
    res.writeHead(statuses[Math.min(index, statuses.length - 1)]);
    res.end('ok');
  });
  return fixture.track(r);
}

async function execute(workflowId: string, q: string) {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q } });
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return res.body as { executionId: string; output: any };
}

const deliveryRows = (executionId: string) => t.app.db.select().from(deliveries).where(eq(deliveries.executionId, executionId));

describe('delivery bodies built from the log', () => {
  it('stores the payload once, in the log: three subscriptions’ deliveries hold none of it, and each receiver gets it whole and signed', async () => {
    const [full, limits, plain] = await Promise.all([receiver([200]), receiver([200]), receiver([200])]);
    const workflowId = await createAndDeploy(t, state);
    await subscribe(t, workflowId, { url: full.url, secret: 'full-secret', includeFinalOutput: true, includeTraceSpans: true });
    await subscribe(t, workflowId, { url: limits.url, secret: 'limits-secret', includeFinalOutput: true, includeRateLimits: true, includeUsageData: true });
    await subscribe(t, workflowId, { url: plain.url });
    const marker = `MARK-${randomBytes(4).toString('hex')}`;
    const run = await execute(workflowId, marker);
    await Promise.all([full, limits, plain].map((r) => r.waitForRequests(1)));

    // Each row stores what its subscription asked for, a few hundred bytes: not the output, not the trace.
    const rows = await deliveryRows(run.executionId);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const stored = `${row.body ?? ''}${row.envelope ?? ''}`;
      expect(stored).not.toContain(marker);
      expect(stored.length).toBeLessThan(512);
    }
    // The big value is in file storage, not in the log row: the body was built with it fetched back.
    const offloaded = await t.app.db.select().from(files).where(eq(files.executionId, run.executionId));
    expect(offloaded.length).toBeGreaterThan(0);

    const [fullReq, limitsReq, plainReq] = [full, limits, plain].map((r) => r.requests[0]);
    expect(verifyDelivery(fullReq.headers, fullReq.body, 'full-secret')).toBe(200);
    expect(verifyDelivery(limitsReq.headers, limitsReq.body, 'limits-secret')).toBe(200);
    const [a, b, c] = [fullReq, limitsReq, plainReq].map((req) => JSON.parse(req.body.toString('utf8')));
    // One event: the same id and timestamp for every subscription.
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(new Set([a.timestamp, b.timestamp, c.timestamp]).size).toBe(1);
    expect(Object.keys(a.data)).toEqual([...EVENT_DATA_FIELDS, 'finalOutput', 'traceSpans']);
    expect(Object.keys(b.data)).toEqual([...EVENT_DATA_FIELDS, 'finalOutput', 'rateLimits', 'usage']);
    expect(Object.keys(c.data)).toEqual(EVENT_DATA_FIELDS);
    expect(a.data.finalOutput).toEqual({ result: { q: marker, big: marker.repeat(200) }, stdout: '' });
    expect(b.data.finalOutput).toEqual(a.data.finalOutput);
    expect(b.data.rateLimits).toEqual({ sync: expect.any(Object), async: expect.any(Object) });
    expect(b.data.usage).toEqual(expect.objectContaining({ currentPeriodCost: expect.any(Number) }));
    const grow = a.data.traceSpans.find((s: { blockId: string }) => s.blockId === 'grow');
    expect(grow.output).toEqual(a.data.finalOutput);
    // The same trace as the log says.
    const detail = await logDetailOf(t, run.executionId);
    expect(a.data.traceSpans).toEqual(detail.executionData.traceSpans);
    expect(a.links).toEqual({ log: `/v1/logs/${detail.id}`, execution: `/v1/logs/executions/${run.executionId}` });
  });

  it('sends the same bytes on a retry and a redelivery, keeps the log past retention while the delivery is pending, and refuses a redelivery once it is gone', async () => {
    const r = await receiver([500, 200, 200]);
    const workflowId = await createAndDeploy(t, state);
    const sub = await subscribe(t, workflowId, { url: r.url, secret: 'retry-secret', includeFinalOutput: true, includeTraceSpans: true });
    const marker = `MARK-${randomBytes(4).toString('hex')}`;
    const run = await execute(workflowId, marker);
    await r.waitForRequests(1);

    // Housekeeping 40 days on (retention is 30 days): the log stays while its delivery waits for the retry. (Aged by
    // the clock rather than by rewriting the log, which would change the body.)
    const maintain = () =>
      runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays: 30 }, Date.now() + 40 * DAY_MS);
    await maintain();
    expect((await t.request('GET', `/api/v1/logs/executions/${run.executionId}`)).status).toBe(200);

    await r.waitForRequests(2);
    const [first, retry] = r.requests;
    expect(retry.body.equals(first.body)).toBe(true);
    expect(retry.headers['service-delivery-id']).toBe(first.headers['service-delivery-id']);
    for (const req of [first, retry]) expect(verifyDelivery(req.headers, req.body, 'retry-secret')).toBe(200);
    expect(JSON.parse(first.body.toString('utf8')).data.finalOutput.result).toEqual({ q: marker, big: marker.repeat(200) });

    const deliveryId = String(first.headers['service-delivery-id']);
    await expect.poll(async () => (await deliveryRows(run.executionId))[0]?.status).toBe('succeeded');
    const again = await t.request('POST', `${hooks(workflowId)}/deliveries/${deliveryId}/redeliver`);
    expect(again.status, again.text).toBe(202);
    await r.waitForRequests(3);
    const redelivered = r.requests[2];
    expect(redelivered.body.equals(first.body)).toBe(true);
    expect(redelivered.headers['service-delivery-id']).toBe(again.body.data.id);
    expect(verifyDelivery(redelivered.headers, redelivered.body, 'retry-secret')).toBe(200);
    await expect.poll(async () => (await deliveryRows(run.executionId)).every((d) => d.status === 'succeeded')).toBe(true);

    // Nothing pending any more: retention deletes the log. The deliveries stay in the history (as if they had finished
    // 20 days after the run, a redelivery asked for late).
    await t.app.db.update(deliveries).set({ completedAt: new Date(Date.now() + 20 * DAY_MS) }).where(eq(deliveries.executionId, run.executionId));
    await maintain();
    expect((await t.request('GET', `/api/v1/logs/executions/${run.executionId}`)).status).toBe(404);
    const page = await t.request('GET', `${hooks(workflowId)}/${sub.id}/deliveries`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toHaveLength(2);
    for (const d of page.body.data) expect(d).toMatchObject({ executionId: run.executionId, status: 'succeeded', payload: null });
    const refused = await t.request('POST', `${hooks(workflowId)}/deliveries/${deliveryId}/redeliver`);
    expect(refused.status, refused.text).toBe(410);
    expect(refused.body).toEqual({
      code: 'EXECUTION_LOG_GONE',
      error: "Cannot redeliver: the execution's log was deleted (log retention), so this event's body can no longer be built",
    });
  });
});
