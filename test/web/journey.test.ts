// The web app in a real browser, walked the way a new user would (issues 9 and 15): open the setup link `sluice serve`
// prints on first run, create the owner account, get an API key from Settings (no server stop), sign out and in,
// build `api_trigger → api → condition → two responses`, run it manually, deploy (and redeploy / roll back), call it
// with the curl example from the API tab, subscribe a webhook and see its deliveries, read the log's waterfall, and
// manage keys in settings; then call that workflow from another one. The approval journeys are in approvals.test.ts,
// the editor's building journeys in editor-building.test.ts. Screenshots of every page go to test/web/screenshots/
// (git-ignored) for people to look at.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryChunks, OWNER_EMAIL, OWNER_PASSWORD, pageTools, setupLink, useBrowserApp } from './support/browser-app.js';

const WEBHOOK_SECRET = 'whsec-journey-0123';
const run = promisify(execFile);

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const app = useBrowserApp();
const { shot, block, handle, dropBlock, dragMouse, connect, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

let upstream: Server;
let receiver: Server;
let upstreamUrl: string;
let receiverUrl: string;
const received: Received[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function curl(code: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', code], { timeout: 20_000 });
  return stdout;
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const id = /\/orders\/(\w+)/.exec(req.url ?? '')?.[1];
    res.writeHead(id ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(id ? { id, status: 'shipped' } : { error: 'no such order' }));
  });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  upstreamUrl = await listen(upstream);
  receiverUrl = await listen(receiver);
});

afterAll(async () => {
  await new Promise((done) => upstream?.close(done));
  await new Promise((done) => receiver?.close(done));
});

describe('web app journey', { timeout: 150_000 }, () => {
  it('loads the sign-in page with under 250 KB of JavaScript', withFailureShot('failure-first-load', firstLoadJourney));
  it('signs in, builds, runs, deploys, calls, subscribes and inspects a workflow', withFailureShot('failure', journey));
  it('runs another workflow from a workflow block', withFailureShot('failure-sub-workflow', subWorkflowJourney));
});

/** Issue 22: the sign-in page loads React, the API client and its own few pages; the signed-in app comes later. */
const FIRST_LOAD_LIMIT = 250_000;


async function firstLoadJourney() {
  const context = await app.browser.newContext();
  try {
    const fresh = await context.newPage();
    const scripts = new Map<string, number>();
    const reads: Promise<unknown>[] = [];
    fresh.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.endsWith('.js')) reads.push(response.body().then((body) => scripts.set(url.pathname.slice(1), body.length)));
    });
    await fresh.goto(`${app.url}/workflows`);
    await fresh.getByRole('heading', { name: 'Sign in' }).waitFor();
    await fresh.waitForLoadState('networkidle');
    await Promise.all(reads);
    // What the browser fetched is what the manifest says the entry needs: no page chunk, no TanStack Query.
    expect([...scripts.keys()].sort()).toEqual(entryChunks().sort());
    const total = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect(total, `the sign-in page loads ${total} bytes of JavaScript`).toBeLessThan(FIRST_LOAD_LIMIT);
  } finally {
    await context.close();
  }
}

async function journey() {
    const base = app.url;

    // ---- first run: the setup link the server printed, the owner account, a key -------------------------------
    const link = await setupLink(app.sluice);
    await page.goto(`${base}/workflows`);
    await page.getByTestId('setup-hint').waitFor();
    await page.goto(`${base}/setup?token=not-the-token`);
    await page.getByTestId('setup-bad-link').waitFor();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set up Sluice' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(OWNER_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(OWNER_PASSWORD);
    await page.getByLabel('Repeat password').fill(OWNER_PASSWORD);
    await shot('00-setup');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Key name').fill('first key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const firstKey = (await page.getByTestId('created-key').locator('code').textContent())!;
    app.apiKey = firstKey;
    const me = await fetch(`${base}/api/v1/me`, { headers: { 'X-API-Key': firstKey } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(OWNER_EMAIL);
    // The link opens nothing now.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByTestId('setup-hint').count()).toBe(0);
    await page.goto(link);
    await page.getByTestId('setup-done').waitFor();

    // ---- sign in ---------------------------------------------------------------------------------------------
    await page.goto(`${base}/workflows`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot('01-sign-in');
    await page.getByLabel('Email').fill(OWNER_EMAIL);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid email or password');
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();

    // ---- create a workflow -----------------------------------------------------------------------------------
    await page.getByLabel('New workflow name').fill('Order status');
    await page.getByRole('button', { name: 'New workflow' }).click();
    await block('Start').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/workflows\/wf_/);
    const workflowId = new URL(page.url()).pathname.split('/')[2];

    // Input Format with its value column (used by manual runs).
    await block('Start').click();
    await page.getByRole('button', { name: '+ Add field' }).click();
    await page.getByLabel('Field 1 name').fill('orderId');
    await page.getByLabel('Field 1 value').fill('42');

    // ---- build: api → condition → two responses --------------------------------------------------------------
    await page.getByRole('button', { name: 'zoom out' }).click();
    await page.getByRole('button', { name: 'zoom out' }).click();
    // Start on the left, the rest in columns to its right (pane coordinates; zoomed out to fit 1280×800).
    await dragMouse(block('Start').locator('.block-name'), 100, 300);

    await dropBlock('api', 240, 280);
    await page.getByLabel('Block name').fill('Fetch');
    const url = page.getByLabel('URL', { exact: true });
    await url.fill(`${upstreamUrl}/orders/`);
    await url.pressSequentially('<st');
    await expect.poll(() => page.locator('.suggestions li').first().textContent()).toContain('<start.orderId>');
    await page.keyboard.press('Enter');
    await expect.poll(() => url.inputValue()).toBe(`${upstreamUrl}/orders/<start.orderId>`);
    // Its policy: one more attempt if it fails; the log's trace then lists every attempt.
    await page.getByTestId('policy').locator('summary').click();
    await page.getByLabel('Retry on failure').check();
    await page.getByLabel('Max attempts').selectOption('2');
    await expect.poll(() => page.getByTestId('policy').locator('summary').textContent()).toContain('up to 2 attempts');
    await shot('03a-block-policy');

    await dropBlock('condition', 425, 280);
    await page.getByLabel('Block name').fill('Check');
    await page.getByLabel('Condition 1 expression').fill('<fetch.status> === 200');

    await dropBlock('response', 605, 170);
    await page.getByLabel('Block name').fill('Ok');
    await page.getByLabel('Body (JSON)').fill('{"order": "<fetch.data.id>", "state": "<fetch.data.status>"}');

    await dropBlock('response', 605, 400);
    await page.getByLabel('Block name').fill('Fail');
    await page.getByLabel('Status').fill('502');
    await page.getByLabel('Body (JSON)').fill('{"error": "upstream failed"}');

    await connect(handle('Start', 'source'), handle('Fetch', 'target'));
    await connect(handle('Fetch', 'source'), handle('Check', 'target'));
    await connect(block('Check').locator('.cond-handle').nth(0), handle('Ok', 'target'));
    await connect(block('Check').locator('.cond-handle').nth(1), handle('Fail', 'target'));
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(4);

    // Keyboard: delete a block, undo brings it (and its connection) back.
    await block('Fail').click();
    await page.keyboard.press('Delete');
    await expect.poll(() => block('Fail').count()).toBe(0);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    await page.keyboard.press('Control+z');
    await expect.poll(() => block('Fail').count()).toBe(1);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(4);

    // An invalid state is shown on the block it concerns, and not saved.
    await block('Ok').click();
    await page.getByLabel('Block name').fill('Fetch');
    await page.locator('[data-testid=save-state][data-status=invalid]').waitFor();
    await expect.poll(() => block('Fetch').locator('[data-testid=node-problems]').count()).toBeGreaterThan(0);
    // Leaving through the top navigation with that change not saved asks first (#23.2); staying keeps it.
    const asked: string[] = [];
    const answer = (dialog: Dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      // Stay in the app when it asks; let the reload below go ahead when the browser asks.
      void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss());
    };
    page.on('dialog', answer);
    await page.getByRole('link', { name: 'Logs' }).click();
    await expect.poll(() => asked.join()).toContain('confirm: This workflow has changes that are not saved');
    expect(new URL(page.url()).pathname).toBe(`/workflows/${workflowId}`);
    await page.locator('[data-testid=save-state][data-status=invalid]').waitFor();
    // A closed tab or a crash loses nothing either: the change was kept in the browser and is offered back.
    await page.reload();
    await page.getByTestId('local-draft').waitFor();
    page.off('dialog', answer);
    await page.getByRole('button', { name: 'Restore them' }).click();
    await page.locator('[data-testid=save-state][data-status=invalid]').waitFor();
    await block('Fetch').nth(1).waitFor();
    await page.getByRole('button', { name: 'fit view' }).click();
    await block('Fetch').nth(1).click();
    await page.getByLabel('Block name').fill('Ok');
    await page.getByRole('button', { name: 'fit view' }).click();
    await waitSaved();
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await shot('03-editor');

    // ---- manual run with live per-block status ---------------------------------------------------------------
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
    for (const name of ['Start', 'Fetch', 'Check', 'Ok']) {
      expect(await block(name).locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
    }
    expect(await block('Fail').locator('[data-testid=run-status]').count()).toBe(0);
    expect(await page.getByTestId('run-panel').textContent()).toContain('shipped');
    await shot('04-manual-run');

    // ---- rename a referenced block: its references follow, the run still succeeds, one undo puts it back (#23.1)
    await block('Fetch').click();
    const nameField = page.getByLabel('Block name');
    await nameField.fill('');
    await nameField.pressSequentially('Load Order');
    await expect.poll(() => block('Check').textContent()).toContain('<loadorder.status> === 200');
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await waitSaved();
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
    expect(await block('Load Order').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
    expect(await block('Ok').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
    expect(await page.getByTestId('run-panel').textContent()).toContain('shipped');
    await page.keyboard.press('Control+z');
    await block('Fetch').waitFor();
    await expect.poll(() => block('Check').textContent()).toContain('<fetch.status> === 200');
    await waitSaved();

    // ---- a block that reports an error without failing the run is said so, its error first (#23.6) -----------
    await block('Start').click();
    await page.getByLabel('Field 1 value').fill('');
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await waitSaved();
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
    expect(await page.getByTestId('run-summary').textContent()).toContain('Succeeded — 1 block reported an error');
    expect(await page.getByTestId('run-reported-error').textContent()).toMatch(/^Fetch: HTTP 404/);
    expect(await block('Fail').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
    await block('Start').click();
    await page.getByLabel('Field 1 value').fill('42');
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await waitSaved();

    // ---- another tab saves a different draft: the editor notices instead of overwriting it -------------------
    await page.evaluate(async (id) => {
      const { csrfToken } = (await (await fetch('/api/v1/auth/session')).json()) as { csrfToken: string };
      const { data } = (await (await fetch(`/api/v1/workflows/${id}`)).json()) as {
        data: { state: { blocks: Record<string, { name: string; config: Record<string, unknown> }> } };
      };
      Object.values(data.state.blocks).find((b) => b.name === 'Fail')!.config.status = 504;
      await fetch(`/api/v1/workflows/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ state: data.state }),
      });
    }, workflowId);
    await block('Check').click();
    await page.getByLabel('Condition 1 expression').fill('<fetch.status> == 200');
    await page.locator('[data-testid=save-state][data-status=conflict]').waitFor();
    await page.getByRole('button', { name: 'Load their version' }).click();
    await expect.poll(() => block('Fail').textContent()).toContain('Status 504');
    await expect.poll(() => block('Check').textContent()).toContain('=== 200');

    // ---- deploy, change, redeploy, roll back -----------------------------------------------------------------
    await page.getByRole('tab', { name: 'Deploy' }).click();
    await page.getByTestId('deploy-button').click();
    await expect.poll(() => page.getByTestId('deploy-badge').textContent()).toBe('Deployed v1');

    await page.getByRole('tab', { name: 'Editor' }).click();
    await block('Fail').click();
    await page.getByLabel('Status').fill('503');
    await waitSaved();
    await expect.poll(() => page.getByTestId('deploy-badge').textContent()).toContain('needs redeployment');
    await page.getByRole('tab', { name: 'Deploy' }).click();
    await page.getByRole('button', { name: 'Redeploy' }).click();
    await expect.poll(() => page.getByTestId('deploy-badge').textContent()).toBe('Deployed v2');
    await page.getByRole('button', { name: 'Roll back to this' }).click();
    await expect.poll(() => page.getByTestId('deploy-badge').textContent()).toContain('Deployed v1');
    await expect.poll(() => page.getByTestId('deploy-state').textContent()).toContain('Needs redeployment');
    await shot('05-deploy');
    await page.getByRole('button', { name: 'Redeploy' }).click();
    await expect.poll(() => page.getByTestId('deploy-badge').textContent()).toBe('Deployed v3');

    // ---- API tab: the curl examples work as printed ----------------------------------------------------------
    await page.getByRole('tab', { name: 'API' }).click();
    await expect.poll(() => page.getByTestId('execute-url').textContent()).toContain(`/api/workflows/${workflowId}/execute`);
    await page.getByTestId('create-key').click();
    const newKey = (await page.getByTestId('new-key').locator('code').textContent())!;
    expect(newKey).toMatch(/^sk-sluice-[A-Za-z0-9]+$/);
    const plain = (await page.getByTestId('curl-plain').locator('pre').textContent())!;
    expect(JSON.parse(await curl(plain))).toEqual({ order: '42', state: 'shipped' });
    const streaming = (await page.getByTestId('curl-stream').locator('pre').textContent())!;
    const events = await curl(streaming);
    expect(events).toContain('"event":"done"');
    expect(events.trim().endsWith('data: [DONE]')).toBe(true);
    const asyncExample = (await page.getByTestId('curl-async').locator('pre').textContent())!;
    const queued = JSON.parse(await curl(asyncExample.split('\n\n')[0]));
    expect(queued).toMatchObject({ success: true, async: true, status: 'queued' });
    await page.getByLabel('API key').selectOption({ index: 0 });
    await shot('06-api-tab');
    // The picker never offers an existing key's secret.
    await page.reload();
    await page.getByTestId('curl-plain').waitFor();
    expect(await page.content()).not.toContain(newKey);

    // ---- webhook subscription with deliveries ----------------------------------------------------------------
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByTestId('new-subscription').click();
    await page.getByLabel('Webhook URL').fill(`${receiverUrl}/hooks`);
    await page.getByLabel('Signing secret').fill(WEBHOOK_SECRET);
    await page.getByLabel('Final output').check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('subscription').waitFor();
    await page.getByTestId('send-test').click();
    await page.locator('[data-testid=delivery][data-status=succeeded]').first().waitFor({ timeout: 20_000 });
    // A real run is delivered too, signed with the secret.
    expect(JSON.parse(await curl(plain))).toEqual({ order: '42', state: 'shipped' });
    await expect.poll(() => page.locator('[data-testid=delivery][data-status=succeeded]').count(), { timeout: 20_000 }).toBe(2);
    const delivered = received.find((r) => r.headers['service-test'] === undefined)!;
    const [t, v1] = String(delivered.headers['service-signature']).split(',').map((p) => p.split('=')[1]);
    expect(createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${delivered.body}`).digest('hex')).toBe(v1);
    expect(JSON.parse(delivered.body).data.finalOutput).toBeDefined();
    await page.locator('[data-testid=delivery]').first().locator('summary').click();
    await shot('07-webhooks');

    // ---- logs: list, detail with the waterfall ---------------------------------------------------------------
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.getByTestId('logs-table').waitFor();
    expect(await page.locator('[data-testid=log-row][data-trigger=manual]').count()).toBeGreaterThan(0);
    // Which deployment ran: the draft for manual runs, the active version (v3) for the API calls.
    expect(await page.locator('[data-testid=log-row][data-trigger=manual]').first().getAttribute('data-version')).toBe('draft');
    expect(await page.locator('[data-testid=log-row][data-trigger=api]').first().getAttribute('data-version')).toBe('3');
    await shot('08-logs');
    await page.locator('[data-testid=log-row][data-trigger=api]').first().click();
    await page.getByTestId('waterfall').waitFor();
    for (const name of ['Start', 'Fetch', 'Check', 'Ok', 'Fetch attempt 1']) {
      expect(await page.locator(`[data-testid=span-row][data-span-name="${name}"]`).count()).toBe(1);
    }
    await page.locator('[data-testid=span-row][data-span-name="Fetch"]').click();
    expect(await page.locator('.span-detail').textContent()).toContain('shipped');
    await shot('09-log-detail');

    // ---- settings: keys by hint only, env vars masked --------------------------------------------------------
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('api-keys').getByTestId('key-row').first().waitFor();
    expect(await page.content()).not.toContain(newKey);
    await page.getByLabel('Variable name').fill('ORDER_API_TOKEN');
    await page.getByLabel('Variable value').fill('s3cret-value');
    await page.getByRole('button', { name: 'Save variable' }).click();
    await page.getByTestId('env-vars').getByText('ORDER_API_TOKEN').waitFor();
    expect(await page.content()).not.toContain('s3cret-value');
    await shot('10-settings');

    // ---- the workflow list, then sign out ----------------------------------------------------------------------
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByTestId('workflow-row').first().waitFor();
    await expect.poll(() => page.getByTestId('workflow-row').first().textContent()).toContain('Deployed v3');
    await shot('02-workflow-list');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const after = await fetch(`${base}/api/v1/me`, { headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } });
    expect(after.status).toBe(401);

    expect(app.errors).toEqual([]);
}

// ---- approvals (issue 17): a workflow with an approval block, decided and cancelled in the web app -------------

async function subWorkflowJourney() {
  await signedIn();
  await page.getByLabel('New workflow name').fill('Caller');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await block('Start').waitFor();
  await dropBlock('workflow', 460, 160);
  await page.getByLabel('Workflow', { exact: true }).selectOption({ label: 'Order status' });
  await page.getByRole('button', { name: '+ Add its fields (orderId)' }).click();
  expect(await page.getByLabel('Input (Input Format field → value) field 1').inputValue()).toBe('orderId');
  await page.getByLabel('Input (Input Format field → value) value 1').fill('42');
  await connect(handle('Start', 'source'), handle('Workflow 1', 'target'));
  await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(1);
  await waitSaved();
  expect(await block('Workflow 1').textContent()).toContain('→ Order status · 1 input');
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
  expect(await block('Workflow 1').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
  expect(await page.getByTestId('run-panel').textContent()).toContain('shipped');
  await shot('15-sub-workflow');
  expect(app.errors).toEqual([]);
}

