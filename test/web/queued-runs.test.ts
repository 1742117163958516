// Issue 27 item 7: the Executions tab shows a workflow's queued runs and their place. A workflow with a concurrency
// limit of 1 has one run in flight (held by a local server) and two queued behind it; the tab lists them with their
// place and reason, Cancel takes one out (its log says cancelled), and the other moves up to place 1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { signedIn, keyApi, withFailureShot, shot } = pageTools(app);
let page: Page;
let upstream: Server;
let upstreamUrl: string;
let release: () => void = () => undefined;
let received = 0;

beforeAll(async () => {
  page = app.page;
  // Holds every call until released, so the first run keeps the workflow's one slot.
  const gate = new Promise<void>((done) => (release = done));
  upstream = createServer((req, res) => {
    req.resume();
    received++;
    void gate.then(() => res.end('{}'));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  release();
  upstream?.closeAllConnections();
  await new Promise((done) => upstream?.close(done));
});

describe('queued runs in the Executions tab', { timeout: 150_000 }, () => {
  it('shows the queued runs with their place, cancels one, and the other moves up', withFailureShot('failure-queued-runs', journey));
});

async function journey() {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const block = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id, type, name, position: { x, y: 120 }, enabled: true, config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'One at a time',
      state: {
        blocks: {
          start: block('start', 'api_trigger', 'API', 0, { inputFormat: [{ name: 'orderId', type: 'string' }] }),
          call: block('call', 'api', 'Call', 260, { url: `${upstreamUrl}/orders`, method: 'GET', retries: 0 }),
        },
        edges: [{ id: 'e1', source: 'start', target: 'call' }],
        loops: {},
        parallels: {},
        flowControl: { concurrency: { limit: 1 } },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;
  expect((await keyApi(`/api/v1/workflows/${workflowId}/deploy`, { method: 'POST' })).status).toBe(200);

  const runAsync = async (orderId: string) => {
    const res = await fetch(`${app.url}/api/workflows/${workflowId}/execute`, {
      method: 'POST',
      headers: { 'X-API-Key': app.apiKey!, 'Content-Type': 'application/json', 'X-Execution-Mode': 'async' },
      body: JSON.stringify({ orderId }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { executionId: string }).executionId;
  };
  // The first run takes the slot and waits on the upstream; the next two queue behind it.
  const first = await runAsync('o-1');
  await expect.poll(() => received, { timeout: 20_000 }).toBe(1);
  const second = await runAsync('o-2');
  const third = await runAsync('o-3');

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}/executions`);
  const section = page.getByTestId('queued-runs');
  await section.waitFor();
  const rows = section.getByTestId('queued-row');
  await expect.poll(() => rows.count()).toBe(2);
  expect(await section.getByRole('heading').textContent()).toContain('Queued 2');
  const rowOf = (executionId: string) => section.locator(`[data-testid=queued-row][data-execution-id="${executionId}"]`);
  expect(await rowOf(second).getByTestId('queued-place').textContent()).toBe('1');
  expect(await rowOf(third).getByTestId('queued-place').textContent()).toBe('2');
  expect(await rowOf(second).textContent()).toContain('concurrency');
  expect(await section.textContent()).not.toContain(first);
  await shot('queued-runs-1-listed');

  // Cancel the first in line (the button asks once more).
  await rowOf(second).getByRole('button', { name: 'Cancel' }).click();
  await rowOf(second).getByRole('button', { name: 'Cancel the run' }).click();
  await expect.poll(() => rowOf(second).count(), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => rowOf(third).getByTestId('queued-place').textContent(), { timeout: 15_000 }).toBe('1');
  await shot('queued-runs-2-cancelled');

  // Its log says cancelled: the runs list below shows it, and its log page says so.
  const logged = page.getByTestId('execution-row').filter({ hasText: second });
  await expect.poll(() => logged.count(), { timeout: 20_000 }).toBe(1);
  await logged.getByRole('link', { name: 'Log' }).click();
  await expect.poll(() => page.getByTestId('log-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('cancelled');

  // Once the upstream answers, the queue drains and the section goes away.
  release();
  await page.goto(`${app.url}/workflows/${workflowId}/executions`);
  await page.getByTestId('execution-row').first().waitFor();
  await expect.poll(() => page.getByTestId('queued-runs').count(), { timeout: 30_000 }).toBe(0);
  expect(app.errors).toEqual([]);
}
