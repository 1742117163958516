// Building in the editor (issue 23): palette placement and Arrange, palette search and the keyboard only, copy and
// paste across workflows, export / import / duplicate from the list, dark mode, a workflow's Executions tab and a
// failed run opened on the canvas, and a panel that fails to render. The owner and the key are made through the API.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, handle, dropBlock, dragMouse, connect, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

let upstream: Server;
let upstreamUrl: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sluice-web-files-'));
  upstream = createServer((req, res) => {
    const id = /\/orders\/(\w+)/.exec(req.url ?? '')?.[1];
    res.writeHead(id ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(id ? { id, status: 'shipped' } : { error: 'no such order' }));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => upstream?.close(done));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('web app journey', { timeout: 150_000 }, () => {
  it('places palette blocks beside the last one, connected, and arranges the graph', withFailureShot('failure-placement', placementJourney));
  it('builds a workflow with palette search and the keyboard only', withFailureShot('failure-keyboard', keyboardJourney));
  it('copies blocks into another workflow, duplicates them, and shows the shortcuts', withFailureShot('failure-clipboard', clipboardJourney));
  it('exports, imports and duplicates workflows from the list, and switches to dark mode', withFailureShot('failure-list', workflowListJourney));
  it('lists a workflow\'s runs and opens a failed one from its log on the canvas', withFailureShot('failure-executions', executionsJourney));
  it('keeps the app when one panel fails to render', withFailureShot('failure-panel', panelFailureJourney));
});

/** Blocks added by clicking the palette land beside the selected (or last) block, connected; Arrange tidies up (#23.3). */
async function placementJourney() {
  await signedIn();
  await page.getByLabel('New workflow name').fill('Placed');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await block('Start').waitFor();
  await page.getByTestId('palette-api').click();
  await page.getByLabel('URL', { exact: true }).fill(`${upstreamUrl}/orders/7`);
  await page.getByTestId('palette-response').click();
  await page.getByLabel('Body (JSON)').fill('{"state": "<api1.data.status>"}');
  await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
  const boxes = await Promise.all(['Start', 'API 1', 'Response 1'].map(async (name) => (await block(name).boundingBox())!));
  // Left to right, none on another.
  expect(boxes[0].x + boxes[0].width).toBeLessThan(boxes[1].x);
  expect(boxes[1].x + boxes[1].width).toBeLessThan(boxes[2].x);
  await waitSaved();
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
  expect(await page.getByTestId('run-panel').textContent()).toContain('shipped');

  // Piled up by hand, then arranged: left to right again, and all of it in view, clear of the minimap.
  await page.getByRole('tab', { name: 'Editor' }).click();
  await dragMouse(block('Response 1').locator('.block-name'), 200, 200);
  await dragMouse(block('API 1').locator('.block-name'), 210, 210);
  await page.getByRole('button', { name: 'Arrange' }).click();
  await expect
    .poll(async () => {
      const [a, b, c] = await Promise.all(['Start', 'API 1', 'Response 1'].map(async (name) => (await block(name).boundingBox())!));
      return a.x + a.width < b.x && b.x + b.width < c.x;
    })
    .toBe(true);
  // The view is fitted with a short animation: wait until it settles with every block in sight.
  const outOfSight = async () => {
    const minimap = (await page.locator('.react-flow__minimap').boundingBox())!;
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    const hidden: string[] = [];
    for (const name of ['Start', 'API 1', 'Response 1']) {
      const b = (await block(name).boundingBox())!;
      if (!(b.x >= pane.x && b.y >= pane.y && b.x + b.width <= pane.x + pane.width && b.y + b.height <= pane.y + pane.height)) hidden.push(`${name} outside`);
      if (b.x + b.width > minimap.x && b.y + b.height > minimap.y) hidden.push(`${name} under the minimap`);
    }
    return hidden;
  };
  await expect.poll(outOfSight).toEqual([]);
  await shot('16-arranged');
  expect(app.errors).toEqual([]);
}

/** Presses Tab until the field labelled `label` has the focus (keyboard only). */
async function tabTo(label: string) {
  const field = page.getByLabel(label, { exact: true });
  for (let i = 0; i < 40; i++) {
    if (await field.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${label}`);
}

/** `/` to search the palette, Enter to add beside the last block (connected), type its settings, Escape (#23.4). */
async function keyboardJourney() {
  await signedIn();
  await page.getByLabel('New workflow name').fill('Keyboard');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await block('Start').waitFor();
  const add = async (query: string, name: string) => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type(query);
    await page.keyboard.press('Enter');
    // The new block's name takes the keyboard.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Block name');
    await page.keyboard.press('Control+a');
    await page.keyboard.type(name);
  };
  await add('api', 'Fetch');
  await tabTo('URL');
  await page.keyboard.type(`${upstreamUrl}/orders/9`);
  await add('condit', 'Check');
  await tabTo('Condition 1 expression');
  await page.keyboard.type('<fetch.status> === 200');
  await add('respo', 'Ok');
  await tabTo('Body (JSON)');
  await page.keyboard.type('{"state": "<fetch.data.status>"}');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
  await waitSaved();
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
  for (const name of ['Start', 'Fetch', 'Check', 'Ok']) {
    expect(await block(name).locator('[data-testid=run-status]').getAttribute('data-status'), name).toBe('success');
  }
  expect(await page.getByTestId('run-panel').textContent()).toContain('shipped');
  await shot('17-keyboard-built');
  expect(app.errors).toEqual([]);
}

/** Ctrl+A, Ctrl+C in one workflow, Ctrl+V in another; Ctrl+D; the context menu; `?` lists the shortcuts (#23.4). */
async function clipboardJourney() {
  await signedIn();
  await page.getByRole('link', { name: 'Keyboard' }).click();
  await block('Check').waitFor();
  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('Control+a');
  await expect.poll(() => page.locator('.react-flow__node.selected').count()).toBe(4);
  await page.keyboard.press('Control+c');

  await page.locator('.topbar').getByRole('link', { name: 'Workflows' }).click();
  await page.getByLabel('New workflow name').fill('Pasted');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await block('Start').waitFor();
  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('Control+v');
  // Its own API trigger stays the only one; the three blocks come with the connections among them.
  for (const name of ['Fetch', 'Check', 'Ok']) await block(name).waitFor();
  await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
  expect(await block('Start').count()).toBe(1);
  await waitSaved();

  // Duplicate from the keyboard: new names, and the copy's condition reads the copy's Fetch.
  await page.keyboard.press('Control+d');
  await block('Fetch 1').waitFor();
  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await block('Check 1').click();
  // A code field (CodeMirror): its text is the content's, not an input's value.
  await expect.poll(() => page.getByLabel('Condition 1 expression').textContent()).toBe('<fetch1.status> === 200');
  // Undo takes the whole duplicate back.
  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('Control+z');
  await expect.poll(() => block('Fetch 1').count()).toBe(0);

  // The block menu: Duplicate.
  await block('Ok').click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Duplicate/ }).click();
  await block('Ok 1').waitFor();
  // The shortcut list.
  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  expect(await sheet.textContent()).toContain('Duplicate the selected blocks');
  await shot('18-shortcuts');
  await page.keyboard.press('Escape');
  await expect.poll(() => sheet.count()).toBe(0);
  await waitSaved();
  expect(app.errors).toEqual([]);
}

/** The workflow list: Export downloads the document, Import brings it back, Duplicate copies; dark mode; /docs (#23.9). */
async function workflowListJourney() {
  await signedIn();
  const rows = page.getByTestId('workflow-row');
  await page.getByRole('link', { name: 'Keyboard', exact: true }).waitFor();
  const before = await rows.count();
  await page.getByRole('button', { name: 'Duplicate Keyboard' }).click();
  await page.getByRole('link', { name: 'Keyboard (copy)' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Keyboard', exact: true }).click()]);
  const file = join(dataDir, 'exported.workflow.json');
  await download.saveAs(file);
  expect(download.suggestedFilename()).toBe('Keyboard.workflow.json');
  await page.getByLabel('Import workflow file').setInputFiles(file);
  await expect.poll(() => rows.count()).toBe(before + 2);
  // The imported copy is the same workflow: it opens with its blocks.
  await page.getByRole('link', { name: 'Keyboard', exact: true }).last().click();
  for (const name of ['Start', 'Fetch', 'Check', 'Ok']) await block(name).waitFor();

  expect(await page.getByRole('link', { name: 'API docs' }).getAttribute('href')).toBe('/docs');
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const light = await background();
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await expect.poll(background).not.toBe(light);
  await shot('19-dark-editor');
  // Kept across a reload; back to light for the journeys after this one.
  await page.reload();
  await block('Start').waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  expect(app.errors).toEqual([]);
}

/** The Executions tab lists a workflow's runs; "Open in editor" on a failed run's log shows its blocks on the canvas (#23.7). */
async function executionsJourney() {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const stateBlock = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id, type, name, position: { x, y: 120 }, enabled: true, config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Sometimes fails',
      state: {
        blocks: {
          start: stateBlock('start', 'api_trigger', 'Start', 0, { inputFormat: [{ name: 'fail', type: 'boolean' }] }),
          work: stateBlock('work', 'function', 'Work', 260, { code: 'if (<start.fail>) throw new Error("the order was lost"); return "done";' }),
        },
        edges: [{ id: 'e1', source: 'start', target: 'work' }],
        loops: {},
        parallels: {},
      },
    },
  });
  const id = (created.body.data as { id: string }).id;
  await keyApi(`/api/v1/workflows/${id}/deploy`, { method: 'POST' });
  await keyApi(`/api/workflows/${id}/execute`, { method: 'POST', body: { fail: false } });
  const failed = await keyApi(`/api/workflows/${id}/execute`, { method: 'POST', body: { fail: true } });
  const executionId = (failed.body as { executionId: string }).executionId;

  await signedIn();
  await page.goto(`${app.url}/workflows/${id}/executions`);
  const rows = page.getByTestId('execution-row');
  await expect.poll(() => rows.count()).toBe(2);
  await page.getByLabel('Filter by outcome').selectOption('error');
  await expect.poll(() => rows.count()).toBe(1);
  expect(await rows.first().textContent()).toContain(executionId);
  expect(await rows.first().textContent()).toContain('v1');

  // From the failed run's log back to the editor: the failing block and its error are on the canvas.
  await rows.first().getByRole('link', { name: 'Log' }).click();
  await page.getByRole('link', { name: 'Open in editor' }).click();
  await page.getByTestId('past-run').waitFor();
  await expect.poll(() => page.getByTestId('past-run').textContent()).toContain(executionId);
  await expect.poll(() => block('Work').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('error');
  expect(await block('Start').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
  await expect.poll(() => page.getByTestId('run-panel').textContent()).toContain('the order was lost');
  await shot('20-past-run');
  await page.getByRole('button', { name: 'Back to editing' }).click();
  await expect.poll(() => page.getByTestId('past-run').count()).toBe(0);
  expect(new URL(page.url()).search).toBe('');
  expect(app.errors).toEqual([]);
}

/**
 * Issue 22: a panel that fails to render (here: answers the app does not expect, made by intercepting them) shows its
 * error with Reload, and the rest of the app — top bar, canvas, palette, the other tabs — stays and works.
 */
async function panelFailureJourney() {
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const create = async (name: string) => {
    const start = { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 80, y: 200 }, enabled: true, config: { inputFormat: [] } };
    const state = { blocks: { start }, edges: [], loops: {}, parallels: {} };
    return ((await keyApi('/api/v1/workflows', { method: 'POST', body: { workspaceId, name, state } })).body.data as { id: string }).id;
  };
  const childId = await create('Panel child');
  const workflowId = await create('Panels');

  await signedIn();
  // The child's answer without its draft: the workflow block's form cannot read the child's Input Format.
  await page.route(`**/api/v1/workflows/${childId}`, (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { data: { id: childId } } }) : route.fallback(),
  );
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Start').waitFor();
  await dropBlock('workflow', 460, 160);
  await page.getByLabel('Workflow', { exact: true }).selectOption(childId);
  const failure = page.getByTestId('error-boundary');
  await failure.waitFor();
  expect(await failure.textContent()).toContain('This panel failed');
  await shot('40-panel-failure');
  expect(await failure.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
  expect(await page.getByTestId('palette-function').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Logs' }).isVisible()).toBe(true);
  // Another block's panel works: selecting it clears the failure.
  await block('Start').click();
  await expect.poll(() => failure.count()).toBe(0);
  await waitSaved();

  // A tab whose list has entries the app cannot show: the tab fails, the editor beside it stays.
  await page.route('**/api/v1/workflows/*/webhooks', (route) => route.fulfill({ json: { data: [{ id: 'whsub_broken' }] } }));
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await failure.waitFor();
  expect(await failure.textContent()).toContain('This tab failed');
  await failure.getByRole('link', { name: 'Back to the editor' }).click();
  await block('Start').waitFor();
  expect(await block('Workflow 1').isVisible()).toBe(true);
  expect(await failure.count()).toBe(0);
  await page.unrouteAll();
  expect(app.errors).toEqual([]);
}

