// Shared by the webhook and job tests: a clock tests can move, polling with a deadline, deployed workflows, and a
// receiver that checks signatures the way docs/guarantees.md 3.2 tells a receiver to.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { deliveries } from '../../src/db/schema.js';
import { deliveryBodies } from '../../src/services/completion-webhooks/delivery-body.js';
import type { Clock } from '../../src/jobs/types.js';
import type { Worker } from '../../src/jobs/worker.js';
import { runExecution } from '../../src/runs/run-execution.js';
import type { TriggerType, WorkflowState } from '../../src/workflow/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startUpstream, type FakeUpstream, type UpstreamHandler } from '../net/fake-upstream.js';
import { echoState } from '../support/states.js';
import { makeState } from '../support/workflows.js';
import { eventually } from '../support/eventually.js';

export interface TestClock extends Clock {
  advance(ms: number): void;
}

/** Real time plus an offset that only grows: jobs enqueued "now" stay due, and retries can be fast-forwarded. */
export function offsetClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

export { eventually };

/** The fields every completion event's `data` carries, in order (README "Receiving completion webhooks"). */
export const EVENT_DATA_FIELDS = [
  'workflowId',
  'executionId',
  'status',
  'level',
  'trigger',
  'startedAt',
  'endedAt',
  'totalDurationMs',
  'cost',
  'files',
  'deploymentVersion',
  'blockErrorCount',
];

/** `api_trigger → function` that throws: a run that ends with level error. */
export function failingState(): WorkflowState {
  return makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'boom', type: 'function', name: 'Boom', config: { code: "throw new Error('boom')" } },
    ],
    [['start', 'boom']],
  ) as WorkflowState;
}

/** `api_trigger → function` returning the input; no response block, so execute gives the docs/api.md 4.4 JSON. */
export function plainState(): WorkflowState {
  return makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
      { id: 'shout', type: 'function', name: 'Shout', config: { code: 'return String(<api.q>).toUpperCase()' } },
    ],
    [['start', 'shout']],
  ) as WorkflowState;
}

export async function createDeployedWorkflow(t: TestApp, state: unknown = echoState(), apiKey = t.apiKey, workspaceId = t.workspaceId) {
  const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId, name: 'Hooked', state }, apiKey });
  expect(created.status).toBe(201);
  const deployed = await t.request('POST', `/api/v1/workflows/${created.body.data.id}/deploy`, { apiKey });
  expect(deployed.status).toBe(200);
  return { id: created.body.data.id as string, workspaceId, state: state as WorkflowState, version: deployed.body.version as number };
}

/** Runs a deployed workflow through the execution service, as every trigger does. */
export function runOnce(
  t: TestApp,
  workflow: { id: string; workspaceId: string; state: WorkflowState; version: number },
  trigger: TriggerType = 'api',
  input: Record<string, unknown> = { q: 'hello' },
) {
  return runExecution(t.app, {
    workflow: { id: workflow.id, workspaceId: workflow.workspaceId },
    state: workflow.state,
    deploymentVersion: workflow.version,
    trigger,
    input,
  });
}

/** The body a completion webhook of that execution sends: built from its log, as the worker builds it to send it. */
export async function webhookBodyOf(t: TestApp, executionId: string) {
  const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.executionId, executionId));
  expect(delivery, 'a webhook delivery').toBeDefined();
  const [body] = await deliveryBodies({ db: t.app.db, storage: t.app.files.storage }, [delivery]);
  expect(body, 'a body built from the log').not.toBeNull();
  return JSON.parse(body!) as { data: Record<string, any> };
}

export async function subscribe(t: TestApp, workflowId: string, body: Record<string, unknown>) {
  const res = await t.request('POST', `/api/v1/workflows/${workflowId}/webhooks`, { body });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; hasSecret: boolean };
}

const FIVE_MINUTES_MS = 5 * 60_000;

/**
 * Verification exactly as docs/guarantees.md 3.2 tells a receiver: parse `t=<ts>,v1=<hex>`, recompute
 * HMAC-SHA256(secret, "<ts>.<body>"), compare in constant time, reject a Service-timestamp older than 5 minutes.
 * Returns the HTTP status a receiver would answer with.
 */
export function verifyDelivery(
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  secret: string,
  now = Date.now(),
): 200 | 401 {
  const header = headers['service-signature'];
  const timestamp = headers['service-timestamp'];
  if (typeof header !== 'string' || typeof timestamp !== 'string') return 401;
  const parts = header.split(',');
  if (parts.length !== 2) return 401;
  const [tPart, vPart] = parts;
  if (!tPart.startsWith('t=') || !vPart.startsWith('v1=')) return 401;
  const t = tPart.slice(2);
  const provided = Buffer.from(vPart.slice(3), 'hex');
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody.toString('utf8')}`).digest();
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) return 401;
  if (t !== timestamp) return 401;
  if (!/^\d+$/.test(timestamp) || now - Number(timestamp) > FIVE_MINUTES_MS) return 401;
  return 200;
}

/**
 * A loopback receiver that only counts requests meant for it: its URL carries a random path prefix, and anything
 * else (a retry aimed at a closed receiver of another test or process whose port the OS handed to this one) is
 * answered 410 and left out of `requests`.
 */
export async function startReceiver(handler: UpstreamHandler): Promise<FakeUpstream> {
  const token = `/r-${randomBytes(6).toString('hex')}`;
  let mine = 0;
  const upstream = await startUpstream((req, res, recorded) => {
    if (!recorded.url.startsWith(token)) {
      res.writeHead(410).end('not this receiver');
      return;
    }
    handler(req, res, recorded, mine++);
  });
  const requests: FakeUpstream['requests'] = [];
  const own = () => {
    requests.splice(0, requests.length, ...upstream.requests.filter((r) => r.url.startsWith(token)));
    return requests;
  };
  return {
    url: upstream.url + token,
    port: upstream.port,
    get requests() {
      return own();
    },
    waitForRequests: async (n) => {
      await eventually(() => own().length >= n, 15_000, `${n} request(s) at the receiver`);
    },
    close: () => upstream.close(),
  };
}

export interface WorkerApp {
  t: TestApp;
  worker: Worker;
  /** Receivers registered here are closed after each test. */
  track(receiver: FakeUpstream): FakeUpstream;
}

/**
 * The set-up every delivery test shares: a real app, an in-process worker polling fast (on `clock` when given),
 * and receivers closed after each test. Registers the vitest hooks; `ready` hands the started pieces to the file.
 */
export function useWorkerApp(
  ready: (app: Omit<WorkerApp, 'track'>) => void,
  options: { env?: Record<string, string>; clock?: Clock } = {},
): Pick<WorkerApp, 'track'> {
  const receivers: FakeUpstream[] = [];
  let started: Omit<WorkerApp, 'track'> | undefined;
  beforeAll(async () => {
    const t = await startTestApp(options.env);
    const worker = createAppWorker(t.app, { clock: options.clock, pollIntervalMs: 50 });
    await worker.start();
    started = { t, worker };
    ready(started);
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await started?.worker.stop(1000);
    await started?.t.close();
  });
  return {
    track(receiver) {
      receivers.push(receiver);
      return receiver;
    },
  };
}
