// The agent block's tools in the editor (issue 25), in a real browser: pick a workflow as a tool, add an HTTP tool,
// paste an MCP server's URL and list its tools (a real MCP server built with the SDK, on loopback), tick one; the
// saved workflow holds the tools as configured. A server that cannot be reached is named in the form.
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
let mcp: TestMcpServer;
beforeAll(async () => {
  page = app.page;
  mcp = await startMcpServer();
});
afterAll(() => mcp?.close());

describe('agent tools in the editor', { timeout: 150_000 }, () => {
  it('configures workflow, HTTP and MCP tools on an agent block', withFailureShot('failure-agent-tools', toolsJourney));
});

const at = (x: number) => ({ x, y: 120 });

async function createWorkflow(workspaceId: string, name: string, blocks: Record<string, unknown>, edges: unknown[]): Promise<string> {
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: { workspaceId, name, state: { blocks, edges, loops: {}, parallels: {} } },
  });
  expect(created.status).toBe(201);
  return (created.body.data as { id: string }).id;
}

async function toolsJourney() {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const lookupId = await createWorkflow(
    workspaceId,
    'Order lookup',
    {
      start: { id: 'start', type: 'api_trigger', name: 'Start', position: at(0), enabled: true, config: { inputFormat: [{ name: 'orderId', type: 'string' }] } },
      reply: { id: 'reply', type: 'response', name: 'Reply', position: at(260), enabled: true, config: { status: 200, body: { id: '<start.orderId>' } } },
    },
    [{ id: 'e1', source: 'start', target: 'reply' }],
  );
  const agentWorkflowId = await createWorkflow(
    workspaceId,
    'Support agent',
    {
      start: { id: 'start', type: 'api_trigger', name: 'Start', position: at(0), enabled: true, config: { inputFormat: [] } },
      agent: {
        id: 'agent',
        type: 'agent',
        name: 'Helper',
        position: at(260),
        enabled: true,
        config: { provider: 'openai', model: 'gpt-4o-mini', userPrompt: 'Help' },
      },
    },
    [{ id: 'e1', source: 'start', target: 'agent' }],
  );

  await signedIn();
  await page.goto(`${app.url}/workflows/${agentWorkflowId}`);
  await block('Helper').click();
  const panel = page.getByTestId('config-panel');
  await panel.getByText('No tools: the model answers in one call.').waitFor();

  // A workflow of the workspace, picked by name.
  await panel.getByRole('button', { name: '+ Workflow tool' }).click();
  await panel.getByLabel('Tool 1 workflow').selectOption({ label: 'Order lookup (not deployed)' });
  await panel.getByLabel('Tool 1 description').fill('Finds an order by its id');

  // An HTTP request with a query parameter.
  await panel.getByRole('button', { name: '+ HTTP tool' }).click();
  await panel.getByLabel('Tool 2 name', { exact: true }).fill('weather_now');
  await panel.getByLabel('Tool 2 description').fill('The weather in a city');
  await panel.getByLabel('Tool 2 URL').fill('https://weather.example.com/now');
  await panel.getByRole('button', { name: 'Add Tool 2 query' }).click();
  await panel.getByLabel('Tool 2 query name 1').fill('units');
  await panel.getByLabel('Tool 2 query value 1').fill('metric');

  // An MCP server that is not there: the form says which URL could not be reached.
  await panel.getByRole('button', { name: '+ MCP server' }).click();
  const deadUrl = `http://127.0.0.1:${await closedPort()}/mcp`;
  await panel.getByLabel('Tool 3 server URL').fill(deadUrl);
  await panel.getByRole('button', { name: 'List tools' }).click();
  await panel.getByText(`MCP server ${deadUrl} could not be reached`).waitFor();

  // The real one: its tools are listed, one is ticked.
  await panel.getByLabel('Tool 3 server URL').fill(mcp.url);
  await panel.getByRole('button', { name: 'List tools' }).click();
  const listed = panel.getByRole('group', { name: 'Tool 3 server tools' });
  await listed.getByText('Adds two numbers').waitFor();
  await expect.poll(() => listed.getByRole('checkbox').count()).toBe(4);
  await listed.getByRole('checkbox', { name: /weather/ }).check();
  await panel.getByText('Offered: weather').waitFor();

  // A function: its name, and the code field's default body.
  await panel.getByRole('button', { name: '+ Function tool' }).click();
  await panel.getByLabel('Tool 4 name', { exact: true }).fill('shout');
  await shot('agent-tools');

  await panel.getByLabel('Max steps').fill('5');
  await waitSaved();

  const saved = await keyApi(`/api/v1/workflows/${agentWorkflowId}`);
  const config = (saved.body.data as { state: { blocks: Record<string, { config: Record<string, unknown> }> } }).state.blocks.agent.config;
  expect(config.tools).toEqual([
    { type: 'workflow', workflowId: lookupId, description: 'Finds an order by its id' },
    {
      type: 'http',
      name: 'weather_now',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: {} },
      request: { url: 'https://weather.example.com/now', method: 'GET', query: { units: 'metric' } },
    },
    { type: 'mcp', url: mcp.url, include: ['weather'] },
    { type: 'function', name: 'shout', description: '', parameters: { type: 'object', properties: {} }, code: 'return args;' },
  ]);
  expect(String(config.maxSteps)).toBe('5');

  // Removing a tool removes it from the saved workflow.
  await panel.getByRole('button', { name: 'Remove tool 2', exact: true }).click();
  await waitSaved();
  await expect
    .poll(async () => {
      const again = await keyApi(`/api/v1/workflows/${agentWorkflowId}`);
      const tools = (again.body.data as { state: { blocks: Record<string, { config: { tools: { type: string }[] } }> } }).state.blocks.agent.config.tools;
      return tools.map((t) => t.type);
    })
    .toEqual(['workflow', 'mcp', 'function']);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
