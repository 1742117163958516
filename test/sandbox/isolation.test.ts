// User code that never yields runs on worker threads, so the real app keeps answering other requests meanwhile,
// on connections that stay open (issue: two `while (true) {}` blocks used to stall every tenant for 5 s).
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureSandboxPool, runUserCode, sandboxPoolStats, shutdownSandboxPool } from '../../src/sandbox/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

const WORKERS = 2;
let t: TestApp;

beforeAll(async () => {
  configureSandboxPool({ size: WORKERS });
  t = await startTestApp();
  t.app.blockServices.sandbox = { ...t.app.blockServices.sandbox, timeoutMs: 3000 };
  // Start both workers now, so the loops below spend their 3 s spinning rather than waiting for threads to boot.
  await Promise.all(Array.from({ length: WORKERS }, () => runUserCode({ code: 'return 1', inputs: {} })));
});
afterAll(async () => {
  await t?.close();
  await shutdownSandboxPool();
});

/** api_trigger → one block that never returns. */
const spinningWorkflow = (block: { type: string; config: Record<string, unknown> }) =>
  makeState([{ id: 'start', type: 'api_trigger' }, { id: 'spin', ...block }], [['start', 'spin']]);

/**
 * Starts WORKERS executions of `workflowId` (each spins until the 3 s sandbox timeout) and, once they hold every
 * worker, sends unrelated requests over one keep-alive connection opened beforehand. Returns the order in which
 * things finished, the unrelated answers, the spinning executions' answers and how many connections were opened.
 */
async function unrelatedRequestsWhileSpinning(workflowId: string) {
  const echo = await createAndDeploy(t, echoState());
  const client = new Client(t.url, { keepAliveTimeout: 60_000 });
  let connections = 0;
  client.on('connect', () => connections++);
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await client.request({
      method,
      path,
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };

  try {
    expect((await call('GET', '/health')).status).toBe(200); // the connection exists before the loops start
    const finished: string[] = [];
    const spinning = Array.from({ length: WORKERS }, () =>
      t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} }).then((res) => {
        finished.push('spinning execution');
        return res;
      }),
    );
    await eventually(() => sandboxPoolStats().busy === WORKERS, 20_000, 'every worker to be spinning');

    const health = await call('GET', '/health');
    finished.push('health');
    const executed = await call('POST', `/api/workflows/${echo}/execute`, { q: 'still here' });
    finished.push('unrelated execution');
    const spun = await Promise.all(spinning);
    return { finished, health, executed, spun, connections };
  } finally {
    await client.close();
  }
}

describe('user code that never yields', () => {
  it('function blocks spinning on every worker hold up neither other requests nor a keep-alive connection', async () => {
    const workflow = await createAndDeploy(t, spinningWorkflow({ type: 'function', config: { code: 'while (true) {}' } }));
    const { finished, health, executed, spun, connections } = await unrelatedRequestsWhileSpinning(workflow);

    expect(finished).toEqual(['health', 'unrelated execution', ...Array(WORKERS).fill('spinning execution')]);
    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
    expect(executed).toEqual({ status: 200, body: { echoed: 'still here' } });
    expect(connections).toBe(1);
    // The loops themselves still end at their deadline.
    for (const res of spun) expect(res.text).toMatch(/timed out after/);
  });

  it('condition expressions spinning on every worker do the same', async () => {
    const expression = '(() => { while (true) {} })()';
    const workflow = await createAndDeploy(t, spinningWorkflow({ type: 'condition', config: { conditions: [{ id: 'c1', title: 'if', expression }] } }));
    const { finished, health, executed, spun, connections } = await unrelatedRequestsWhileSpinning(workflow);

    expect(finished).toEqual(['health', 'unrelated execution', ...Array(WORKERS).fill('spinning execution')]);
    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
    expect(executed).toEqual({ status: 200, body: { echoed: 'still here' } });
    expect(connections).toBe(1);
    for (const res of spun) expect(res.text).toMatch(/timed out after/);
  });
});
