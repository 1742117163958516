// Stored credentials in a real browser (issue 26): the owner creates an http bearer credential on the Credentials page,
// sees it listed without its token, tests it, rotates the token (the form never shows the stored one), renames it,
// picks it in an API block's Credential field, and deletes it after confirming.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { signedIn, keyApi, block, waitSaved, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

const FIRST_TOKEN = 'browser-token-first-7d1e';
const ROTATED_TOKEN = 'browser-token-rotated-2b9f';

describe('credentials page', { timeout: 150_000 }, () => {
  it('creates, lists without the secret, tests, rotates, renames, picks in a block and deletes a credential', withFailureShot('failure-credentials', journey));
  it('shows a viewer the list read-only, with the reason', withFailureShot('failure-credentials-viewer', viewerJourney));
});

async function viewerJourney() {
  const workspace = await workspaceId();
  const created = await keyApi('/api/v1/credentials', {
    method: 'POST',
    body: { workspaceId: workspace, name: 'Shared DB', type: 'postgres', data: { host: 'db.internal', user: 'app', password: 'viewer-never-sees', database: 'orders' } },
  });
  expect(created.status).toBe(201);
  const invite = await keyApi(`/api/v1/workspaces/${workspace}/invites`, { method: 'POST', body: { role: 'viewer' } });
  const token = new URL((invite.body.data as { url: string }).url).searchParams.get('token');
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const viewer = await context.newPage();
    viewer.setDefaultTimeout(15_000);
    await viewer.goto(`${app.url}/invite?token=${token}`);
    await viewer.getByLabel('Email').fill('viewer@example.com');
    await viewer.getByLabel('Password', { exact: true }).fill('viewer-password-42');
    await viewer.getByLabel('Repeat password').fill('viewer-password-42');
    await viewer.getByRole('button', { name: /^Join / }).click();
    await viewer.getByRole('heading', { name: 'Workflows' }).waitFor();
    await viewer.getByRole('link', { name: 'Credentials' }).click();
    const row = viewer.getByTestId('credential-row').filter({ hasText: 'Shared DB' });
    await row.waitFor();
    expect(await row.textContent()).toContain('host: db.internal');
    expect(await row.textContent()).toContain('password set');
    expect(await viewer.getByTestId('credentials-hint').textContent()).toContain('Viewers see the credentials but cannot create, test, change or delete them');
    expect(await viewer.getByRole('button', { name: 'New credential' }).count()).toBe(0);
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await viewer.content()).not.toContain('viewer-never-sees');
  } finally {
    await context.close();
  }
}

async function journey() {
  await signedIn();
  await page.getByRole('link', { name: 'Credentials' }).click();
  await page.getByRole('heading', { name: /^Credentials · / }).waitFor();
  await page.getByText('No credentials yet.').waitFor();

  // ---- create an http bearer credential ------------------------------------------------------------------------
  await page.getByRole('button', { name: 'New credential' }).click();
  const form = page.getByTestId('credential-form');
  await form.getByLabel('Credential name').fill('Orders API');
  await form.getByLabel('Credential type').selectOption('http');
  await form.getByLabel('Scheme').selectOption('bearer');
  const tokenInput = form.getByLabel('Token');
  expect(await tokenInput.getAttribute('type')).toBe('password');
  await tokenInput.fill(FIRST_TOKEN);
  await form.getByRole('button', { name: 'Save credential' }).click();

  const row = page.getByTestId('credential-row').filter({ hasText: 'Orders API' });
  await row.waitFor();
  await expect.poll(() => row.textContent()).toContain('token set');
  expect(await row.textContent()).toContain('scheme: bearer');
  expect(await page.content()).not.toContain(FIRST_TOKEN);

  // ---- test it ---------------------------------------------------------------------------------------------------
  await row.getByRole('button', { name: 'Test' }).click();
  await expect.poll(() => row.getByTestId('credential-test-result').textContent()).toContain('ok bearer credential: applied to each request');

  // ---- rotate the token and rename: the form shows no stored secret, and sends only what changed ----------------
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByTestId('credential-form');
  expect(await edit.getByLabel('Token').inputValue()).toBe('');
  expect(await edit.getByLabel('Token').getAttribute('placeholder')).toBe('set: leave empty to keep it');
  await edit.getByLabel('Credential name').fill('Orders API (prod)');
  await edit.getByLabel('Token').fill(ROTATED_TOKEN);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const renamed = page.getByTestId('credential-row').filter({ hasText: 'Orders API (prod)' });
  await expect.poll(() => renamed.textContent()).toContain('(v2)');
  expect(await page.content()).not.toContain(ROTATED_TOKEN);

  const listed = await keyApi(`/api/v1/credentials?workspaceId=${await workspaceId()}`);
  const stored = (listed.body.data as Array<{ id: string; name: string; version: number; fields: Record<string, unknown> }>)[0];
  expect(stored).toMatchObject({ name: 'Orders API (prod)', version: 2, fields: { scheme: 'bearer' } });

  // ---- the API block's Credential field offers it ------------------------------------------------------------------
  const workflowId = await apiWorkflow();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Fetch').click();
  const panel = page.getByTestId('config-panel');
  await panel.getByLabel('Credential (optional)').selectOption({ label: 'Orders API (prod) (http)' });
  await waitSaved();
  const saved = await keyApi(`/api/v1/workflows/${workflowId}`);
  expect((saved.body.data as { state: { blocks: Record<string, { config: Record<string, unknown> }> } }).state.blocks.fetch.config.credentialId).toBe(stored.id);

  // ---- delete, after confirming ------------------------------------------------------------------------------------
  await page.getByRole('link', { name: 'Credentials' }).click();
  const toDelete = page.getByTestId('credential-row').filter({ hasText: 'Orders API (prod)' });
  await toDelete.getByRole('button', { name: 'Delete', exact: true }).click();
  await toDelete.getByRole('button', { name: 'Delete Orders API (prod)' }).click();
  await page.getByText('No credentials yet.').waitFor();
  expect(app.errors).toEqual([]);
}

async function workspaceId(): Promise<string> {
  const workspaces = await keyApi('/api/v1/workspaces');
  return (workspaces.body.data as Array<{ id: string }>)[0].id;
}

async function apiWorkflow(): Promise<string> {
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId: await workspaceId(),
      name: 'Calls with a credential',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 100 }, config: { inputFormat: [] } },
          fetch: { id: 'fetch', type: 'api', name: 'Fetch', position: { x: 300, y: 100 }, config: { url: 'https://example.com/orders', method: 'GET' } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'fetch' }],
      },
    },
  });
  expect(created.status).toBe(201);
  return (created.body.data as { id: string }).id;
}
