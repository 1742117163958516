// The API block's OpenAPI operation in the editor (issue 26 item 4), in a real browser: an imported document's
// operation is picked, its parameters are shown as fields (required ones marked), a missing required one is named
// by the server and shown, and the saved block holds the operation and its typed parameters.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

const DOCUMENT = `openapi: 3.1.0
info: {title: Orders, version: "1"}
servers: [{url: "https://orders.example.com/api"}]
paths:
  /orders/{orderId}/notes:
    post:
      operationId: addNote
      summary: Add a note to an order
      parameters:
        - {name: orderId, in: path, required: true, schema: {type: string}}
        - {name: notify, in: query, schema: {type: boolean}}
        - {name: priority, in: query, schema: {type: integer}}
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, properties: {text: {type: string}}}}}
      responses: {"201": {description: Added}}
`;

describe('an OpenAPI operation in the API block', { timeout: 150_000 }, () => {
  it('picks a connector operation and edits its typed parameters', withFailureShot('failure-api-operation', operationJourney));
});

async function operationJourney() {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const connector = await keyApi('/api/v1/connectors', { method: 'POST', body: { workspaceId, name: 'Orders API', document: DOCUMENT } });
  expect(connector.status).toBe(201);
  const connectorId = (connector.body.data as { id: string }).id;
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Notes',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 120 }, enabled: true, config: { inputFormat: [{ name: 'id', type: 'string' }] } },
          call: { id: 'call', type: 'api', name: 'Call', position: { x: 260, y: 120 }, enabled: true, config: { url: '', method: 'GET', queryParams: [], headers: [] } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'call' }],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Call').click();
  const panel = page.getByTestId('config-panel');
  await panel.getByLabel('Method').waitFor();
  await panel.getByLabel('Connector').selectOption({ label: 'Orders API' });
  await panel.getByLabel('Operation').selectOption({ label: 'POST /orders/{orderId}/notes — Add a note to an order' });

  // The block's own method and query give way to the operation's parameters.
  const parameters = panel.getByTestId('operation-parameters');
  await parameters.getByText('orderId *').waitFor();
  expect(await panel.getByLabel('Method').count()).toBe(0);
  await parameters.getByLabel('Parameter orderId').fill('<start.id>');
  await parameters.getByLabel('Parameter priority').fill('2');
  await parameters.getByLabel('Parameter notify').fill('true');
  // The body is still missing: the server names it and the draft is not saved.
  await panel.getByText(/required by operation addNote but not given/).first().waitFor();
  await shot('api-operation-missing-body');

  await parameters.getByRole('textbox', { name: 'Request body', exact: true }).fill('{"text": "Call back"}');
  await waitSaved();
  await shot('api-operation');
  await block('Call').getByText('Operation addNote').waitFor();

  const saved = await keyApi(`/api/v1/workflows/${workflowId}`);
  const config = (saved.body.data as { state: { blocks: Record<string, { config: Record<string, unknown> }> } }).state.blocks.call.config;
  expect(config.operation).toEqual({ connectorId, operationId: 'addNote' });
  expect(config.parameters).toEqual({ orderId: '<start.id>', priority: 2, notify: true, body: { text: 'Call back' } });
}
