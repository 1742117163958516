// One workspace flooding the sandbox with endless loops does not hold up another's code (src/sandbox/thread-pool.ts):
// each workspace has its own share of the waiting line, and a freed worker goes to the workspace with the fewest runs
// on workers. Through the execute endpoint, with the sandbox shrunk to one worker that never grows and one waiting run
// per workspace (this file's process only). And with the pool allowed to grow (as by default), endless loops do not
// hold up the code of their own workspace either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureSandboxPool, sandboxPoolStats, shutdownSandboxPool } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  configureSandboxPool({ size: 1, maxThreads: 1, maxQueued: 1 });
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await shutdownSandboxPool();
});

const functionWorkflow = (code: string) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'fn', type: 'function', name: 'Fn', config: { code } },
    ],
    [['start', 'fn']],
  );

const deployIn = (workspaceId: string, code: string) =>
  createAndDeploy(t, functionWorkflow(code), 'Sandbox', { workspaceId, apiKey: t.personalKey });

const execute = (workflowId: string) => t.request('POST', `/api/workflows/${workflowId}/execute`, { apiKey: t.personalKey, body: {} });

/** Executes a workflow on a connection of its own that `hangUp()` closes, which stops the run. */
function executeUntilHungUp(workflowId: string) {
  const controller = new AbortController();
  const answered = fetch(`${t.url}/api/workflows/${workflowId}/execute`, {
    method: 'POST',
    headers: { 'x-api-key': t.personalKey, 'content-type': 'application/json' },
    body: '{}',
    signal: controller.signal,
  }).catch(() => 'hung up');
  return { answered, hangUp: () => controller.abort() };
}

describe('the sandbox between workspaces', () => {
  it("serves another workspace's code while one workspace's endless loops fill its share", async () => {
    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Other' } });
    const loop = await deployIn(t.workspaceId, 'while (true) {}');
    const quick = await deployIn(other.body.data.id, 'return { answer: 42 };');

    // The flood: one loop on the worker (its caller can hang up), one waiting (the workspace's share), a third refused.
    const running = executeUntilHungUp(loop);
    await eventually(() => sandboxPoolStats().busy === 1, 20_000, 'a loop to hold the worker');
    const waiting = execute(loop);
    await eventually(() => sandboxPoolStats().queued === 1, 20_000, 'a loop to wait');
    const refused = await execute(loop);
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/Sandbox is busy/);

    // The other workspace is not refused: it gets in line...
    const served = execute(quick);
    await eventually(() => sandboxPoolStats().queued === 2, 20_000, 'the other workspace to wait');
    // ...and when the running loop ends (its caller hung up), the worker goes to it, not to the flood's older waiting
    // loop — which would hold the worker until after the other run's own time limit (5 s from asking).
    running.hangUp();
    await running.answered;
    const answer = await served;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.output).toEqual({ result: { answer: 42 }, stdout: '' });

    const waited = await waiting;
    expect(waited.status).toBe(500);
    expect(waited.body.error).toMatch(/timed out/);
  });
});

describe('the sandbox within one workspace', () => {
  it('runs a function block while two endless loops of the same workspace spin, long before their deadline', { timeout: 90_000 }, async () => {
    // The default shape for two cores: two threads kept, growing while loops hold them.
    await shutdownSandboxPool();
    configureSandboxPool({ size: 2 });
    // The loops may spin for a minute, the quick run gets 20 s (its deadline counts from the request): without
    // growing, it would wait behind a loop and time out.
    const limits = t.app.blockServices.sandbox;
    try {
      const loop = await deployIn(t.workspaceId, 'while (true) {}');
      const quick = await deployIn(t.workspaceId, 'return { answer: 42 };');
      t.app.blockServices.sandbox = { ...limits, timeoutMs: 60_000 };
      const loops = [executeUntilHungUp(loop), executeUntilHungUp(loop)];
      await eventually(() => sandboxPoolStats().busy === 2, 30_000, 'two loops to hold both threads');

      t.app.blockServices.sandbox = { ...limits, timeoutMs: 20_000 };
      const answer = await execute(quick);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.output).toEqual({ result: { answer: 42 }, stdout: '' });
      // The loops were still spinning when it answered.
      expect(sandboxPoolStats().busy).toBeGreaterThanOrEqual(2);

      for (const running of loops) running.hangUp();
      await Promise.all(loops.map((running) => running.answered));
      await eventually(() => sandboxPoolStats().busy === 0, 20_000, 'the loops to stop');
    } finally {
      t.app.blockServices.sandbox = limits;
    }
  });
});
