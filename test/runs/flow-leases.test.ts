// The flow control lease's edges (runs/flow-leases.ts; docs/workflows.md "Flow control"), on PGlite or PostgreSQL
// with TEST_DATABASE_URL: what keeps a key's limit whole when slots move between memory and `flow_slots` — a run
// that ends while its slot is being written out, another process's slot row, a holder that is gone. The limits
// through the execute endpoint, on one process and across two, are in flow-control.test.ts and
// flow-control-processes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/rows.js';
import { flowLeasesOf } from '../../src/runs/flow-leases.js';
import { closeOrphanedRuns } from '../../src/runs/runners.js';
import { freeSlot, takeSlot, type RunFlow } from '../../src/runs/flow-slots.js';
import type { ChangeHub } from '../../src/db/change-feed.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { createAndDeploy } from '../support/workflows.js';
import { flowState } from './flow-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const flowOf = (workflowId: string, key: string, limit = 1): RunFlow => ({
  workflowId,
  flowKey: `${workflowId}:${key}`,
  limit,
  mode: 'queue',
  maxWaitMs: 0,
  reason: 'concurrency',
});

async function slotRows(workflowId: string): Promise<string[]> {
  const rows = await rowsOf<{ execution_id: string }>(t.app.db, sql`select execution_id from flow_slots where workflow_id = ${workflowId} order by execution_id`);
  return rows.map((row) => row.execution_id);
}

async function leaseHolder(workflowId: string): Promise<string | null> {
  const [row] = await rowsOf<{ holder: string | null }>(t.app.db, sql`select flow_lease_holder as holder from workflows where id = ${workflowId}`);
  return row?.holder ?? null;
}

const newWorkflow = (name: string) => createAndDeploy(t, flowState('http://127.0.0.1:9/hit', { concurrency: { limit: 1, key: '<api.customer>' } }), name);

describe('flow control leases', () => {
  it('a call’s slot is kept in memory under the lease; a hand-over writes the runs still in flight and not one that ended meanwhile', async () => {
    const wf = await newWorkflow('Hand-over');
    const leases = flowLeasesOf(t.app.db);
    expect(await takeSlot(t.app.db, flowOf(wf, 'a'), 'ex-a', { forCall: true })).toBe(true);
    expect(await takeSlot(t.app.db, flowOf(wf, 'b'), 'ex-b', { forCall: true })).toBe(true);
    expect(await leaseHolder(wf)).toBe(leases.holder);
    expect(await slotRows(wf)).toEqual([]);
    // The key is full in memory as it would be in rows.
    expect(await takeSlot(t.app.db, flowOf(wf, 'a'), 'ex-a2', { forCall: true })).toBe(false);

    // Something else needs the slots (an async run of the workflow): the hand-over is under way when ex-b's run ends.
    const handOver = leases.share(wf);
    await freeSlot(t.app.db, 'ex-b');
    await handOver;
    expect(await slotRows(wf)).toEqual(['ex-a']);
    expect(await leaseHolder(wf)).toBeNull();
    // The shared way counts the written slot: key a is full, key b free.
    expect(await takeSlot(t.app.db, flowOf(wf, 'a'), 'ex-a3')).toBe(false);
    expect(await takeSlot(t.app.db, flowOf(wf, 'b'), 'ex-b2')).toBe(true);
    await freeSlot(t.app.db, 'ex-a');
    await freeSlot(t.app.db, 'ex-b2');
    expect(await slotRows(wf)).toEqual([]);
  });

  it('no lease while another process’s run holds a slot of the workflow: the call takes its slot as a row', async () => {
    const wf = await newWorkflow('Foreign slot');
    await t.app.db.execute(sql`insert into flow_slots (flow_key, slot, workflow_id, execution_id, runner_id)
      values (${`${wf}:x`}, 0, ${wf}, 'ex-elsewhere', 'another-host:1:abc')`);
    expect(await takeSlot(t.app.db, flowOf(wf, 'x'), 'ex-x', { forCall: true })).toBe(false);
    expect(await takeSlot(t.app.db, flowOf(wf, 'y'), 'ex-y', { forCall: true })).toBe(true);
    expect(await leaseHolder(wf)).toBeNull();
    expect(await slotRows(wf)).toEqual(['ex-elsewhere', 'ex-y']);
    await freeSlot(t.app.db, 'ex-y');
    await t.app.db.execute(sql`delete from flow_slots where execution_id = 'ex-elsewhere'`);
  });

  it('while the change feed is down (a hand-over request could go unheard), held leases are handed over and none is taken', async () => {
    const held = await newWorkflow('Feed down, held');
    const fresh = await newWorkflow('Feed down, fresh');
    expect(await takeSlot(t.app.db, flowOf(held, 'f'), 'ex-f', { forCall: true })).toBe(true);
    expect(await leaseHolder(held)).not.toBeNull();
    const feed = t.app.database.changes as ChangeHub;
    feed.setLive(false);
    try {
      await eventually(async () => (await leaseHolder(held)) === null, 10_000, 'the lease to be handed over');
      expect(await slotRows(held)).toEqual(['ex-f']);
      expect(await takeSlot(t.app.db, flowOf(fresh, 'g'), 'ex-g', { forCall: true })).toBe(true);
      expect(await leaseHolder(fresh)).toBeNull();
      expect(await slotRows(fresh)).toEqual(['ex-g']);
    } finally {
      feed.setLive(true);
    }
    await freeSlot(t.app.db, 'ex-f');
    await freeSlot(t.app.db, 'ex-g');
  });

  it('a lease whose process is gone is cleared by the crash recovery, and broken by a call that needs the slots', async () => {
    const recovered = await newWorkflow('Gone holder, recovery');
    const asked = await newWorkflow('Gone holder, asked');
    for (const wf of [recovered, asked]) {
      await t.app.db.execute(sql`update workflows set flow_lease_holder = 'gone-host:1:xyz#1' where id = ${wf}`);
    }
    await closeOrphanedRuns(t.app, { everyOtherRunner: false });
    expect(await leaseHolder(recovered)).toBeNull();

    await t.app.db.execute(sql`update workflows set flow_lease_holder = 'gone-host:1:xyz#1' where id = ${asked}`);
    // An async run's take (the shared way) finds the lease held, asks for it, and breaks it: the holder is not alive.
    expect(await takeSlot(t.app.db, flowOf(asked, 'k'), 'ex-k')).toBe(true);
    expect(await leaseHolder(asked)).toBeNull();
    expect(await slotRows(asked)).toEqual(['ex-k']);
    await freeSlot(t.app.db, 'ex-k');
  });
});
