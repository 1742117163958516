// Approvals in a real browser (issue 17): a manual run that waits in the editor and is rejected there, an API run
// approved from the Approvals page with its decision in the log, a paused run cancelled from the Approvals page, and
// a manual run cancelled while it runs. The owner and the key are made through the API (journey.test.ts walks the
// setup page).
import type { Dialog, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, handle, dropBlock, dragMouse, connect, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

describe('web app journey', { timeout: 150_000 }, () => {
  it('waits for an approval in the editor, then approves a run from the Approvals page', withFailureShot('failure-approve', approveJourney));
  it('cancels a paused run from the Approvals page', withFailureShot('failure-cancel', cancelJourney));
  it('cancels a manual run while it runs', withFailureShot('failure-cancel-manual', cancelManualJourney));
});

const APPROVAL_WORKFLOW = 'Refund approval';
let approvalWorkflowId: string | undefined;

/** `Start (amount) → Approval → Reply`, created and deployed through the API with the journey's key. */
async function approvalWorkflow(): Promise<string> {
  if (approvalWorkflowId) return approvalWorkflowId;
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const block = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id,
    type,
    name,
    position: { x, y: 120 },
    enabled: true,
    config,
  });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: APPROVAL_WORKFLOW,
      state: {
        blocks: {
          start: block('start', 'api_trigger', 'Start', 0, { inputFormat: [{ name: 'amount', type: 'number', value: 120 }] }),
          ask: block('ask', 'approval', 'Approval', 260, { message: 'Refund <start.amount> EUR?', defaultDecision: 'reject' }),
          reply: block('reply', 'response', 'Reply', 520, {
            status: 200,
            body: { approved: '<approval.approved>', note: '<approval.data.note>' },
          }),
        },
        edges: [
          { id: 'e1', source: 'start', target: 'ask' },
          { id: 'e2', source: 'ask', target: 'reply' },
        ],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  const id = (created.body.data as { id: string }).id;
  expect((await keyApi(`/api/v1/workflows/${id}/deploy`, { method: 'POST' })).status).toBe(200);
  approvalWorkflowId = id;
  return id;
}

/** Runs the deployed workflow through the API: it stops at the approval block (202 paused). */
async function pausedRun(amount: number): Promise<string> {
  const id = await approvalWorkflow();
  const answer = await keyApi(`/api/workflows/${id}/execute`, { method: 'POST', body: { amount } });
  expect(answer.status).toBe(202);
  expect(answer.body).toMatchObject({ status: 'paused' });
  return answer.body.executionId as string;
}

const openApprovals = () => page.locator('.mainnav').getByRole('link', { name: 'Approvals' }).click();
const pausedCard = (executionId: string) => page.locator(`[data-testid=paused-run][data-execution-id="${executionId}"]`);
const decidedRun = (executionId: string) => page.locator(`[data-testid=decided-run][data-execution-id="${executionId}"]`);

async function approveJourney() {
  await signedIn();
  const workflowId = await approvalWorkflow();

  // ---- a manual run in the editor stops at the approval block and is decided there ---------------------------
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Approval').waitFor();
  expect(await block('Approval').textContent()).toContain('Refund <start.amount> EUR?');
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=paused]').waitFor();
  expect(await page.getByTestId('run-summary').textContent()).toBe('Waiting for approval');
  await expect.poll(() => page.getByTestId('run-approval').textContent()).toContain('Refund 120 EUR?');
  expect(await block('Approval').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('paused');
  expect(await block('Start').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('success');
  await shot('11-run-paused');
  await page.getByTestId('run-approval').getByRole('button', { name: 'Reject' }).click();
  const fromEditor = page.getByTestId('run-approval').getByTestId('decided-run');
  await fromEditor.and(page.locator('[data-state=finished]')).waitFor({ timeout: 30_000 });
  expect(await fromEditor.textContent()).toContain('Rejected');
  expect(await fromEditor.textContent()).toContain('Run finished');

  // ---- a run of the deployment waits on the Approvals page --------------------------------------------------
  const executionId = await pausedRun(250);
  await openApprovals();
  await page.getByRole('heading', { name: 'Approvals' }).waitFor();
  const card = pausedCard(executionId);
  await card.waitFor();
  expect(await card.getByTestId('paused-message').textContent()).toBe('Refund 250 EUR?');
  // The card names the workflow once the workflow list has loaded (its id until then).
  await expect.poll(() => card.textContent()).toContain(APPROVAL_WORKFLOW);
  expect(await card.getByTestId('paused-timeout').textContent()).toContain('waits until someone decides');
  await expect.poll(() => page.getByTestId('approvals-count').textContent()).toBe('1');
  await card.getByLabel('Decision note').fill('ok by finance');
  await shot('12-approvals');
  await card.getByRole('button', { name: 'Approve' }).click();

  // The run leaves the list, resumes on the worker, and its log is linked once written.
  await expect.poll(() => pausedCard(executionId).count()).toBe(0);
  await decidedRun(executionId).and(page.locator('[data-state=finished]')).waitFor({ timeout: 30_000 });
  expect(await decidedRun(executionId).textContent()).toContain('Approved');
  await expect.poll(() => page.getByTestId('approvals-count').count(), { timeout: 35_000 }).toBe(0);
  await decidedRun(executionId).getByRole('link', { name: 'Open log' }).click();

  // ---- the log: success, the decision with who made it and the note -----------------------------------------
  await page.getByTestId('log-approvals').waitFor();
  expect(await page.getByTestId('log-status').textContent()).toBe('success');
  expect(await page.locator('.stats').textContent()).toContain(executionId);
  const decision = page.getByTestId('decision');
  expect(await decision.count()).toBe(1);
  expect(await decision.getAttribute('data-block-name')).toBe('Approval');
  const decisionText = (await decision.textContent())!;
  expect(decisionText).toContain('approved');
  expect(decisionText).toContain(`by ${OWNER_EMAIL}`);
  expect(decisionText).toContain('ok by finance');
  expect(await page.getByTestId('log-approvals').textContent()).toMatch(/Paused once, waited \d/);
  expect(await page.locator('.card', { hasText: 'Final output' }).textContent()).toContain('ok by finance');
  await shot('13-log-approvals');

  expect(app.errors).toEqual([]);
}

async function cancelJourney() {
  await signedIn();
  const executionId = await pausedRun(999);
  await openApprovals();
  const card = pausedCard(executionId);
  await card.waitFor();
  expect(await card.getByTestId('paused-message').textContent()).toBe('Refund 999 EUR?');
  await card.getByRole('button', { name: 'Cancel run' }).click();
  await card.getByRole('button', { name: 'Cancel the run' }).click();
  await expect.poll(() => pausedCard(executionId).count()).toBe(0);
  await decidedRun(executionId).and(page.locator('[data-state=finished]')).waitFor({ timeout: 30_000 });
  expect(await decidedRun(executionId).textContent()).toContain('Cancelled');
  await decidedRun(executionId).getByRole('link', { name: 'Open log' }).click();
  await page.getByTestId('log-status').waitFor();
  expect(await page.getByTestId('log-status').textContent()).toBe('cancelled');
  expect(await page.getByTestId('log-error').textContent()).toContain('cancelled while it waited for an approval');
  expect(await page.getByTestId('log-approvals').textContent()).toContain('No decision was made');
  await shot('14-log-cancelled');

  expect(app.errors).toEqual([]);
}

/** A new workflow whose workflow block runs the first journey's "Order status" with an input mapping. */
/** A manual run stuck in a long wait is cancelled from the run panel: the server stops it and says so. */
async function cancelManualJourney() {
  await signedIn();
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Slow',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } },
          nap: { id: 'nap', type: 'wait', name: 'Nap', position: { x: 260, y: 0 }, enabled: true, config: { ms: 120_000 } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'nap' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  await page.goto(`${app.url}/workflows/${(created.body.data as { id: string }).id}`);
  await block('Nap').waitFor();
  await page.getByTestId('run-button').click();
  await expect.poll(() => block('Nap').locator('[data-testid=run-status]').getAttribute('data-status')).toBe('running');
  // Through the cancel API (the stream then ends with its cancelled record), not by dropping the connection.
  const cancelRequest = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/v1\/executions\/exec_\w+\/cancel$/.test(r.url()));
  await page.getByTestId('run-cancel').click();
  expect((await (await cancelRequest).response())?.status()).toBe(200);
  await page.locator('[data-testid=run-panel][data-status=cancelled]').waitFor();
  expect(await page.getByTestId('run-summary').textContent()).toContain('Run cancelled');
  await page.getByTestId('run-panel').getByRole('link', { name: 'Open log' }).click();
  await page.locator('[data-testid=log-row]').first().click();
  await page.getByTestId('log-status').waitFor();
  expect(await page.getByTestId('log-status').textContent()).toBe('cancelled');
  expect(await page.getByTestId('log-error').textContent()).toBe('Execution cancelled');
  expect(app.errors).toEqual([]);
}

