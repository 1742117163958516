// GET /metrics after real traffic: runs of every outcome (success, error, cancelled, timeout), an async run queued and
// then taken by a worker, a completion webhook delivered, a rate-limit refusal. The exposition must parse strictly and
// count exactly what happened; no label may carry an id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { failingState, startReceiver, subscribe } from '../completion-webhooks/support.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { parseExposition, type Exposition } from '../support/prometheus.js';
import { echoState } from '../support/states.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { freshRateWindow } from '../support/rate-window.js';

const EXECUTE_ROUTE = '/api/workflows/:workflowId/execute';

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Exposition> {
  const res = await fetch(`${t.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

describe('GET /metrics after traffic', () => {
  let t: TestApp;
  let hanging: FakeUpstream;
  let worker: Worker | undefined;
  beforeAll(async () => {
    t = await startTestApp({
      SLUICE_EXECUTION_TIMEOUT_MS: '3000',
      SLUICE_LIMIT_ASYNC_FREE: '1',
      SLUICE_WORKER_POLL_MS: '50',
    });
    hanging = await startUpstream(() => undefined); // never answers: runs wait on it until stopped
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await hanging?.close();
    await t?.close();
  });

  it('counts requests, runs, blocks, deliveries, refusals and the queue, in a strictly valid exposition', async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      const echo = await createAndDeploy(t, echoState());
      const hooked = await createAndDeploy(t, echoState(), 'Hooked');
      await subscribe(t, hooked, { url: receiver.url });
      const failing = await createAndDeploy(t, failingState());
      const slow = await createAndDeploy(
        t,
        makeState(
          [
            { id: 'start', type: 'api_trigger', name: 'API' },
            { id: 'call', type: 'api', name: 'Call', config: { url: `${hanging.url}/slow`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
          ],
          [['start', 'call']],
        ),
      );
      const execute = (wf: string, headers: Record<string, string> = {}) => t.request('POST', `/api/workflows/${wf}/execute`, { body: { q: 'x' }, headers });

      for (const wf of [echo, echo, hooked]) expect((await execute(wf)).status).toBe(200);
      expect((await execute(failing)).status).toBe(500);
      await freshRateWindow(5_000);
      const queued = await execute(echo, { 'X-Execution-Mode': 'async' });
      expect(queued.status).toBe(202);
      expect((await execute(echo, { 'X-Execution-Mode': 'async' })).status).toBe(429);

      // No worker yet: the async run and the webhook delivery wait in the queue.
      const before = await scrape(t);
      expect(before.value('sluice_jobs', { kind: 'execution.run', state: 'queued' })).toBe(1);
      expect(before.value('sluice_jobs', { kind: 'webhook.deliver', state: 'queued' })).toBe(1);
      expect(before.value('sluice_jobs', { kind: 'schedule.tick', state: 'running' })).toBe(0);
      expect(before.value('sluice_jobs_oldest_queued_age_seconds', { kind: 'execution.run' })).toBeGreaterThanOrEqual(0);

      worker = createAppWorker(t.app);
      await worker.start();
      await eventually(async () => (await t.request('GET', `/api/jobs/${queued.body.taskId}`)).body.status === 'completed', 10_000, 'the async run');
      await eventually(() => receiver.requests.length === 1, 10_000, 'the completion webhook');

      // One run stopped by its time-out, one by a cancel request, both waiting on the upstream meanwhile.
      const timedOut = execute(slow);
      const streamed = await fetch(`${t.url}/api/workflows/${slow}/execute`, {
        method: 'POST',
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ stream: true }),
      });
      await eventually(() => hanging.requests.length === 2, 10_000, 'both slow runs to reach the upstream');
      const executionId = streamed.headers.get('x-execution-id')!;
      const cancelled = await t.request('POST', `/api/v1/executions/${executionId}/cancel`);
      expect([200, 202]).toContain(cancelled.status);
      expect(await streamed.text()).toContain('"cancelled":true');
      expect((await timedOut).status).toBe(408);

      const m = await eventually(async () => {
        const now = await scrape(t);
        return now.value('sluice_webhook_deliveries_total', { outcome: 'success', attempt: '1' }) === 1 ? now : undefined;
      }, 10_000, 'the delivery to be counted');

      // Runs by trigger and outcome, with their durations.
      const runs = (outcome: string) => m.value('sluice_executions_total', { trigger: 'api', outcome });
      expect([runs('success'), runs('error'), runs('cancelled'), runs('timeout')]).toEqual([4, 1, 1, 1]);
      expect(m.value('sluice_execution_duration_seconds_count', { trigger: 'api', outcome: 'timeout' })).toBe(1);
      expect(m.value('sluice_execution_duration_seconds_sum', { trigger: 'api', outcome: 'timeout' })).toBeGreaterThanOrEqual(2.9); // the 3 s limit, less the moment between arming the timer and stamping the start
      // Its buckets count it from the first bound that holds ~3 s, cumulatively up to +Inf.
      const timeoutBucket = (le: string) => m.value('sluice_execution_duration_seconds_bucket', { trigger: 'api', outcome: 'timeout', le });
      expect(['1', '2.5', '5', '10', '+Inf'].map(timeoutBucket)).toEqual([0, 0, 1, 1, 1]);
      // Blocks by type and outcome: every run starts with its trigger; the slow runs' calls were cut off.
      expect(m.value('sluice_block_runs_total', { type: 'api_trigger', outcome: 'success' })).toBe(7);
      expect(m.value('sluice_block_runs_total', { type: 'response', outcome: 'success' })).toBe(4);
      expect(m.value('sluice_block_runs_total', { type: 'function', outcome: 'error' })).toBe(1);
      expect(m.value('sluice_block_runs_total', { type: 'api', outcome: 'error' })).toBe(2);

      // HTTP requests by route template and status.
      const execCalls = (status: string) => m.value('sluice_http_requests_total', { method: 'POST', route: EXECUTE_ROUTE, status });
      expect([execCalls('200'), execCalls('500'), execCalls('202'), execCalls('429'), execCalls('408')]).toEqual([4, 1, 1, 1, 1]);
      expect(m.value('sluice_http_requests_total', { method: 'POST', route: '/api/v1/executions/:executionId/cancel', status: cancelled.status.toString() })).toBe(1);
      expect(m.value('sluice_http_request_duration_seconds_count', { method: 'POST', route: EXECUTE_ROUTE })).toBe(8);
      expect(m.value('sluice_http_request_duration_seconds_bucket', { method: 'POST', route: EXECUTE_ROUTE, le: '+Inf' })).toBe(8);
      expect(m.value('sluice_http_request_duration_seconds_bucket', { method: 'POST', route: EXECUTE_ROUTE, le: '0.005' })).toBeLessThan(8); // the slow runs took seconds
      for (const sample of m.samples) {
        for (const value of Object.values(sample.labels)) expect(value).not.toMatch(/(wf|exec|job|log|dlv)_[A-Za-z0-9]{20}/);
      }

      expect(m.value('sluice_rate_limited_total', { bucket: 'async' })).toBe(1);
      expect(m.value('sluice_jobs', { kind: 'execution.run', state: 'queued' })).toBe(0);
      // Every run's log was committed by the recorder, in batches of at least one.
      expect(m.value('sluice_run_recorder_batch_runs_sum')).toBe(7);
      expect(m.value('sluice_run_recorder_batch_runs_count')).toBeGreaterThanOrEqual(1);
      expect(m.value('sluice_run_recorder_batch_runs_count')).toBeLessThanOrEqual(7);
      expect(m.value('sluice_executions_in_flight')).toBe(0);
      expect(m.value('sluice_database_statements_total')).toBeGreaterThan(before.value('sluice_database_statements_total')!);
      // The failing run's function block ran in the sandbox.
      expect(m.value('sluice_sandbox_threads', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(m.value('sluice_sandbox_queued_runs')).toBe(0);
      if (t.databaseUrl) {
        expect(m.value('sluice_database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
        expect(m.value('sluice_database_pool_connections', { state: 'waiting' })).toBe(0);
      } else {
        expect(m.find('sluice_database_pool_connections')).toEqual([]);
      }
      // The process's own metrics ride along under their usual names.
      expect(m.types.get('process_cpu_user_seconds_total')).toBe('counter');
      expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
      expect(m.value('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      await receiver.close();
    }
  });

  it('the checker used above refuses what Prometheus would refuse', () => {
    const ok = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 2\n';
    expect(parseExposition(ok).value('a_total', { x: '1' })).toBe(2);
    expect(() => parseExposition(ok.replace('a_total{x="1"} 2', 'a_total{x=1} 2'))).toThrow(/unquoted/);
    expect(() => parseExposition(ok.replace('a_total{x="1"} 2', 'b_total 2'))).toThrow(/undeclared/);
    expect(() => parseExposition(`${ok}a_total{x="1"} 3\n`)).toThrow(/duplicate/);
    expect(() => parseExposition(ok.slice(0, -1))).toThrow(/newline/);
    const histogram = '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\nh_sum 1\n';
    expect(() => parseExposition(histogram)).toThrow(/cumulative/);
  });
});

describe('GET /metrics access', () => {
  it('wants the bearer token when SLUICE_METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789';
    const t = await startTestApp({ SLUICE_METRICS_TOKEN: token });
    try {
      const missing = await t.request('GET', '/metrics', { apiKey: null });
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await t.request('GET', '/metrics', { apiKey: null, headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
      // An API key is not the metrics token.
      expect((await t.request('GET', '/metrics')).status).toBe(401);
      const m = await scrape(t, { authorization: `Bearer ${token}` });
      expect(m.value('sluice_http_requests_total', { method: 'GET', route: '/metrics', status: '401' })).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('is not served when SLUICE_METRICS_ENABLED=false', async () => {
    const t = await startTestApp({ SLUICE_METRICS_ENABLED: 'false' });
    try {
      const res = await t.request('GET', '/metrics', { apiKey: null });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await t.close();
    }
  });
});
