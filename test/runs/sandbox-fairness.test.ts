// One workspace flooding the sandbox with endless loops does not hold up another's code (src/sandbox/thread-pool.ts):
// each workspace has its own share of the waiting line, and a freed worker goes to the workspace with the fewest runs
// on workers. Through the execute endpoint, with the sandbox shrunk to one worker and one waiting run per workspace
// (this file's process only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureSandboxPool, sandboxPoolStats, shutdownSandboxPool } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  configureSandboxPool({ size: 1, maxQueued: 1 });
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

describe('the sandbox between workspaces', () => {
  it("serves another workspace's code while one workspace's endless loops fill its share", async () => {
    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Other' } });
    const loop = await deployIn(t.workspaceId, 'while (true) {}');
    const quick = await deployIn(other.body.data.id, 'return { answer: 42 };');

    // The flood: one loop on the worker (its caller can hang up), one waiting (the workspace's share), a third refused.
    const hangUp = new AbortController();
    const running = fetch(`${t.url}/api/workflows/${loop}/execute`, {
      method: 'POST',
      headers: { 'x-api-key': t.personalKey, 'content-type': 'application/json' },
      body: '{}',
      signal: hangUp.signal,
    }).catch(() => 'hung up');
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
    hangUp.abort();
    await running;
    const answer = await served;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.output).toEqual({ result: { answer: 42 }, stdout: '' });

    const waited = await waiting;
    expect(waited.status).toBe(500);
    expect(waited.body.error).toMatch(/timed out/);
  });
});
