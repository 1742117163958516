// OpenAPI connectors (issue 26 item 4): a local test API's OpenAPI document is imported (as JSON and as YAML), the API
// block calls one of its operations by id with path, query, header and body parameters, and the test API sees the
// request the document describes. Bad documents, unknown operations and other workspaces' connectors are refused.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let t: TestApp;
let api: Server;
let apiBase = '';
let otherWorkspace: string;
const seen: Seen[] = [];

/** The test API's own description: `apiBase` is where it listens. */
const petDocument = (server: string) => ({
  openapi: '3.0.3',
  info: { title: 'Pet store', version: '1.2.0' },
  servers: [{ url: `${server}/{base}`, variables: { base: { default: 'v1' } } }],
  paths: {
    '/pets/{petId}': {
      parameters: [{ $ref: '#/components/parameters/PetId' }],
      put: {
        operationId: 'updatePet',
        summary: 'Replace a pet',
        parameters: [
          { name: 'dryRun', in: 'query', schema: { type: 'boolean' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
      delete: { responses: { '204': { description: 'Gone' } } },
    },
  },
  components: {
    parameters: { PetId: { name: 'petId', in: 'path', required: true, description: 'Which pet', schema: { type: 'string' } } },
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, age: { type: 'integer' }, parent: { $ref: '#/components/schemas/Pet' } },
      },
    },
  },
});

async function importConnector(name: string, document: unknown, workspaceId = t.workspaceId, apiKey?: string) {
  return t.request('POST', '/api/v1/connectors', { apiKey, body: { workspaceId, name, document } });
}

const trigger = { id: 'start', type: 'api_trigger', name: 'Start', config: { inputFormat: [{ name: 'id', type: 'string' }] } };
const callBlock = (config: Record<string, unknown>) => ({ id: 'call', type: 'api', name: 'Call', config: { retries: 0, ...config } });

beforeAll(async () => {
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const pet = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...pet, path: req.url }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  t = await startTestApp();
  otherWorkspace = (await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } })).body.data.id;
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => api?.close(resolve));
});

describe('importing OpenAPI documents', () => {
  it('imports a JSON document: its operations with refs resolved, ids derived where the document gives none', async () => {
    const created = await importConnector('Pets (JSON)', petDocument(apiBase));
    expect(created.status, created.text).toBe(201);
    const connector = created.body.data;
    expect(connector).toMatchObject({ name: 'Pets (JSON)', title: 'Pet store', version: '1.2.0', servers: [`${apiBase}/v1`], operationCount: 2 });
    const update = connector.operations.find((op: { operationId: string }) => op.operationId === 'updatePet');
    expect(update).toMatchObject({ method: 'PUT', path: '/pets/{petId}', summary: 'Replace a pet' });
    expect(update.parameters.map((p: { name: string; in: string; required: boolean }) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:petId:true',
      'query:dryRun:false',
      'query:tag:false',
      'header:X-Trace:true',
    ]);
    // The body's schema is resolved, and its recursion is kept as a ref rather than expanded forever.
    expect(update.requestBody).toMatchObject({ required: true, contentType: 'application/json', schema: { required: ['name'] } });
    expect(update.requestBody.schema.properties.parent).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(connector.operations.find((op: { method: string }) => op.method === 'DELETE')).toMatchObject({ operationId: 'delete_pets_petId', derivedId: true });

    const read = await t.request('GET', `/api/v1/connectors/${connector.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.operations).toHaveLength(2);
    const listed = await t.request('GET', `/api/v1/connectors?workspaceId=${t.workspaceId}`);
    expect(listed.body.data.map((c: { name: string }) => c.name)).toContain('Pets (JSON)');
  });

  it('imports the same document as YAML text', async () => {
    const created = await importConnector('Pets (YAML)', toYaml(petDocument(apiBase)));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.operations.map((op: { operationId: string }) => op.operationId).sort()).toEqual(['delete_pets_petId', 'updatePet']);
  });

  it('refuses documents it cannot use, saying why', async () => {
    const cases: Array<[unknown, string, string]> = [
      ['openapi: [3.0', 'neither JSON nor YAML', 'document'],
      [{ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }, 'Only OpenAPI 3.0 and 3.1', 'document.openapi'],
      [{ openapi: '3.1.0', paths: {} }, 'not a valid OpenAPI document', 'document'],
      [
        { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { '200': { $ref: 'https://example.com/r.yaml' } } } } } },
        'External $refs are not followed',
        'document.paths./a.get.responses.200.$ref',
      ],
      [
        { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { operationId: 'same', responses: { '200': { description: 'ok' } } }, post: { operationId: 'same', responses: { '200': { description: 'ok' } } } } } },
        'operationId must be unique',
        'document.paths./a.post.operationId',
      ],
      [`openapi: 3.0.3\ninfo: {title: big, version: "1"}\npaths: {}\nx-padding: "${'a'.repeat(2 * 1024 * 1024)}"\n`, 'larger than 2 MB', 'document'],
    ];
    for (const [document, message, path] of cases) {
      const res = await importConnector(`Bad ${Math.random()}`, document);
      expect(res.status, res.text.slice(0, 300)).toBe(400);
      expect(res.body.error).toContain(message);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const duplicate = await importConnector('Pets (JSON)', petDocument(apiBase));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('CONNECTOR_NAME_TAKEN');
  });
});

describe('the API block calling an operation', () => {
  it('builds the request from the document: server, path params encoded, query, header and JSON body', async () => {
    const connectorId = (await importConnector('Pets (run)', petDocument(apiBase))).body.data.id;
    const workflowId = await createAndDeploy(
      t,
      makeState(
        [
          trigger,
          callBlock({
            operation: { connectorId, operationId: 'updatePet' },
            parameters: { petId: '<start.id>', dryRun: true, tag: ['a', 'b c'], 'X-Trace': 'trace-1', body: { name: 'Rex', age: 3 } },
          }),
        ],
        [['start', 'call']],
      ),
      'Operation call',
    );
    seen.length = 0;
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { id: 'rex/1 2' } });
    expect(res.status, res.text).toBe(200);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/v1/pets/rex%2F1%202?dryRun=true&tag=a&tag=b%20c');
    expect(request.headers['x-trace']).toBe('trace-1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ name: 'Rex', age: 3 });
    expect(res.body.output).toMatchObject({ status: 200, data: { name: 'Rex', age: 3, path: request.url } });
    expect(res.body.output.error).toBeUndefined();
  });

  it("uses the block's URL instead of the document's server when set", async () => {
    const connectorId = (await importConnector('Pets (elsewhere)', toYaml(petDocument('http://127.0.0.1:9')))).body.data.id;
    const workflowId = await createAndDeploy(
      t,
      makeState(
        [trigger, callBlock({ url: `${apiBase}/staging`, operation: { connectorId, operationId: 'delete_pets_petId' }, parameters: { petId: 7 } })],
        [['start', 'call']],
      ),
      'Override',
    );
    seen.length = 0;
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { id: 'x' } });
    expect(res.status, res.text).toBe(200);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /staging/pets/7']);
  });

  it('refuses at save a connector, operation or required parameter that is not there, naming each', async () => {
    const connectorId = (await importConnector('Pets (save)', petDocument(apiBase))).body.data.id;
    const save = (config: Record<string, unknown>) =>
      t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Check', state: makeState([trigger, callBlock(config)], [['start', 'call']]) } });

    const unknownConnector = await save({ operation: { connectorId: 'conn_nope', operationId: 'updatePet' } });
    expect(unknownConnector.status).toBe(400);
    expect(unknownConnector.body.details).toEqual([{ path: 'state.blocks.call.config.operation.connectorId', message: expect.stringContaining('unknown connector') }]);

    const unknownOperation = await save({ operation: { connectorId, operationId: 'adoptPet' } });
    expect(unknownOperation.status).toBe(400);
    expect(unknownOperation.body.details[0]).toMatchObject({ path: 'state.blocks.call.config.operation.operationId', message: expect.stringContaining('adoptPet') });

    const missing = await save({ operation: { connectorId, operationId: 'updatePet' }, parameters: { petId: '<start.id>', dryRun: false } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual([
      'state.blocks.call.config.parameters.X-Trace',
      'state.blocks.call.config.parameters.body',
    ]);

    const complete = await save({ operation: { connectorId, operationId: 'updatePet' }, parameters: { petId: '<start.id>', 'X-Trace': 't', body: { name: 'a' } } });
    expect(complete.status, complete.text).toBe(201);
  });

  it('takes the error edge with a message when the connector is gone by the time the block runs', async () => {
    const connectorId = (await importConnector('Pets (doomed)', petDocument(apiBase))).body.data.id;
    const workflowId = await createAndDeploy(
      t,
      makeState(
        [
          trigger,
          callBlock({ operation: { connectorId, operationId: 'delete_pets_petId' }, parameters: { petId: 1 } }),
          { id: 'fallback', type: 'response', name: 'Fallback', config: { status: 502, body: { failed: '<call.error>' } } },
        ],
        [
          ['start', 'call'],
          ['call', 'fallback', 'error'],
        ],
      ),
      'Doomed',
    );
    expect((await t.request('DELETE', `/api/v1/connectors/${connectorId}`)).status).toBe(204);
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { id: 'x' } });
    expect(res.status, res.text).toBe(502);
    expect(res.body.failed).toBe(`Connector "${connectorId}" not found in this workspace`);
  });
});

describe('exporting a workflow that calls an operation', () => {
  it("replaces a literal parameter named like a credential by a variable, and keeps the others", async () => {
    const connectorId = (await importConnector('Pets (export)', petDocument(apiBase))).body.data.id;
    const workflowId = await createAndDeploy(
      t,
      makeState(
        [trigger, callBlock({ operation: { connectorId, operationId: 'delete_pets_petId' }, parameters: { petId: '<start.id>', api_key: 'k-Literal-Secret-77' } })],
        [['start', 'call']],
      ),
      'Export',
    );
    const exported = await t.request('GET', `/api/v1/workflows/${workflowId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain('k-Literal-Secret-77');
    expect(exported.body.data.state.blocks.call.config.parameters).toEqual({ petId: '<start.id>', api_key: '{{CALL_API_KEY}}' });
    expect(exported.body.replacedSecrets).toEqual([{ path: 'blocks.call.config.parameters.api_key', variable: 'CALL_API_KEY' }]);
  });

  it('names the connector in the document; an import maps it to the connector of that name, or says which to import first', async () => {
    const connectorId = (await importConnector('Pets (moving)', petDocument(apiBase))).body.data.id;
    const workflowId = await createAndDeploy(
      t,
      makeState([trigger, callBlock({ operation: { connectorId, operationId: 'delete_pets_petId' }, parameters: { petId: '<start.id>' } })], [['start', 'call']]),
      'Moving',
    );
    const exported = await t.request('GET', `/api/v1/workflows/${workflowId}/export`);
    expect(exported.body.data.state.blocks.call.config.operation).toEqual({ connectorId: { connector: 'Pets (moving)' }, operationId: 'delete_pets_petId' });
    expect(exported.body.data.connectors).toEqual([{ name: 'Pets (moving)' }]);

    const refused = await t.request('POST', '/api/v1/workflows/import', { apiKey: t.personalKey, body: { workspaceId: otherWorkspace, document: exported.body.data } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('CONNECTORS_UNMAPPED');
    expect(refused.body.error).toContain('"Pets (moving)"');

    const theirs = (await importConnector('Pets (moving)', petDocument(apiBase), otherWorkspace, t.personalKey)).body.data.id;
    const imported = await t.request('POST', '/api/v1/workflows/import', { apiKey: t.personalKey, body: { workspaceId: otherWorkspace, document: exported.body.data } });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body.data.state.blocks.call.config.operation).toEqual({ connectorId: theirs, operationId: 'delete_pets_petId' });
  });
});

describe('the address policy', () => {
  it("refuses an operation whose server is private when private networks are not allowed, before any request", async () => {
    const strict = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
    try {
      const created = await strict.request('POST', '/api/v1/connectors', { body: { workspaceId: strict.workspaceId, name: 'Local pets', document: petDocument(apiBase) } });
      expect(created.status, created.text).toBe(201);
      const workflowId = await createAndDeploy(
        strict,
        makeState([trigger, callBlock({ operation: { connectorId: created.body.data.id, operationId: 'delete_pets_petId' }, parameters: { petId: 1 } })], [['start', 'call']]),
        'Private',
      );
      seen.length = 0;
      const res = await strict.request('POST', `/api/workflows/${workflowId}/execute`, { body: { id: 'x' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.output).toMatchObject({ status: 0, error: expect.stringContaining('SLUICE_ALLOW_PRIVATE_NETWORK') });
      expect(seen).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe("another workspace's connectors", () => {
  it('are not found through a key of this workspace, and cannot be called from its workflows', async () => {
    const theirs = await importConnector('Theirs', petDocument(apiBase), otherWorkspace, t.personalKey);
    expect(theirs.status, theirs.text).toBe(201);
    const id = theirs.body.data.id;
    expect((await t.request('GET', `/api/v1/connectors/${id}`)).status).toBe(404);
    expect((await t.request('DELETE', `/api/v1/connectors/${id}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/connectors?workspaceId=${otherWorkspace}`)).status).toBe(403);
    const borrowed = await t.request('POST', '/api/v1/workflows', {
      body: {
        workspaceId: t.workspaceId,
        name: 'Borrow',
        state: makeState([trigger, callBlock({ operation: { connectorId: id, operationId: 'delete_pets_petId' }, parameters: { petId: 1 } })], [['start', 'call']]),
      },
    });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.details[0].path).toBe('state.blocks.call.config.operation.connectorId');
  });
});
