// The agent block's memory in the editor (issue 25 item 5), in a real browser: the block's form has a Memory field;
// what is typed there is saved as the block's `memory`, and a value the server refuses is named under the field.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

const MEMORY = 'Memory (optional)';
const memoryBox = () => page.getByRole('textbox', { name: MEMORY, exact: true });
const problemsUnder = (): Locator => page.locator('.code-field', { has: memoryBox() }).getByRole('listitem');

describe('agent memory in the editor', { timeout: 150_000 }, () => {
  it('sets an agent block\'s memory in its form', withFailureShot('failure-agent-memory', memoryJourney));
});

async function savedMemory(workflowId: string): Promise<unknown> {
  const workflow = (await keyApi(`/api/v1/workflows/${workflowId}`)).body.data as { state: { blocks: Record<string, { config: Record<string, unknown> }> } };
  return workflow.state.blocks.agent.config.memory;
}

async function typeMemory(text: string) {
  await memoryBox().click();
  await page.keyboard.press('Control+a');
  // Inserted as a whole: typing `<` would open the reference completion.
  await page.keyboard.insertText(text);
}

async function memoryJourney() {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const at = (x: number) => ({ x, y: 120 });
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Remembering chat',
      state: {
        blocks: {
          chat: { id: 'chat', type: 'chat_trigger', name: 'Chat', position: at(0), enabled: true, config: {} },
          agent: { id: 'agent', type: 'agent', name: 'Helper', position: at(260), enabled: true, config: { provider: 'openai', model: 'gpt-4o-mini', userPrompt: '<chat.message>' } },
        },
        edges: [{ id: 'e1', source: 'chat', target: 'agent' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Helper').click();
  await memoryBox().waitFor();

  await typeMemory('{"key": "<chat.conversationId>", "lastMessages": 10}');
  await waitSaved();
  await expect.poll(() => savedMemory(workflowId)).toEqual({ key: '<chat.conversationId>', lastMessages: 10 });
  await shot('agent-memory-1-set');

  // More than a run may load: the server refuses it, and the field says why.
  await typeMemory('{"key": "<chat.conversationId>", "lastMessages": 500}');
  await expect.poll(() => problemsUnder().allTextContents()).toEqual([expect.stringContaining('must be at most 200')]);
  await page.locator('[data-testid=save-state][data-status=invalid]').waitFor();
  expect(await savedMemory(workflowId)).toEqual({ key: '<chat.conversationId>', lastMessages: 10 });
  await shot('agent-memory-2-refused');
}
