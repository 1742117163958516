// Issue 24 item 7 in the web app: "Retry" and "Re-run from…" on a log and in the Executions tab. The confirm dialog
// shows, before anything runs, what is replayed from the log and what runs again, marking the blocks that call the
// outside world again; confirming runs the re-run and opens its log. Counted with a real local upstream.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, signedIn, keyApi, withFailureShot, block, waitSaved } = pageTools(app);
let page: Page;
let upstream: Server;
let upstreamUrl: string;
/** Paths the upstream was called on, in order. */
const calls: string[] = [];
const script = { failB: true };

beforeAll(async () => {
  page = app.page;
  upstream = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname;
    calls.push(path);
    const down = path === '/b' && script.failB;
    if (path === '/orders') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ order: count('/orders') }));
    res.writeHead(down ? 500 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(down ? { down: true } : { path }));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => upstream?.close(done));
});

const count = (path: string) => calls.filter((p) => p === path).length;

describe('re-runs in the web app', { timeout: 150_000 }, () => {
  it('runs from a block, pins a block\'s output and runs with it, with no second upstream call', withFailureShot('failure-replay-pin', pinJourney));
  it('retries a failed run from its log after showing what calls the outside world again', withFailureShot('failure-replay-retry', retryJourney));
});

/** `Start → Fetch A (GET) → Post B (POST) → Check (fails when B did)`, deployed and run once while /b is down. */
async function failedRun(): Promise<{ workflowId: string; executionId: string }> {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const block = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id, type, name, position: { x, y: 120 }, enabled: true, config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Order sync',
      state: {
        blocks: {
          start: block('start', 'api_trigger', 'Start', 0, { inputFormat: [] }),
          a: block('a', 'api', 'Fetch A', 260, { url: `${upstreamUrl}/a`, method: 'GET', retries: 0 }),
          b: block('b', 'api', 'Post B', 520, { url: `${upstreamUrl}/b`, method: 'POST', retries: 0 }),
          check: block('check', 'function', 'Check', 780, { code: 'if (<postb.status> !== 200) throw new Error("B is down"); return <postb.data>;' }),
        },
        edges: [
          { id: 'e1', source: 'start', target: 'a' },
          { id: 'e2', source: 'a', target: 'b' },
          { id: 'e3', source: 'b', target: 'check' },
        ],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;
  expect((await keyApi(`/api/v1/workflows/${workflowId}/deploy`, { method: 'POST' })).status).toBe(200);
  const ran = await keyApi(`/api/workflows/${workflowId}/execute`, { method: 'POST', body: {} });
  expect(ran.status, JSON.stringify(ran.body)).toBe(500);
  return { workflowId, executionId: (ran.body as { executionId: string }).executionId };
}

async function retryJourney() {
  const failed = await failedRun();
  expect([count('/a'), count('/b')]).toEqual([1, 1]);
  script.failB = false;

  await signedIn();
  // The Executions tab offers both; "Re-run from…" previews any block of the run, nothing runs until confirmed.
  await page.goto(`${app.url}/workflows/${failed.workflowId}/executions`);
  const row = page.getByTestId('execution-row').filter({ hasText: failed.executionId });
  await row.getByRole('button', { name: 'Re-run from…' }).click();
  const rerunDialog = page.getByRole('dialog', { name: 'Re-run' });
  await rerunDialog.getByLabel('Re-run from').selectOption({ label: 'Check' });
  // Post B failed in the original, so it runs again although it comes before Check (a failure is never kept).
  await expect.poll(() => rerunDialog.getByTestId('replayed-block').allTextContents(), { timeout: 15_000 }).toEqual(['Fetch A']);
  expect(await rerunDialog.getByTestId('will-run-block').filter({ hasText: 'Post B' }).textContent()).toContain('calls the outside world again');
  await rerunDialog.getByLabel('Re-run from').selectOption({ label: 'the whole run' });
  await rerunDialog.getByText('Nothing: every block runs.').waitFor();
  await shot('replay-1-rerun-from-preview');
  await rerunDialog.getByRole('button', { name: 'Cancel' }).click();
  expect([count('/a'), count('/b')]).toEqual([1, 1]);

  // The failed run's log: Retry shows the preview first.
  await page.goto(`${app.url}/logs`);
  await page.getByRole('row').filter({ hasText: failed.executionId }).click();
  await page.getByTestId('log-status').filter({ hasText: 'error' }).waitFor();
  await page.getByRole('button', { name: 'Retry' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry from the failed block' });
  await dialog.getByTestId('rerun-preview').waitFor();
  expect(await dialog.getByTestId('replayed-block').allTextContents()).toEqual(['Fetch A']);
  const willRun = dialog.getByTestId('will-run-block');
  expect(await willRun.filter({ hasText: 'Post B' }).textContent()).toContain('calls the outside world again');
  expect(await willRun.filter({ hasText: 'Check' }).count()).toBe(1);
  expect(await willRun.filter({ hasText: 'Fetch A' }).count()).toBe(0);
  await shot('replay-2-retry-preview');
  expect([count('/a'), count('/b')]).toEqual([1, 1]); // the preview ran nothing

  await dialog.getByRole('button', { name: 'Retry now' }).click();
  // The new execution's log: it succeeded, says what it re-ran and from where.
  await page.getByTestId('log-status').filter({ hasText: 'success' }).waitFor();
  const origin = page.getByText('Re-run from Post B');
  await origin.waitFor();
  expect(await page.getByRole('link', { name: failed.executionId }).count()).toBe(1);
  // Exactly the re-run's call: Post B again, Fetch A replayed from the log.
  expect([count('/a'), count('/b')]).toEqual([1, 2]);
  await shot('replay-3-retried');

  // The original lists its re-run.
  await page.getByRole('link', { name: failed.executionId }).click();
  await page.getByRole('row').filter({ hasText: failed.executionId }).click();
  await page.getByTestId('log-reruns').waitFor();
  expect(await page.getByTestId('log-reruns').getByRole('link').count()).toBe(1);
  expect(app.errors).toEqual([]);
}

/** The Run panel's current execution id. */
const shownExecution = async () => /exec_\w+/.exec((await page.getByText(/^Execution exec_/).textContent()) ?? '')?.[0];

async function runInEditor(): Promise<string> {
  const previous = (await page.getByText(/^Execution exec_/).count()) > 0 ? await shownExecution() : undefined;
  await page.getByTestId('run-button').click();
  await expect.poll(async () => (await page.getByText(/^Execution exec_/).count()) > 0 && (await shownExecution()) !== previous, { timeout: 30_000 }).toBe(true);
  await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 30_000 }).toMatch(/^Run succeeded/);
  return (await shownExecution())!;
}

async function pinJourney() {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const node = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id, type, name, position: { x, y: 120 }, enabled: true, config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Orders draft',
      state: {
        blocks: {
          start: node('start', 'api_trigger', 'Start', 0, { inputFormat: [] }),
          order: node('order', 'api', 'Create order', 260, { url: `${upstreamUrl}/orders`, method: 'POST', retries: 0 }),
          out: node('out', 'function', 'Out', 520, { code: 'return { got: <createorder.data> };' }),
        },
        edges: [
          { id: 'e1', source: 'start', target: 'order' },
          { id: 'e2', source: 'order', target: 'out' },
        ],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Out').waitFor();
  const first = await runInEditor();
  expect(count('/orders')).toBe(1);

  // "Run from here" on Out: the last manual run again from Out; Create order is replayed from its log.
  await block('Out').click();
  await page.getByRole('button', { name: 'Run from here' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('execution'), { timeout: 30_000 }).not.toBeNull();
  const fromHere = new URL(page.url()).searchParams.get('execution')!;
  expect(fromHere).not.toBe(first);
  await page.locator('[data-testid=run-block][data-block-name="Out"]').waitFor();
  const logs = await keyApi(`/api/v1/logs?workspaceId=${workspaceId}&executionId=${fromHere}`);
  const logId = (logs.body.data as Array<{ id: string }>)[0].id;
  expect((await keyApi(`/api/v1/logs/${logId}`)).body.data).toMatchObject({ rerunOf: first, rerunFromBlock: 'out', status: 'success' });
  expect(count('/orders')).toBe(1);
  await shot('replay-4-run-from-here');

  // Pin Create order's output from that run; the canvas marks it, and the next manual run makes no call.
  await page.getByTestId('run-block').filter({ hasText: 'Create order' }).getByRole('button', { name: 'Pin this output' }).click();
  await block('Create order').getByTestId('pin-badge').waitFor();
  await waitSaved();
  await runInEditor();
  expect(count('/orders')).toBe(1);
  // Out got the pinned answer (the first call's).
  expect(await page.locator('[data-testid=run-block][data-block-name="Out"]').textContent()).toMatch(/"order":\s*1/);
  await shot('replay-5-pinned-run');

  // The pin survives a reload, and the block's panel shows it as JSON with Unpin. The editor is opened without the
  // shown run (?execution=…): a past run that finishes loading after the click would switch the panel to its Run tab.
  const editorUrl = new URL(page.url());
  editorUrl.searchParams.delete('execution');
  await page.goto(editorUrl.toString());
  await block('Create order').getByTestId('pin-badge').waitFor();
  await block('Create order').click();
  await page.getByTestId('pinned-section').waitFor();
  expect(await page.getByTestId('pinned-section').textContent()).toMatch(/"order":\s*1/);
  await page.getByRole('button', { name: 'Unpin' }).click();
  expect(await block('Create order').getByTestId('pin-badge').count()).toBe(0);
  await waitSaved();
  await runInEditor();
  expect(count('/orders')).toBe(2);
  expect(app.errors).toEqual([]);
}
