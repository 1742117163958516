// Workspace people in a real browser (issue 23 item 8): the owner invites a viewer from the Members page and copies
// the link; the invitee opens it in another browser, sets a password and lands signed in; as a viewer they are refused
// a deploy (the button disabled with the reason, and the API answering 403 with it); made an editor, they deploy.
// The sign-in page points at invite links.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
const contexts: BrowserContext[] = [];
beforeAll(() => {
  page = app.page;
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
});

const INVITEE = 'vera@example.com';
const INVITEE_PASSWORD = 'vera-password-42';
const WORKFLOW = 'Guarded echo';
const VIEWER_REFUSAL = 'Viewers cannot deploy workflows';

describe('workspace people', { timeout: 150_000 }, () => {
  it('invites a viewer by link, who is refused a deploy until made an editor', withFailureShot('failure-members', membersJourney));
  it('tells someone without an account to ask for an invite link', withFailureShot('failure-sign-in-hint', signInHintJourney));
});

async function newPage(): Promise<Page> {
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  const fresh = await context.newPage();
  fresh.setDefaultTimeout(15_000);
  return fresh;
}

async function createWorkflow(): Promise<string> {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: WORKFLOW,
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'API', position: { x: 0, y: 100 }, config: { inputFormat: [{ name: 'q', type: 'string' }] } },
          out: { id: 'out', type: 'response', name: 'Respond', position: { x: 300, y: 100 }, config: { body: { echoed: '<api.q>' } } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'out' }],
      },
    },
  });
  expect(created.status).toBe(201);
  return (created.body.data as { id: string }).id;
}

async function membersJourney() {
  const workflowId = await createWorkflow();
  await signedIn();

  // ---- the owner makes a viewer invite on the Members page and copies its link ---------------------------------
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByRole('heading', { name: /^Members · / }).waitFor();
  await page.getByLabel('Invite role').selectOption('viewer');
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const shown = (await page.getByTestId('invite-link').textContent())!;
  expect(shown).toMatch(new RegExp(`^${app.url}/invite\\?token=[A-Za-z0-9]{32}$`));
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(shown);
  await page.getByTestId('invite-row').filter({ hasText: 'viewer' }).waitFor();

  // ---- the invitee opens it in a browser of their own, sets a password and lands signed in ---------------------
  const invitee = await newPage();
  await invitee.goto(link);
  await invitee.getByRole('heading', { name: 'Join a workspace' }).waitFor();
  expect(await invitee.getByTestId('invite-offer').textContent()).toBe('You are invited to Default as a viewer.');
  await invitee.getByLabel('Email').fill(INVITEE);
  await invitee.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
  await invitee.getByLabel('Repeat password').fill(INVITEE_PASSWORD);
  await invitee.getByRole('button', { name: 'Join Default' }).click();
  await invitee.getByRole('heading', { name: 'Workflows' }).waitFor();
  await invitee.getByText(INVITEE, { exact: true }).waitFor();
  // A viewer's workflow list offers no changes, and says why.
  await invitee.getByTestId('viewer-hint').waitFor();
  expect(await invitee.getByRole('button', { name: 'New workflow' }).count()).toBe(0);
  expect(await invitee.getByRole('button', { name: 'Rename' }).count()).toBe(0);
  // The link was used: opened again it says so.
  const again = await newPage();
  await again.goto(link);
  expect(await again.getByTestId('invite-unusable').textContent()).toBe('This invite link has been used already; ask for a new one');

  // ---- as a viewer: the workflow opens read-only, and deploying is refused ---------------------------------------
  await invitee.getByRole('link', { name: WORKFLOW }).click();
  await invitee.getByTestId('view-only').waitFor();
  expect(await invitee.getByRole('button', { name: 'Rename' }).count()).toBe(0);
  expect(await invitee.getByTestId('run-button').isDisabled()).toBe(true);
  await invitee.getByRole('tab', { name: 'Deploy' }).click();
  const deploy = invitee.getByRole('button', { name: 'Deploy', exact: true });
  await deploy.waitFor();
  expect(await deploy.isDisabled()).toBe(true);
  expect(await invitee.getByTestId('viewer-hint').textContent()).toContain('Viewers cannot edit, run or deploy workflows');
  // The server refuses it too, whatever the page offers: the invitee's own session asks it directly.
  const refused = await invitee.evaluate(async (id) => {
    const session = (await (await fetch('/api/v1/auth/session')).json()) as { csrfToken: string };
    const res = await fetch(`/api/v1/workflows/${id}/deploy`, { method: 'POST', headers: { 'X-CSRF-Token': session.csrfToken } });
    return { status: res.status, body: (await res.json()) as unknown };
  }, workflowId);
  expect(refused).toEqual({ status: 403, body: { code: 'FORBIDDEN', error: VIEWER_REFUSAL } });
  // Webhook subscriptions are shown, not offered for change.
  await invitee.getByRole('tab', { name: 'Webhooks' }).click();
  await invitee.getByTestId('viewer-hint').waitFor();
  expect(await invitee.getByRole('button', { name: 'Add subscription' }).count()).toBe(0);
  await invitee.getByRole('tab', { name: 'Deploy' }).click();

  // ---- the owner makes them an editor; they deploy -------------------------------------------------------------
  const role = page.getByLabel(`Role of ${INVITEE}`);
  await page.reload();
  await role.waitFor();
  expect(await role.inputValue()).toBe('viewer');
  await Promise.all([
    page.waitForResponse((r) => r.url().includes('/members/') && r.request().method() === 'PATCH'),
    role.selectOption('editor'),
  ]);
  await page.reload();
  expect(await page.getByLabel(`Role of ${INVITEE}`).inputValue()).toBe('editor');

  await invitee.reload();
  const deployNow = invitee.getByRole('button', { name: 'Deploy', exact: true });
  await deployNow.waitFor();
  expect(await deployNow.isDisabled()).toBe(false);
  expect(await invitee.getByTestId('viewer-hint').count()).toBe(0);
  await deployNow.click();
  await invitee.getByText('Deployed version 1.').waitFor();
}

async function signInHintJourney() {
  const stranger = await newPage();
  await stranger.goto(`${app.url}/workflows`);
  await stranger.getByRole('heading', { name: 'Sign in' }).waitFor();
  expect(await stranger.getByTestId('no-account-hint').textContent()).toBe('No account? Ask a workspace owner or admin for an invite link.');
  expect(await stranger.content()).not.toContain('set-password');
}
