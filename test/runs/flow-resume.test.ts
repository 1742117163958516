// Flow control across a pause (docs/workflows.md "Flow control"): a run parked in a long wait holds no slot, and when
// it goes on it takes one again — waiting in the queue while its key is full, never refused — so a key's limit holds
// over paused runs too (a long wait's and an approval's). One process (PGlite, or PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import type { TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';
import { noOverlapPerKey, type RecordingServer } from './flow-support.js';
import { useFlowApp } from './flow-app.js';

const flow = useFlowApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' }, 100);
let t: TestApp;
let server: RecordingServer;
beforeAll(() => {
  ({ t, server } = flow);
});

/** API (customer, tag, waitMs) → wait `<api.waitMs>` → an API block calling the recording server under the customer. */
function waitThenCall(flowControl: Record<string, unknown>) {
  return {
    ...makeState(
      [
        {
          id: 'start',
          type: 'api_trigger',
          name: 'API',
          config: { inputFormat: [{ name: 'customer', type: 'string' }, { name: 'tag', type: 'string' }, { name: 'waitMs', type: 'number' }] },
        },
        { id: 'pause', type: 'wait', name: 'Pause', config: { ms: '<api.waitMs>' } },
        { id: 'call', type: 'api', name: 'Call', config: { url: `${server.url}?key=<api.customer>&tag=<api.tag>`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
      ],
      [
        ['start', 'pause'],
        ['pause', 'call'],
      ],
    ),
    flowControl,
  };
}

const execute = (workflowId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workflows/${workflowId}/execute`, { body, headers });

const pausedRuns = async (): Promise<Array<{ executionId: string }>> =>
  (await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`)).body.data;

/** Whether the run's resume waits in the queue for a slot of its key (the claim passes over it meanwhile). */
async function resumeWaitsForSlot(executionId: string): Promise<boolean> {
  const rows = await rowsOf(
    t.app.db,
    sql`select 1 from jobs where kind = 'execution.resume' and status = 'queued' and flow_key is not null and payload ->> 'executionId' = ${executionId}`,
  );
  return rows.length > 0;
}

describe('a paused run and its slot', { timeout: 90_000 }, () => {
  it('a run resumed from a long wait takes its slot again: it waits while another run of its key is in flight, never overlapping it', async () => {
    const customer = `resume-${randomUUID().slice(0, 8)}`;
    const wf = await createAndDeploy(t, waitThenCall({ concurrency: { limit: 1, key: '<api.customer>' } }), 'Resume takes a slot');
    await flow.startWorker();

    // A parks in its wait (over PARK_AFTER_MS): it holds no slot meanwhile, so B of the same key starts at once.
    const a = await execute(wf, { customer, tag: 'a', waitMs: 5_500 }, { 'X-Execution-Mode': 'async' });
    expect(a.status, a.text).toBe(202);
    const aId = a.body.executionId as string;
    await eventually(async () => (await pausedRuns()).some((run) => run.executionId === aId) || undefined, 20_000, 'A to park');
    const gate = server.hold();
    const b = execute(wf, { customer, tag: 'b', waitMs: 0 });
    await eventually(async () => server.inFlight(customer) === 1 || undefined, 20_000, 'B to call the upstream');

    // A is due while B still runs: its resume waits for the slot (or, without one, calls the upstream next to B).
    await eventually(async () => server.inFlight(customer) > 1 || (await resumeWaitsForSlot(aId)) || undefined, 30_000, 'A to come due');
    expect(server.inFlight(customer)).toBe(1);
    gate.release();
    expect((await b).status).toBe(200);

    // Once B ends, A goes on with the slot B freed, and says on its log that it waited for it.
    await eventually(async () => server.visits.some((v) => v.key === customer && v.tag === 'a') || undefined, 30_000, 'A to resume');
    const detail = await eventually(async () => {
      const log = await logDetailOf(t, aId);
      return log.status === 'success' ? log : undefined;
    }, 20_000, 'A to succeed');
    expect(detail.flowControl).toEqual({ reason: 'concurrency' });
    const visits = server.visits.filter((v) => v.key === customer);
    expect(visits.map((v) => v.tag)).toEqual(['b', 'a']);
    expect(noOverlapPerKey(visits)).toBe(true);
    expect(server.peakPerKey().get(customer)).toBe(1);
  });

  it('a run resumed after an approval takes its slot again: it waits while another resumed run of its key is in flight', async () => {
    const customer = `approve-${randomUUID().slice(0, 8)}`;
    const state = {
      ...makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'customer', type: 'string' }, { name: 'tag', type: 'string' }] } },
          { id: 'gate', type: 'approval', name: 'Gate', config: {} },
          { id: 'call', type: 'api', name: 'Call', config: { url: `${server.url}?key=<api.customer>&tag=<api.tag>`, method: 'GET', retries: 0, timeoutMs: 60_000 } },
        ],
        [
          ['start', 'gate'],
          ['gate', 'call'],
        ],
      ),
      flowControl: { concurrency: { limit: 1, key: '<api.customer>' } },
    };
    const wf = await createAndDeploy(t, state, 'Approval resume takes a slot');
    await flow.startWorker();
    // Both pause at the gate, holding no slot: the second call is not refused.
    const [a, b] = [await execute(wf, { customer, tag: 'a' }), await execute(wf, { customer, tag: 'b' })];
    expect([a.status, b.status]).toEqual([202, 202]);
    const gate = server.hold();
    const approve = (executionId: string) => t.request('POST', `/api/v1/executions/${executionId}/resume`, { body: { approved: true } });
    expect((await approve(b.body.executionId)).status).toBe(202);
    await eventually(async () => server.inFlight(customer) === 1 || undefined, 20_000, 'B to call the upstream');
    expect((await approve(a.body.executionId)).status).toBe(202);
    await eventually(async () => server.inFlight(customer) > 1 || (await resumeWaitsForSlot(a.body.executionId)) || undefined, 20_000, 'A to be resumed');
    expect(server.inFlight(customer)).toBe(1);
    gate.release();
    for (const run of [b, a]) {
      await eventually(async () => ((await logDetailOf(t, run.body.executionId)).status === 'success') || undefined, 30_000, 'the run to succeed');
    }
    const visits = server.visits.filter((v) => v.key === customer);
    expect(visits.map((v) => v.tag)).toEqual(['b', 'a']);
    expect(noOverlapPerKey(visits)).toBe(true);
  });
});
