// Issue 27: the Deploy tab edits a workflow's flow control. Settings are saved with the draft (through the editor, so
// the canvas's next save keeps them), refused in the panel when invalid, and in force once deployed: a second call for
// the same key while one runs is answered 409 ALREADY_RUNNING.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
let upstream: Server;
let upstreamUrl: string;
let release: () => void = () => undefined;
let received = 0;

beforeAll(async () => {
  page = app.page;
  // Holds each call until released, so a run is in flight while the test calls again.
  upstream = createServer((req, res) => {
    req.resume();
    received++;
    const gate = new Promise<void>((done) => (release = done));
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

describe('flow control in the Deploy tab', { timeout: 150_000 }, () => {
  it('sets a singleton per key, a throttle and the trace detail, keeps them through editor saves, and the singleton holds once deployed', withFailureShot('failure-flow-control', journey));
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
      name: 'Per order',
      state: {
        blocks: {
          start: block('start', 'api_trigger', 'API', 0, { inputFormat: [{ name: 'orderId', type: 'string' }] }),
          call: block('call', 'api', 'Call', 260, { url: `${upstreamUrl}/orders`, method: 'GET', retries: 0 }),
        },
        edges: [{ id: 'e1', source: 'start', target: 'call' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}/deploy`);
  const panel = page.getByTestId('flow-control');
  await panel.waitFor();

  // An invalid key is refused in the panel, naming the field.
  await panel.getByLabel('Flow control', { exact: true }).selectOption('singleton');
  await panel.getByLabel('Flow control key').fill('orderId');
  await panel.getByRole('button', { name: 'Save to the draft' }).click();
  await expect.poll(() => page.getByTestId('flow-control-problems').textContent()).toContain('singleton.key');

  await panel.getByLabel('Flow control key').fill('<api.orderId>');
  await panel.getByLabel('Singleton mode').selectOption('skip');
  await panel.getByLabel('Priority').fill('5');
  // A throttle beside it; a debounce whose maximum wait is shorter than its period is refused, naming the field.
  await panel.getByLabel('Throttle limit').fill('10');
  await panel.getByLabel('Throttle period').fill('60000');
  await panel.getByLabel('Throttle key').fill('<api.orderId>');
  await panel.getByLabel('Debounce period').fill('500');
  await panel.getByLabel('Debounce maximum wait').fill('100');
  await panel.getByRole('button', { name: 'Save to the draft' }).click();
  await expect.poll(() => page.getByTestId('flow-control-problems').textContent()).toContain('debounce.maxWaitMs');
  // Without the debounce (sync calls of a debounced workflow are refused, and this one is called sync below).
  await panel.getByLabel('Debounce period').fill('');
  await panel.getByLabel('Debounce maximum wait').fill('');
  await panel.getByRole('button', { name: 'Save to the draft' }).click();
  await panel.getByText('Saved to the draft').waitFor();
  const expected = { singleton: { key: '<api.orderId>', mode: 'skip' }, throttle: { limit: 10, periodMs: 60000, key: '<api.orderId>' }, priority: 5 };
  const saved = await keyApi(`/api/v1/workflows/${workflowId}`);
  expect((saved.body.data as { state: { flowControl: unknown } }).state.flowControl).toEqual(expected);

  // The trace detail beside it, saved at once.
  await page.getByTestId('trace-detail').getByLabel('Trace detail').selectOption('summary');
  await page.getByTestId('trace-detail').getByText('Saved to the draft').waitFor();
  expect(((await keyApi(`/api/v1/workflows/${workflowId}`)).body.data as { state: { trace?: string } }).state.trace).toBe('summary');

  // An edit on the canvas saves the draft again: the settings stay.
  await page.getByRole('tab', { name: 'Editor' }).click();
  await page.locator('.react-flow__node [data-block-name="Call"]').click();
  await page.getByLabel('Block name').fill('Call order');
  await page.locator('[data-testid=save-state][data-status=saved]').waitFor({ timeout: 10_000 });
  await expect
    .poll(async () => ((await keyApi(`/api/v1/workflows/${workflowId}`)).body.data as { state: { blocks: { call: { name: string } } } }).state.blocks.call.name)
    .toBe('Call order');
  const afterEdit = await keyApi(`/api/v1/workflows/${workflowId}`);
  expect((afterEdit.body.data as { state: { flowControl: unknown } }).state.flowControl).toEqual(expected);
  expect((afterEdit.body.data as { state: { trace?: string } }).state.trace).toBe('summary');

  // Deployed from the tab, the singleton holds.
  await page.getByRole('tab', { name: 'Deploy' }).click();
  await page.getByTestId('deploy-button').click();
  await page.getByTestId('deploy-state').getByText('Active: v1').waitFor();
  // The form shows what the draft holds.
  expect(await page.getByTestId('flow-control').getByLabel('Flow control key').inputValue()).toBe('<api.orderId>');
  expect(await page.getByTestId('flow-control').getByLabel('Throttle limit').inputValue()).toBe('10');
  const first = keyApi(`/api/workflows/${workflowId}/execute`, { method: 'POST', body: { orderId: 'o-1' } });
  await expect.poll(() => received, { timeout: 20_000 }).toBe(1);
  const second = await keyApi(`/api/workflows/${workflowId}/execute`, { method: 'POST', body: { orderId: 'o-1' } });
  expect(second.status).toBe(409);
  expect(second.body).toMatchObject({ code: 'ALREADY_RUNNING' });
  release();
  expect((await first).status).toBe(200);
}
