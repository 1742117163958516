// The logs part of sluice-client against a real server: one page or every page of listLogs, log and execution detail,
// and pollLogs following new runs and resuming from a saved cursor without repeating or losing a log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogBatch } from '../src/index.js';
import { echoState, startClientTestServer, type ClientTestServer } from './support.js';

let s: ClientTestServer;
let workflowId: string;
beforeAll(async () => {
  s = await startClientTestServer();
  const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Logged', state: echoState() });
  await s.client.workflows.deploy(wf.id);
  workflowId = wf.id;
});
afterAll(async () => s?.close());

const run = (q: string) => s.client.executeWorkflow(workflowId, { q });

describe('logs', () => {
  it('listLogs gives one page when awaited and every page when iterated; getLog and getExecution give the detail', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await run(`r${i}`)).executionId);
    const query = { workspaceId: s.t.workspaceId, workflowIds: [workflowId], limit: 2 };

    const first = await s.client.listLogs(query);
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    expect(first.limits.usage.plan).toBe('free');

    const pages = [];
    for await (const page of s.client.listLogs(query)) pages.push(page);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    // Newest first, each run once.
    expect(pages.flatMap((p) => p.data.map((l) => l.executionId))).toEqual([...ids].reverse());

    const detail = await s.client.getLog(first.data[0].id);
    expect(detail).toMatchObject({ executionId: ids[4], workflow: { id: workflowId, name: 'Logged' }, executionData: { finalOutput: { status: 200, body: { echoed: 'r4' } } } });
    const full = await s.client.listLogs({ ...query, details: 'full', includeTraceSpans: true, limit: 1 });
    expect(full.data[0].executionData?.traceSpans?.map((span) => span.name)).toEqual(['API', 'Respond']);
    const execution = await s.client.getExecution(ids[0]);
    expect(Object.keys(execution.workflowState.blocks)).toEqual(['start', 'respond']);
  });

  it('pollLogs follows new runs as they complete and resumes after a saved cursor', async () => {
    const since = new Date();
    const controller = new AbortController();
    const batches: LogBatch[] = [];
    const seen: string[] = [];
    const following = (async () => {
      for await (const batch of s.client.pollLogs({ workspaceId: s.t.workspaceId, workflowIds: [workflowId] }, { since, intervalMs: 50, signal: controller.signal })) {
        batches.push(batch);
        seen.push(...batch.logs.map((l) => l.executionId));
        if (seen.length >= 3) controller.abort();
      }
    })().catch((err: unknown) => {
      if (!controller.signal.aborted) throw err;
    });
    const first = [(await run('p0')).executionId, (await run('p1')).executionId, (await run('p2')).executionId];
    await following;
    expect(seen).toEqual(first);

    // Later, from the saved cursor: only what came after, each once.
    const saved = batches.at(-1)!.cursor;
    const later = [(await run('p3')).executionId, (await run('p4')).executionId];
    const resumed: string[] = [];
    const again = new AbortController();
    await (async () => {
      for await (const batch of s.client.pollLogs({ workspaceId: s.t.workspaceId, workflowIds: [workflowId] }, { cursor: saved, intervalMs: 50, signal: again.signal })) {
        resumed.push(...batch.logs.map((l) => l.executionId));
        if (resumed.length >= 2) again.abort();
      }
    })().catch((err: unknown) => {
      if (!again.signal.aborted) throw err;
    });
    expect(resumed).toEqual(later);
  });
});
