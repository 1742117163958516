// Approval of an agent's tool call in a real browser (issue 25 item 6): the editor marks a tool as needing approval;
// a run whose model asks for it waits on the Approvals page, which shows the tool and the model's arguments; a
// rejection with a note reaches the model as the reason, and the log names the tool decided on. The model is the
// fake OpenAI-compatible server of the tests, on loopback.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { OWNER_EMAIL, pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
let llm: FakeLlmServer;
beforeAll(async () => {
  page = app.page;
  llm = await startFakeLlmServer();
});
afterAll(() => llm?.close());

describe('agent tool approval in the browser', { timeout: 150_000 }, () => {
  it('marks a tool as needing approval, shows the waiting call on the Approvals page, and rejects it with a note', withFailureShot('failure-tool-approval', journey));
});

const at = (x: number) => ({ x, y: 120 });

async function journey() {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const refund = { type: 'function', name: 'refund', description: 'Refunds an order', parameters: { type: 'object', properties: { order: { type: 'string' } } }, code: 'return "refunded " + args.order;' };
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Refund agent',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'Start', position: at(0), enabled: true, config: { inputFormat: [] } },
          agent: {
            id: 'agent',
            type: 'agent',
            name: 'Helper',
            position: at(260),
            enabled: true,
            config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, apiKey: 'k', userPrompt: 'Refund order A-7', tools: [refund] },
          },
        },
        edges: [{ id: 'e1', source: 'start', target: 'agent' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  // ---- the editor: the tool is marked as needing approval -------------------------------------------------------
  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Helper').click();
  const panel = page.getByTestId('config-panel');
  const toggle = panel.getByLabel('Tool 1 needs approval');
  expect(await toggle.isChecked()).toBe(false);
  await toggle.check();
  await waitSaved();
  const saved = await keyApi(`/api/v1/workflows/${workflowId}`);
  const tools = (saved.body.data as { state: { blocks: Record<string, { config: { tools: unknown[] } }> } }).state.blocks.agent.config.tools;
  expect(tools).toEqual([{ ...refund, requiresApproval: true }]);
  expect((await keyApi(`/api/v1/workflows/${workflowId}/deploy`, { method: 'POST' })).status).toBe(200);

  // ---- a run waits at the tool call: the Approvals page shows the tool and its arguments ------------------------
  llm.reply(
    { kind: 'tool_calls', calls: [{ id: 'r1', name: 'refund', arguments: { order: 'A-7' } }] },
    { kind: 'stream', tokens: ['I did not refund A-7'] },
  );
  const run = await keyApi(`/api/workflows/${workflowId}/execute`, { method: 'POST', body: {} });
  expect(run.status).toBe(202);
  const executionId = run.body.executionId as string;
  await page.locator('.mainnav').getByRole('link', { name: 'Approvals' }).click();
  const card = page.locator(`[data-testid=paused-run][data-execution-id="${executionId}"]`);
  await card.waitFor();
  expect(await card.getByTestId('paused-message').textContent()).toBe('Helper asks to call the tool refund');
  expect(await card.getByTestId('waiting-tool-name').textContent()).toBe('refund');
  expect(JSON.parse((await card.getByTestId('waiting-tool-arguments').textContent())!)).toEqual({ order: 'A-7' });
  await card.getByLabel('Decision note').fill('already refunded');
  await shot('tool-approval');
  await card.getByRole('button', { name: 'Reject' }).click();

  // ---- the run goes on: the model was told why, and the log names the tool --------------------------------------
  const decided = page.locator(`[data-testid=decided-run][data-execution-id="${executionId}"]`);
  await decided.and(page.locator('[data-state=finished]')).waitFor({ timeout: 30_000 });
  const told = (llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool');
  expect(told?.content).toBe('Error: A person refused this call; it was not run. Reason: already refunded');
  await decided.getByRole('link', { name: 'Open log' }).click();
  await page.getByTestId('log-approvals').waitFor();
  const decision = page.getByTestId('decision');
  expect(await decision.getAttribute('data-block-name')).toBe('Helper');
  const text = (await decision.textContent())!;
  expect(text).toContain('refund');
  expect(text).toContain('rejected');
  expect(text).toContain(`by ${OWNER_EMAIL}`);
  expect(app.errors).toEqual([]);
}
