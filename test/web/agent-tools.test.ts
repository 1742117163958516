// Issue 25, the editor's half of streamed tool events: a manual run of an agent with a function tool shows the tool
// call in the run panel while the run is still going (the model's final answer is held until the call is on screen).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latch, startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true, env: { SLUICE_ALLOW_PRIVATE_NETWORK: 'true' } });
const { signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
let llm: FakeLlmServer;

beforeAll(async () => {
  page = app.page;
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm?.close();
});

describe('web app journey', { timeout: 150_000 }, () => {
  it('shows an agent’s tool calls live in the run panel', withFailureShot('failure-agent-tools', toolCallsJourney));
});

async function toolCallsJourney() {
  await signedIn();
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const double = {
    type: 'function',
    name: 'double',
    parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    code: 'return args.n * 2;',
  };
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Doubler',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } },
          agent: {
            id: 'agent',
            type: 'agent',
            name: 'Doubler agent',
            position: { x: 260, y: 0 },
            enabled: true,
            config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, userPrompt: 'Double 21', tools: [double] },
          },
        },
        edges: [{ id: 'e1', source: 'start', target: 'agent' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const answer = latch();
  llm.reply(
    { kind: 'tool_calls', calls: [{ id: 'c1', name: 'double', arguments: { n: 21 } }] },
    { kind: 'stream', tokens: ['It is 42'], beforeToken: () => answer.promise },
  );

  await page.goto(`${app.url}/workflows/${(created.body.data as { id: string }).id}`);
  await page.getByTestId('run-button').click();
  const panel = page.getByTestId('run-panel');
  const call = panel.getByRole('list', { name: 'Tool calls' }).getByRole('listitem');
  await call.filter({ hasText: 'double' }).filter({ hasText: 'done' }).waitFor();
  // Still running: the answer is held until now.
  expect(await panel.getAttribute('data-status')).toBe('running');
  await call.getByText('Arguments and result').click();
  expect(await call.textContent()).toContain('42');
  answer.open();
  await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
  expect(await panel.textContent()).toContain('It is 42');
  expect(app.errors).toEqual([]);
}
