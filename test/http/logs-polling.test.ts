// Incremental polling (order=asc + startDate + cursor; docs/guarantees.md 2) while runs of different durations keep
// completing out of start order: every completed log is seen exactly once, in order. Also what the visibility horizon
// does with a run in flight and with a run orphaned by a crashed process.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions, runners } from '../../src/db/schema.js';
import { newExecutionId, newId } from '../../src/ids.js';
import { runExecution } from '../../src/runs/run-execution.js';
import { RUNNER_ID } from '../../src/runs/runner-id.js';
import { snapshotKey } from '../../src/services/crypto.js';
import { checkState, createWorkflow } from '../../src/services/workflows.js';
import type { TriggerType, WorkflowState } from '../../src/workflow/index.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
let workflowId = '';
let state: WorkflowState;

/** api_trigger(ms) → wait <api.ms> → function that fails when asked to: durations and levels vary per call. */
const variableState = {
  blocks: {
    start: {
      id: 'start',
      type: 'api_trigger',
      name: 'API',
      position: { x: 0, y: 0 },
      config: { inputFormat: [{ name: 'ms', type: 'number' }, { name: 'fail', type: 'boolean' }] },
    },
    wait: { id: 'wait', type: 'wait', name: 'Wait', position: { x: 150, y: 0 }, config: { ms: '<api.ms>' } },
    fn: {
      id: 'fn',
      type: 'function',
      name: 'Fn',
      position: { x: 300, y: 0 },
      config: { code: 'if (<api.fail>) throw new Error("asked to fail"); return <api.ms>;' },
    },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'wait' },
    { id: 'e2', source: 'wait', target: 'fn' },
  ],
  loops: {},
  parallels: {},
};

const execute = (ms: number, fail = false, trigger: TriggerType = 'api') =>
  runExecution(t.app, {
    workflow: { id: workflowId, workspaceId: t.workspaceId },
    state,
    deploymentVersion: 1,
    trigger,
    input: { ms, fail },
  });

const list = (query: Record<string, string>) =>
  t.request('GET', `/api/v1/logs?${new URLSearchParams({ workspaceId: t.workspaceId, ...query })}`);

const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((l) => l.id);


async function completedRows() {
  const rows = await t.app.db.select(executionRow).from(executions).where(eq(executions.workspaceId, t.workspaceId));
  return rows.filter((r) => r.status !== 'running');
}

beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: '1000000' });
  const wf = await createWorkflow(t.app.db, { workspaceId: t.workspaceId, name: 'Variable', state: variableState });
  workflowId = wf.id;
  state = checkState(wf.state);
});
afterAll(async () => t?.close());

describe('incremental polling with order=asc + startDate + cursor', () => {
  it('sees every completed log exactly once, in order, while slow and fast runs keep finishing out of order', async () => {
    const startDate = new Date(Date.now() - 1).toISOString();
    const durations = [0, 0, 0, 10, 40, 150, 400, 900];
    const total = 72;
    let next = 0;
    let producing = true;
    // Eight concurrent producers, each run a random duration (some fail): later-started runs overtake earlier ones.
    const producer = async () => {
      while (next < total) {
        const i = next++;
        await execute(durations[Math.floor(Math.random() * durations.length)]!, i % 9 === 4);
      }
    };
    const production = Promise.all(Array.from({ length: 8 }, producer)).finally(() => {
      producing = false;
    });

    const seen: Array<{ id: string; startedAt: string }> = [];
    let cursor: string | undefined;
    let polls = 0;
    const poll = async () => {
      const res = await list({ order: 'asc', startDate, limit: '5', ...(cursor ? { cursor } : {}) });
      expect(res.status, res.text).toBe(200);
      polls++;
      seen.push(...res.body.data.map((l: { id: string; startedAt: string }) => ({ id: l.id, startedAt: l.startedAt })));
      // A poller keeps its cursor when a poll brings nothing new (nextCursor null).
      cursor = res.body.nextCursor ?? cursor;
    };
    while (producing) {
      await poll();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await production;
    const done = await completedRows();
    expect(done).toHaveLength(total);
    // Give the poller time to catch up; a missed log would never arrive, so the assertions below say which.
    await eventually(async () => {
      await poll();
      return seen.length >= done.length;
    }, 15_000, 'the poller to catch up').catch(() => undefined);

    // Exactly once: no repeats, nothing missing.
    const ids = seen.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const missed = done.filter((r) => !ids.includes(r.id)).map((r) => `${r.id} (${r.startedAt.toISOString()}, ${r.totalDurationMs} ms)`);
    expect(missed, 'logs the poller never saw').toEqual([]);
    expect(new Set(ids)).toEqual(new Set(done.map((r) => r.id)));
    // In order: the poller's view only ever moved forward in (startedAt, id).
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      // Same-millisecond ties are ordered by id in the database's collation; the start times never go back.
      expect(a.startedAt <= b.startedAt, `${a.startedAt} then ${b.startedAt}`).toBe(true);
    }
    // The scenario really was adversarial: some run started before another yet finished after it.
    const overtaken = done.filter((a) => done.some((b) => b.startedAt > a.startedAt && b.endedAt! < a.endedAt!));
    expect(overtaken.length).toBeGreaterThan(0);
    expect(done.some((r) => r.level === 'error')).toBe(true);
    expect(polls).toBeGreaterThan(10);
  });
});

describe('the visibility horizon', () => {
  it('hides, from ascending reads only, logs that started after a run still in flight, until it completes', async () => {
    const from = new Date(Date.now() - 1).toISOString();
    const slow = execute(3000);
    await eventually(async () => (await t.app.db.select(executionRow).from(executions).where(eq(executions.status, 'running'))).length === 1, 15_000, 'the slow run to start');
    const [running] = await t.app.db.select(executionRow).from(executions).where(eq(executions.status, 'running'));
    // Started after the slow run, through another trigger (a manual run starts at the API trigger).
    const fast = [await execute(0, false, 'manual'), await execute(0, false, 'manual')];
    const fastIds = fast.map((f) => f.logId);

    // Not a log yet: invisible everywhere.
    expect((await t.request('GET', `/api/v1/logs/${running!.id}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/logs/executions/${running!.executionId}`)).status).toBe(404);
    // desc shows the completed fast runs at once.
    expect(idsOf((await list({ startDate: from })).body)).toEqual([...fastIds].reverse());
    // An ascending read that could never return the slow run (triggers=manual) is not held back by it …
    await eventually(async () => idsOf((await list({ startDate: from, order: 'asc', triggers: 'manual' })).body).length === 2, 15_000, 'manual runs');
    // … while one that could is: nothing past the run in flight, and no cursor to move past it.
    const held = await list({ startDate: from, order: 'asc' });
    expect(held.body.data).toEqual([]);
    expect(held.body.nextCursor).toBeNull();
    const inFlight = await t.app.db.select(executionRow).from(executions).where(eq(executions.status, 'running'));
    expect(inFlight).toHaveLength(1);
    // While it runs its row names this process (the crash sweep's clue, runs/runners.ts); once ended, no process.
    expect(inFlight[0].runnerId).toBe(RUNNER_ID);

    const outcome = await slow;
    await eventually(async () => idsOf((await list({ startDate: from, order: 'asc' })).body).length === 3, 15_000, 'ascending visibility');
    const [ended] = await t.app.db.select(executionRow).from(executions).where(eq(executions.id, outcome.logId));
    expect(ended).toMatchObject({ status: 'success', runnerId: null });
    expect(idsOf((await list({ startDate: from, order: 'asc' })).body)).toEqual([outcome.logId, ...fastIds]);
  });

  it('ignores a running row orphaned by a crashed process once it is older than the time-out + 60 s', async () => {
    const from = new Date(Date.now() - 1).toISOString();
    // The key this workflow's runs (runExecution, no stateHash given) stored its state under.
    const snapshotHash = snapshotKey(undefined, state);
    const orphan = (ageMs: number) => ({
      id: newId('log'),
      executionId: newExecutionId(),
      workspaceId: t.workspaceId,
      workflowId,
      snapshotHash,
      trigger: 'api',
      status: 'running',
      startedAt: new Date(Date.now() - ageMs),
      runnerId: 'crashed-host:1',
    });
    // Older than executionTimeoutMs (300 s by default) + 60 s: nothing will ever complete it.
    const stale = orphan(6 * 60_000 + 5_000);
    await t.app.db.insert(executions).values(stale);
    const after = await execute(0);
    await eventually(async () => idsOf((await list({ startDate: from, order: 'asc' })).body).includes(after.logId), 15_000, 'polling past the stale orphan');

    // A younger running row could be a live run on another process: it holds the horizon. That process beats its
    // heartbeat, so the crash sweep (runs/runners.ts) leaves its row alone meanwhile.
    const young = { ...orphan(1_000), runnerId: 'other-host:2' };
    await t.app.db.insert(runners).values({ id: young.runnerId, startedAt: new Date(), heartbeatAt: new Date() });
    await t.app.db.insert(executions).values(young);
    const behind = await execute(0);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // past the settle margin, so only the orphan holds it back
    expect(idsOf((await list({ startDate: from, order: 'asc' })).body)).not.toContain(behind.logId);
    expect(idsOf((await list({ startDate: from })).body)).toContain(behind.logId);
    await t.app.db.delete(executions).where(eq(executions.id, young.id));
    await t.app.db.delete(runners).where(eq(runners.id, young.runnerId));
    await t.app.db.delete(executions).where(eq(executions.id, stale.id));
    expect(idsOf((await list({ startDate: from, order: 'asc' })).body)).toContain(behind.logId);
  });
});
