// The database round trips one execution costs on the hot path (warm caches), counted at the driver: every statement
// the app sends, BEGIN/COMMIT included. The budget is 3 per execution; the execution path is built to need 1 (the
// run's log, written by the group commit) once keys, deployments, members, environment variables and webhook
// subscriptions are cached and the rate limit holds a lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState, parseSse } from '../support/workflows.js';
import { startReceiver, subscribe } from '../completion-webhooks/support.js';

const BUDGET = 3;

let t: TestApp;
beforeAll(async () => {
  // Real limits (not unlimited), so counting the rate limit and the usage is part of what is measured.
  t = await startTestApp({ SLUICE_LIMIT_SYNC_FREE: '100000', SLUICE_LIMIT_USAGE_USD_FREE: '100000' });
});
afterAll(async () => t?.close());

const state = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
    { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return { upper: <api.q>.toUpperCase() };' } },
    { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<fn.result.upper>', secret: '{{TOKEN}}' } } },
  ],
  [
    ['start', 'fn'],
    ['fn', 'out'],
  ],
);

/** Statements sent while `work` runs, per execution. */
async function statementsPer(executions: number, work: () => Promise<void>): Promise<number> {
  await t.app.recorder.drain();
  const before = t.app.database.statements();
  await work();
  await t.app.recorder.drain();
  return (t.app.database.statements() - before) / executions;
}

describe('database round trips per execution (warm caches)', () => {
  it(`stays within ${BUDGET} for plain and streaming execute calls, with an env var and a webhook subscription`, async () => {
    const receiver = await startReceiver((_req, res) => res.end('ok'));
    try {
      expect((await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { TOKEN: 'abc' } } })).status).toBe(200);
      const workflowId = await createAndDeploy(t, state);
      // Active: its delivery rows ride in the same commit as the log (no worker runs here to send them).
      await subscribe(t, workflowId, { url: receiver.url });
      const call = (body: unknown) => t.request('POST', `/api/workflows/${workflowId}/execute`, { body });
      // Warm-up: the first call of each kind loads the caches.
      expect((await call({ q: 'warm' })).body).toEqual({ result: 'WARM', secret: 'abc' });
      expect((await call({ q: 'warm', stream: true })).status).toBe(200);

      const runs = 20;
      const plain = await statementsPer(runs, async () => {
        for (let i = 0; i < runs; i++) expect((await call({ q: `n${i}` })).body.result).toBe(`N${i}`);
      });
      const streaming = await statementsPer(runs, async () => {
        for (let i = 0; i < runs; i++) {
          const { records } = parseSse((await call({ q: `s${i}`, stream: true })).text);
          expect(records.at(-1)).toBe('[DONE]');
        }
      });
      expect(plain).toBeLessThanOrEqual(BUDGET);
      expect(streaming).toBeLessThanOrEqual(BUDGET);

      // Every one of them was logged.
      const logs = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${workflowId}&limit=1000`);
      expect(logs.body.data).toHaveLength(2 + 2 * runs);
    } finally {
      await receiver.close();
    }
  });

  it(`stays within ${BUDGET} when many calls run at once`, async () => {
    const workflowId = await createAndDeploy(t, state);
    await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: 'warm' } });
    const runs = 40;
    const perRun = await statementsPer(runs, async () => {
      const answers = await Promise.all(
        Array.from({ length: runs }, (_, i) => t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: `c${i}` } })),
      );
      expect(answers.map((a) => a.body.result)).toEqual(Array.from({ length: runs }, (_, i) => `C${i}`));
    });
    expect(perRun).toBeLessThanOrEqual(BUDGET);
  });
});
