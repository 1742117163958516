// Issue 23 item 6, the logs half: a run whose API block got a 500 succeeded (the workflow goes on and may branch on
// <fetch.status>), but the logs list, its filter, the log detail and the workflow's Executions tab say that a block
// reported an error instead of passing it off as a clean success. The owner and the key are made through the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  page = app.page;
  upstream = createServer((req, res) => {
    const broken = req.url === '/orders/broken';
    res.writeHead(broken ? 500 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(broken ? { error: 'database down' } : { id: 7, status: 'shipped' }));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => upstream?.close(done));
});

describe('web app journey', { timeout: 150_000 }, () => {
  it('marks a run whose API block got a 500 in the logs, the detail and the Executions tab', withFailureShot('failure-block-errors', blockErrorsJourney));
});

/** `Start → Fetch order (API block)`, deployed, run once; answers the workflow id and the execution id. */
async function deployedRun(name: string, path: string): Promise<{ workflowId: string; executionId: string }> {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const block = (id: string, type: string, blockName: string, x: number, config: Record<string, unknown>) => ({
    id, type, name: blockName, position: { x, y: 120 }, enabled: true, config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name,
      state: {
        blocks: {
          start: block('start', 'api_trigger', 'Start', 0, { inputFormat: [] }),
          fetch: block('fetch', 'api', 'Fetch order', 260, { url: `${upstreamUrl}${path}`, method: 'GET', retries: 0 }),
        },
        edges: [{ id: 'e1', source: 'start', target: 'fetch' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;
  expect((await keyApi(`/api/v1/workflows/${workflowId}/deploy`, { method: 'POST' })).status).toBe(200);
  const ran = await keyApi(`/api/workflows/${workflowId}/execute`, { method: 'POST', body: {} });
  expect(ran.status, JSON.stringify(ran.body)).toBe(200);
  return { workflowId, executionId: (ran.body as { executionId: string }).executionId };
}

async function blockErrorsJourney() {
  const flaky = await deployedRun('Order lookup', '/orders/broken');
  const clean = await deployedRun('Healthy lookup', '/orders/7');

  await signedIn();
  await page.getByRole('link', { name: 'Logs', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Logs' }).waitFor();
  const row = (executionId: string) => page.getByRole('row').filter({ hasText: executionId });
  await row(flaky.executionId).waitFor();
  expect(await row(flaky.executionId).textContent()).toContain('Succeeded · 1 block error');
  await row(clean.executionId).waitFor();
  expect(await row(clean.executionId).textContent()).not.toContain('block error');
  await shot('block-errors-1-logs');

  // The filter: only the run whose block reported an error.
  await page.getByLabel('Level').selectOption({ label: 'Succeeded with block errors' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('blockErrors'), { timeout: 15_000 }).toBe('true');
  await expect.poll(() => page.getByTestId('log-row').count(), { timeout: 15_000 }).toBe(1);
  expect(await row(clean.executionId).count()).toBe(0);
  expect(await row(flaky.executionId).textContent()).toContain('Succeeded · 1 block error');

  // The detail: the block's error first, before the trace.
  await row(flaky.executionId).click();
  const summary = page.getByText('Succeeded — 1 block reported an error');
  await summary.waitFor();
  const errors = page.getByTestId('log-block-errors');
  expect(await errors.textContent()).toContain('Fetch order: HTTP 500');
  const before = await errors.evaluate((box) => {
    const trace = document.querySelector('[data-testid=waterfall]');
    return trace !== null && (box.compareDocumentPosition(trace) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  });
  expect(before).toBe(true);
  await shot('block-errors-2-detail');

  // The workflow's Executions tab marks it too, and its outcome filter finds it.
  await page.goto(`${app.url}/workflows/${flaky.workflowId}/executions`);
  const runs = page.getByTestId('execution-row');
  await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(1);
  expect(await runs.first().textContent()).toContain('Succeeded · 1 block error');
  await page.getByLabel('Filter by outcome').selectOption({ label: 'succeeded with block errors' });
  await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(1);
  expect(await runs.first().textContent()).toContain(flaky.executionId);
  await page.goto(`${app.url}/workflows/${clean.workflowId}/executions`);
  await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(1);
  await page.getByLabel('Filter by outcome').selectOption({ label: 'succeeded with block errors' });
  await page.getByText('none with this outcome').waitFor();
  expect(await runs.count()).toBe(0);
  await shot('block-errors-3-executions');
  expect(app.errors).toEqual([]);
}
