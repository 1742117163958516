// The retry schedule of docs/guarantees.md 3.4, run on a clock the test moves: 5 s, 15 s, 1 min, 3 min (+ up to
// 10% jitter) between at most 5 attempts; 5xx, 429 (longer Retry-After honoured, capped at 10 min), time-outs and
// connection failures are retried; 4xx and 3xx are not; redirects are never followed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, webhookSubscriptions } from '../../src/db/schema.js';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { unusedPort, type FakeUpstream } from '../net/fake-upstream.js';
import { createDeployedWorkflow, eventually, offsetClock, runOnce, startReceiver, subscribe, useWorkerApp, verifyDelivery, type TestClock } from './support.js';

const SCHEDULE = [5_000, 15_000, 60_000, 180_000, 600_000];
/** Rounding and the few statements between the end of an attempt and scheduling the next one. */
const SLACK_MS = 50;
/** Seen from the receiver, a gap also holds the attempt's own duration and the claim; generous for a busy machine. */
const RECEIVER_SLACK_MS = 3_000;

/** The wait the worker scheduled after an attempt: from the attempt's end to the next attempt's due time. */
const scheduledDelay = (nextAttemptAt: Date, attempt: { startedAt: Date; durationMs: number }) =>
  nextAttemptAt.getTime() - attempt.startedAt.getTime() - attempt.durationMs;

let t: TestApp;
let clock: TestClock;
let worker: Worker;

type Script = (req: IncomingMessage, res: ServerResponse, index: number) => void;
async function receiver(script: Script) {
  const r = await startReceiver((req, res, _recorded, index) => script(req, res, index));
  return fixture.track(r);
}
const answer = (status: number, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, headers);
  res.end(`answer ${status}`);
};

// Short enough to wait out, long enough that a loaded machine still answers in time.
const fixture = useWorkerApp(
  (ready) => {
    t = ready.t;
    worker = ready.worker;
  },
  { env: { SLUICE_WEBHOOK_TIMEOUT_MS: '2000' }, clock: (clock = offsetClock()) },
);

async function deliveryOf(subscriptionId: string) {
  const rows = await t.app.db.select().from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId));
  return rows[0];
}
async function attemptsOf(deliveryId: string) {
  return t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, deliveryId)).orderBy(asc(deliveryAttempts.attempt));
}
/** Waits until the delivery has `n` recorded attempts (and its outcome is written). */
async function afterAttempt(subscriptionId: string, n: number) {
  return eventually(async () => {
    const row = await deliveryOf(subscriptionId);
    return row && row.attempts >= n && row;
  }, 10_000, `attempt ${n}`);
}
/** Moves the clock to the delivery's next attempt and wakes the worker. */
function fastForwardTo(nextAttemptAt: Date) {
  clock.advance(Math.max(0, nextAttemptAt.getTime() - clock.now()) + 1);
  worker.wake();
}

async function hookedWorkflow(url: string, extra: Record<string, unknown> = {}) {
  const wf = await createDeployedWorkflow(t);
  const sub = await subscribe(t, wf.id, { url, ...extra });
  return { wf, sub };
}

describe('delivery retries', () => {
  it('retries a 5xx on the schedule with ≤10% jitter, re-signing each attempt, and stops after 5 attempts', async () => {
    const secret = 'whsec_retry_secret';
    const r = await receiver(answer(500));
    const { wf, sub } = await hookedWorkflow(r.url, { secret });
    await runOnce(t, wf);

    for (let n = 1; n <= 4; n++) {
      const row = await afterAttempt(sub.id, n);
      expect(row.status).toBe('pending');
      expect(row.lastStatusCode).toBe(500);
      const [attempt] = (await attemptsOf(row.id)).slice(-1);
      const delay = scheduledDelay(row.nextAttemptAt!, attempt);
      expect(delay, `delay after attempt ${n}`).toBeGreaterThanOrEqual(SCHEDULE[n - 1] - SLACK_MS);
      expect(delay, `delay after attempt ${n}`).toBeLessThanOrEqual(SCHEDULE[n - 1] * 1.1 + SLACK_MS);
      fastForwardTo(row.nextAttemptAt!);
    }
    const last = await eventually(async () => {
      const row = await deliveryOf(sub.id);
      return row.status === 'failed' && row;
    });
    expect(last.attempts).toBe(5);
    expect(last.nextAttemptAt).toBeNull();
    expect(last.lastError).toMatch(/^HTTP 500/);

    // Nothing more, however far the clock moves.
    clock.advance(SCHEDULE[4] * 2);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(5);

    const stamps = r.requests.map((q) => Number(q.headers['service-timestamp']));
    for (let i = 1; i < 5; i++) {
      const gap = stamps[i] - stamps[i - 1];
      expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i - 1]);
      expect(gap).toBeLessThanOrEqual(SCHEDULE[i - 1] * 1.1 + RECEIVER_SLACK_MS);
    }
    // Same delivery id and body on every attempt; a fresh timestamp and a signature valid for it.
    expect(new Set(r.requests.map((q) => q.headers['service-delivery-id'])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.body.toString())).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers['service-signature'])).size).toBe(5);
    for (const q of r.requests) expect(verifyDelivery(q.headers, q.body, secret, Number(q.headers['service-timestamp']))).toBe(200);

    const attempts = await attemptsOf(last.id);
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 500]));
  });

  it('succeeds on the first 2xx after failures (any 2xx counts)', async () => {
    const r = await receiver((_req, res, index) => answer(index === 0 ? 503 : 204)(_req, res));
    const { wf, sub } = await hookedWorkflow(r.url);
    await runOnce(t, wf);
    const first = await afterAttempt(sub.id, 1);
    fastForwardTo(first.nextAttemptAt!);
    const done = await eventually(async () => {
      const row = await deliveryOf(sub.id);
      return row.status === 'succeeded' && row;
    });
    expect(done.attempts).toBe(2);
    expect(done.lastStatusCode).toBe(204);
    expect(done.completedAt).not.toBeNull();
  });

  it('honours a longer Retry-After on 429, caps it at 10 minutes, and ignores a shorter one', async () => {
    for (const [retryAfter, expected] of [
      ['120', 120_000],
      ['3600', 600_000],
      ['1', SCHEDULE[0]],
    ] as const) {
      const r = await receiver(answer(429, { 'Retry-After': retryAfter }));
      const { wf, sub } = await hookedWorkflow(r.url);
      await runOnce(t, wf);
      const row = await afterAttempt(sub.id, 1);
      expect(row.status).toBe('pending');
      expect(row.lastStatusCode).toBe(429);
      const [attempt] = await attemptsOf(row.id);
      const delay = scheduledDelay(row.nextAttemptAt!, attempt);
      expect(delay, `Retry-After ${retryAfter}`).toBeGreaterThanOrEqual(expected - SLACK_MS);
      const maxJitter = expected === SCHEDULE[0] ? expected * 0.1 : 0;
      expect(delay, `Retry-After ${retryAfter}`).toBeLessThanOrEqual(expected + maxJitter + SLACK_MS);
      // Deleting the subscription drops its pending delivery, so this series ends here.
      await t.app.db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id));
    }
  });

  it('does not retry 4xx or 3xx, and never follows a redirect', async () => {
    const elsewhere = await receiver(answer(200));
    for (const [status, headers] of [
      [400, {}],
      [401, {}],
      [404, {}],
      [410, {}],
      [302, { Location: `${elsewhere.url}/moved` }],
      [301, { Location: `${elsewhere.url}/moved` }],
      [307, { Location: `${elsewhere.url}/moved` }],
    ] as Array<[number, Record<string, string>]>) {
      const r = await receiver(answer(status, headers));
      const { wf, sub } = await hookedWorkflow(r.url);
      await runOnce(t, wf);
      const row = await eventually(async () => {
        const d = await deliveryOf(sub.id);
        return d?.status === 'failed' && d;
      }, 10_000, `failure on ${status}`);
      expect(row.attempts, String(status)).toBe(1);
      expect(row.lastStatusCode).toBe(status);
      expect(row.lastError).toMatch(new RegExp(`^HTTP ${status}`));
      clock.advance(SCHEDULE[0] * 2);
      worker.wake();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(r.requests, String(status)).toHaveLength(1);
    }
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('retries a time-out and a failed connection; each attempt uses the subscription URL as it is now', async () => {
    const hang = await receiver(() => {
      // never answers: the 2 s delivery time-out (configured for this test) fires
    });
    const { wf, sub } = await hookedWorkflow(hang.url);
    await runOnce(t, wf);
    const timedOut = await afterAttempt(sub.id, 1);
    expect(timedOut.status).toBe('pending');
    expect(timedOut.lastStatusCode).toBeNull();
    expect(timedOut.lastError).toMatch(/timed out after 2000 ms/);

    // The receiver moves; the next attempt finds nobody listening at the new address.
    const dead = `http://127.0.0.1:${await unusedPort()}/hook`;
    expect((await t.request('PATCH', `/api/v1/workflows/${wf.id}/webhooks/${sub.id}`, { body: { url: dead } })).status).toBe(200);
    fastForwardTo(timedOut.nextAttemptAt!);
    const refused = await afterAttempt(sub.id, 2);
    expect(refused.status).toBe('pending');
    expect(refused.lastError).toMatch(/^Connection failed/);
    const delay = scheduledDelay(refused.nextAttemptAt!, (await attemptsOf(refused.id))[1]);
    expect(delay).toBeGreaterThanOrEqual(SCHEDULE[1] - SLACK_MS);

    // A connection reset counts the same way.
    const reset = await receiver((req) => req.socket.destroy());
    await t.request('PATCH', `/api/v1/workflows/${wf.id}/webhooks/${sub.id}`, { body: { url: reset.url } });
    fastForwardTo(refused.nextAttemptAt!);
    const wasReset = await afterAttempt(sub.id, 3);
    expect(wasReset.status).toBe('pending');
    expect(wasReset.lastError).toMatch(/^Connection failed/);

    const healthy = await receiver(answer(200));
    await t.request('PATCH', `/api/v1/workflows/${wf.id}/webhooks/${sub.id}`, { body: { url: healthy.url } });
    fastForwardTo(wasReset.nextAttemptAt!);
    await healthy.waitForRequests(1);
    const done = await eventually(async () => {
      const row = await deliveryOf(sub.id);
      return row.status === 'succeeded' && row;
    });
    expect(done.attempts).toBe(4);
    expect(new Set([hang, reset, healthy].flatMap((x) => x.requests.map((q) => q.headers['service-delivery-id']))).size).toBe(1);
  });

  it('records an answer holding a NUL byte (as U+FFFD) and retries it on the schedule, not after the job lease', async () => {
    const r = await receiver((req, res, index) => {
      if (index > 0) return answer(204)(req, res);
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(Buffer.from('bad\u0000answer'));
    });
    const { wf, sub } = await hookedWorkflow(r.url);
    await runOnce(t, wf);

    // Before, recording this attempt failed: the delivery stayed pending with no attempt until its 60 s lease ran out.
    const row = await afterAttempt(sub.id, 1);
    expect(row.status).toBe('pending');
    expect(row.lastStatusCode).toBe(500);
    expect(row.lastError).toBe('HTTP 500 Internal Server Error: bad\uFFFDanswer');
    const [attempt] = await attemptsOf(row.id);
    const delay = scheduledDelay(row.nextAttemptAt!, attempt);
    expect(delay).toBeGreaterThanOrEqual(SCHEDULE[0] - SLACK_MS);
    expect(delay).toBeLessThanOrEqual(SCHEDULE[0] * 1.1 + SLACK_MS);

    const history = await t.request('GET', `/api/v1/workflows/${wf.id}/webhooks/${sub.id}/deliveries`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data[0].attempts).toEqual([
      { attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), statusCode: 500, error: 'HTTP 500 Internal Server Error: bad\uFFFDanswer' },
    ]);

    fastForwardTo(row.nextAttemptAt!);
    const done = await eventually(async () => {
      const d = await deliveryOf(sub.id);
      return d.status === 'succeeded' && d;
    });
    expect(done.attempts).toBe(2);
    expect((await attemptsOf(done.id)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 500], [2, 204]]);
    expect(r.requests).toHaveLength(2);
  });

  it('stops retrying once the subscription is disabled', async () => {
    const r = await receiver(answer(500));
    const { wf, sub } = await hookedWorkflow(r.url);
    await runOnce(t, wf);
    const first = await afterAttempt(sub.id, 1);
    await t.request('PATCH', `/api/v1/workflows/${wf.id}/webhooks/${sub.id}`, { body: { active: false } });
    fastForwardTo(first.nextAttemptAt!);
    const row = await eventually(async () => {
      const d = await deliveryOf(sub.id);
      return d.status === 'failed' && d;
    });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/disabled/);
    expect(r.requests).toHaveLength(1);
  });
});

describe('private-network guard at delivery time', () => {
  it('refuses a target that is not allowed (checked at every attempt), without retrying', async () => {
    const guarded = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
    const guardedWorker = createAppWorker(guarded.app, { pollIntervalMs: 50 });
    await guardedWorker.start();
    try {
      const r = await receiver(answer(200));
      const wf = await createDeployedWorkflow(guarded);
      // Saved before the guard existed (or the address changed since): the delivery itself must refuse it.
      await guarded.app.db.insert(webhookSubscriptions).values({
        id: 'sub_private_target',
        workflowId: wf.id,
        workspaceId: wf.workspaceId,
        url: `${r.url}/hook`,
        levelFilter: ['info', 'error'],
        triggerFilter: ['api', 'webhook', 'schedule', 'manual', 'chat'],
      });
      await runOnce(guarded, wf);
      const row = await eventually(async () => {
        const [d] = await guarded.app.db.select().from(deliveries).where(eq(deliveries.subscriptionId, 'sub_private_target'));
        return d?.status === 'failed' && d;
      });
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/Refused to connect to 127\.0\.0\.1/);
      expect(r.requests).toHaveLength(0);
    } finally {
      await guardedWorker.stop(1000);
      await guarded.close();
    }
  });
});
