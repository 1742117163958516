// GET /api/v1/workflows/{id}/queued-runs (docs/api.md "Queued runs"): a workflow's queued async runs in the order a
// worker claims them, each with its place, why it waits and its key; read by any member, 404 to other workspaces.
// No worker runs unless a test starts one, so async runs stay queued.
import { beforeAll, describe, expect, it } from 'vitest';
import { workspaceMembers } from '../../src/db/schema.js';
import { responseSchemas } from '../../src/http/response-schemas.js';
import { claimDueJobs, claimJobs } from '../../src/jobs/claim.js';
import { EXECUTION_JOB } from '../../src/runs/index.js';
import { generateApiKey, storeApiKey } from '../../src/services/api-keys.js';
import { createWorkspace, findOrCreateUser } from '../../src/services/workspaces.js';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf } from '../support/workflows.js';
import { flowState, type RecordingServer } from '../runs/flow-support.js';
import { useFlowApp } from '../runs/flow-app.js';

const flow = useFlowApp({}, 150);
const { startWorker } = flow;
// The names the tests use, set once the app is up.
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

/** A user with a key: a member of the test workspace with `role`, or (no role) the owner of a workspace of their own. */
async function userWithKey(email: string, role?: string) {
  const user = await findOrCreateUser(t.app.db, email, 'free');
  if (role) await t.app.db.insert(workspaceMembers).values({ workspaceId: t.workspaceId, userId: user.id, role });
  else await createWorkspace(t.app.db, user.id, `${email}'s`);
  const key = generateApiKey();
  await storeApiKey(t.app.db, { key, userId: user.id, workspaceId: null, name: 'test' });
  return key;
}

const queue = async (workflowId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers: { 'X-Execution-Mode': 'async', ...headers } });
  expect(res.status, res.text).toBe(202);
  return res.body.executionId as string;
};
const queued = (workflowId: string, query = '', apiKey?: string | null) =>
  t.request('GET', `/api/v1/workflows/${workflowId}/queued-runs${query}`, apiKey === undefined ? {} : { apiKey });

describe('queued runs of a workflow', { timeout: 60_000 }, () => {
  // First, while the queue holds nothing else: the claim below takes the oldest queued run.
  it('says a run whose worker died goes again (retry)', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, undefined), 'Crashed worker');
    const run = await queue(wf, { customer: 'r', tag: '1' });
    // A worker takes it and dies: its lease runs out and the next claim's sweep puts the job back in the queue.
    const [taken] = await claimDueJobs(t.app.db, { workerId: 'gone', kind: EXECUTION_JOB, limit: 1, now: Date.now(), leaseMs: 1 });
    expect((taken?.payload as { executionId?: string } | undefined)?.executionId).toBe(run);
    expect((await queued(wf)).body).toEqual({ data: [], total: 0 });
    const swept = await claimJobs(t.app.db, { workerId: 'next', kinds: [], now: Date.now() + 60_000, leaseMs: 30_000, sweepLeases: true });
    expect(swept.requeued).toBe(1);
    expect((await queued(wf)).body.data).toEqual([expect.objectContaining({ executionId: run, place: 1, reason: 'retry' })]);
    const cancel = await t.request('POST', `/api/v1/executions/${run}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
  });

  it('lists them in claim order with their place, why each waits and its key; a cancelled one leaves the list', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1, key: '<api.customer>' } }), 'Queued');
    const a1 = await queue(wf, { customer: 'a', tag: '1' });
    const a2 = await queue(wf, { customer: 'a', tag: '2' });
    const b1 = await queue(wf, { customer: 'b', tag: '3' });
    const urgent = await queue(wf, { customer: 'a', tag: '4' }, { 'X-Execution-Priority': '10' });

    const res = await queued(wf);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(4);
    expect(responseSchemas.QueuedRunList.safeParse(res.body).error?.issues ?? []).toEqual([]);
    // The higher priority run goes first and takes key a's one slot; a's others wait for it, b's run only for a worker.
    expect(res.body.data.map((r: Record<string, unknown>) => [r.place, r.executionId, r.reason, r.key, r.priority])).toEqual([
      [1, urgent, 'due', 'a', 10],
      [2, a1, 'concurrency', 'a', 0],
      [3, a2, 'concurrency', 'a', 0],
      [4, b1, 'due', 'b', 0],
    ]);
    for (const run of res.body.data) {
      expect(Date.parse(run.queuedAt)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(run.dueAt)).toBeGreaterThanOrEqual(Date.parse(run.queuedAt));
    }

    // A page of the first two, with the whole count.
    const page = await queued(wf, '?limit=2');
    expect(page.body.data.map((r: { executionId: string }) => r.executionId)).toEqual([urgent, a1]);
    expect(page.body.total).toBe(4);

    // Cancelling the first: its log says cancelled, and the next of key a moves up and is due.
    const cancel = await t.request('POST', `/api/v1/executions/${urgent}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    expect((await logDetailOf(t, urgent)).status).toBe('cancelled');
    const after = await queued(wf);
    expect(after.body.total).toBe(3);
    expect(after.body.data.map((r: Record<string, unknown>) => [r.place, r.executionId, r.reason])).toEqual([
      [1, a1, 'due'],
      [2, a2, 'concurrency'],
      [3, b1, 'due'],
    ]);
  });

  it('counts a slot in use: with its run in flight, the key\'s queued run waits for it', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1 } }), 'In flight');
    const gate = server.hold();
    try {
      await startWorker();
      const first = await queue(wf, { customer: 'f', tag: '1' });
      await eventually(async () => server.inFlight('f') === 1, 10_000, 'the first run to be in flight');
      const second = await queue(wf, { customer: 'f', tag: '2' });
      const res = await queued(wf);
      // The workflow's one key has no value: no `key`.
      expect(res.body).toEqual({
        data: [{ executionId: second, queuedAt: expect.any(String), dueAt: expect.any(String), priority: 0, place: 1, reason: 'concurrency' }],
        total: 1,
      });
      expect(res.body.data.some((r: { executionId: string }) => r.executionId === first)).toBe(false);
    } finally {
      gate.release();
    }
    await eventually(async () => (await queued(wf)).body.total === 0, 20_000, 'the second run to start');
  });

  it('says when a run is debounced or throttled, and until when', async () => {
    const debounced = await createAndDeploy(t, flowState(server.url, { debounce: { periodMs: 600_000, key: '<api.customer>' } }), 'Debounced');
    const burst = await queue(debounced, { customer: 'd', tag: '1' });
    expect(await queue(debounced, { customer: 'd', tag: '2' })).toBe(burst);
    const listed = await queued(debounced);
    expect(listed.body.data).toEqual([expect.objectContaining({ executionId: burst, place: 1, reason: 'debounced', key: 'd' })]);
    expect(Date.parse(listed.body.data[0].dueAt)).toBeGreaterThan(Date.now() + 500_000);

    // A throttle of one start an hour: a worker starts the first run and hands the second back, due in an hour.
    const throttled = await createAndDeploy(t, flowState(server.url, { throttle: { limit: 1, periodMs: 3_600_000, key: '<api.customer>' } }), 'Throttled');
    await startWorker();
    const both = [await queue(throttled, { customer: 't', tag: '1' }), await queue(throttled, { customer: 't', tag: '2' })];
    // One worker claim may take both: whichever takes the hour's start runs, the other is handed back.
    const waiting = await eventually(async () => {
      const res = await queued(throttled);
      return res.body.data[0]?.reason === 'throttled' && res.body;
    }, 20_000, 'one of the runs to be throttled');
    expect(both).toContain(waiting.data[0].executionId);
    await eventually(async () => server.visits.filter((visit) => visit.key === 't').length === 1, 20_000, 'the other run to call the upstream');
    expect(waiting).toEqual({
      data: [{ executionId: waiting.data[0].executionId, queuedAt: expect.any(String), dueAt: expect.any(String), priority: 0, place: 1, reason: 'throttled', key: 't' }],
      total: 1,
    });
    expect(Date.parse(waiting.data[0].dueAt)).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('is read by any member of the workspace, 404 to another workspace, and refuses a bad limit', async () => {
    const wf = await createAndDeploy(t, flowState(server.url, { concurrency: { limit: 1 } }), 'Who reads');
    const run = await queue(wf, { customer: 'v', tag: '1' });
    const viewer = await userWithKey('queue-viewer@example.com', 'viewer');
    const asViewer = await queued(wf, '', viewer);
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.data.map((r: { executionId: string }) => r.executionId)).toEqual([run]);

    const stranger = await userWithKey('queue-stranger@example.com');
    const asStranger = await queued(wf, '', stranger);
    expect(asStranger.status).toBe(404);
    expect(asStranger.body.code).toBe('NOT_FOUND');
    expect(asStranger.text).not.toContain(run);

    expect((await queued(wf, '', null)).status).toBe(401);
    for (const bad of ['?limit=0', '?limit=101', '?limit=x']) {
      const res = await queued(wf, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    // A workflow with nothing queued.
    const idle = await createAndDeploy(t, flowState(server.url, undefined), 'Idle');
    expect((await queued(idle)).body).toEqual({ data: [], total: 0 });
  });
});
