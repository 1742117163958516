// Export and import of workflows (issue 17 item 6): a document with every block type goes out without its literal
// secrets (replaced by {{VARIABLE}} references, existing references kept), comes back as an identical draft in another
// workspace, and an imported workflow deploys and runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockRegistry } from '../../src/blocks/registry.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { makeState } from '../support/workflows.js';

let t: TestApp;
let otherWorkspace: string;
beforeAll(async () => {
  t = await startTestApp();
  const created = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } });
  otherWorkspace = created.body.data.id;
});
afterAll(async () => t?.close());

const SECRETS = ['whsec-literal-123', 'Bearer literal-token', 'abc-query-secret', 'sk-literal-openai', 'Bearer tool-token', 'tool-query-secret', 'Bearer mcp-token'];

function everyBlockState() {
  const state = makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'Start', config: { inputFormat: [{ name: 'q', type: 'string', value: 'x' }] } },
      { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: 'transfer/hook', secret: SECRETS[0] } },
      { id: 'tick', type: 'schedule_trigger', name: 'Tick', config: { cron: '0 * * * *', timezone: 'Europe/Paris' } },
      { id: 'chat', type: 'chat_trigger', name: 'Chat' },
      { id: 'inbox', type: 'queue_trigger', name: 'Inbox', config: { credentialId: 'cred_rabbit', queue: 'orders' } },
      { id: 'notify', type: 'publish', name: 'Notify', config: { credentialId: 'cred_rabbit', queue: 'done', message: { q: '<start.q>' } } },
      {
        id: 'fetch',
        type: 'api',
        name: 'Fetch orders',
        config: {
          url: 'https://example.com/orders',
          method: 'POST',
          headers: [
            { key: 'Authorization', value: SECRETS[1] },
            { key: 'X-Trace', value: '<start.q>' },
            { key: 'X-Api-Key', value: '{{UPSTREAM_KEY}}' },
          ],
          queryParams: [
            { key: 'api_key', value: SECRETS[2] },
            { key: 'page', value: '1' },
          ],
          body: { q: '<start.q>' },
        },
      },
      { id: 'fn', type: 'function', name: 'Shape', config: { code: 'return { n: 1 };' } },
      {
        id: 'check',
        type: 'condition',
        name: 'Check',
        config: { conditions: [{ id: 'c1', title: 'if', expression: '<fetchorders.status> === 200' }, { id: 'c2', title: 'else', expression: '' }] },
      },
      { id: 'vars', type: 'variables', name: 'Vars', config: { assignments: [{ name: 'count', value: 1 }] } },
      { id: 'pause', type: 'wait', name: 'Pause', config: { ms: 10 } },
      { id: 'each', type: 'loop', name: 'Each' },
      { id: 'inner', type: 'function', name: 'Inner', parentId: 'each', config: { code: 'return 1;' } },
      { id: 'fan', type: 'parallel', name: 'Fan' },
      { id: 'branch', type: 'wait', name: 'Branch', parentId: 'fan', config: { ms: 1 } },
      {
        id: 'writer',
        type: 'agent',
        name: 'Writer',
        config: {
          provider: 'openai',
          model: 'gpt-4o-mini',
          userPrompt: 'Hi <start.q>',
          apiKey: SECRETS[3],
          tools: [
            {
              type: 'http',
              name: 'lookup',
              description: 'Looks an order up',
              parameters: { type: 'object', properties: { id: { type: 'string' } } },
              request: { url: 'https://example.com/orders/<args.id>', headers: { Authorization: SECRETS[4], 'X-Trace': 'on' }, query: { token: SECRETS[5] } },
            },
            { type: 'mcp', url: 'https://tools.example.com/mcp', headers: { Authorization: SECRETS[6] } },
          ],
        },
      },
      { id: 'sub', type: 'workflow', name: 'Sub', config: { workflowId: 'wf_child00000000000000', input: { q: '<start.q>' } } },
      { id: 'ok', type: 'approval', name: 'OK', config: { message: 'Send <start.q>?', timeoutMs: 60_000, defaultDecision: 'approve' } },
      { id: 'out', type: 'response', name: 'Out', config: { status: 201, headers: [{ key: 'x-a', value: 'b' }], body: { ok: true } } },
    ],
    [
      ['start', 'fetch'],
      ['hook', 'fetch'],
      ['tick', 'fetch'],
      ['chat', 'fetch'],
      ['fetch', 'check'],
      ['check', 'vars', 'condition-c1'],
      ['check', 'fn', 'condition-c2'],
      ['vars', 'pause'],
      ['pause', 'each'],
      ['each', 'inner'],
      ['each', 'fan'],
      ['fan', 'branch'],
      ['fan', 'writer'],
      ['writer', 'sub'],
      ['sub', 'ok'],
      ['ok', 'out'],
    ],
  );
  return {
    ...state,
    loops: { each: { id: 'each', nodes: ['inner'], loopType: 'forEach', forEachItems: '[1, 2]' } },
    parallels: { fan: { id: 'fan', nodes: ['branch'], parallelType: 'count', count: 2 } },
  };
}

async function create(state: unknown, name = 'Everything') {
  const res = await t.request('POST', '/api/v1/workflows', {
    body: { workspaceId: t.workspaceId, name, description: 'all the blocks', state },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; state: any };
}

describe('workflow export and import', () => {
  it('round-trips a workflow holding every block type, without its literal secrets', async () => {
    const original = await create(everyBlockState());
    const types = new Set(Object.values(original.state.blocks).map((b: any) => b.type));
    for (const type of [...Object.keys(blockRegistry), 'loop', 'parallel']) expect(types, `block type ${type}`).toContain(type);

    const exported = await t.request('GET', `/api/v1/workflows/${original.id}/export`);
    expect(exported.status).toBe(200);
    for (const secret of SECRETS) expect(exported.text).not.toContain(secret);
    const document = exported.body.data;
    expect(document).toMatchObject({ format: 'sluice.workflow', version: 1, name: 'Everything', description: 'all the blocks' });
    expect(exported.body.replacedSecrets).toEqual([
      { path: 'blocks.hook.config.secret', variable: 'HOOK_SECRET' },
      { path: 'blocks.fetch.config.headers[0].value', variable: 'FETCH_ORDERS_AUTHORIZATION' },
      { path: 'blocks.fetch.config.queryParams[0].value', variable: 'FETCH_ORDERS_API_KEY' },
      { path: 'blocks.writer.config.apiKey', variable: 'WRITER_API_KEY' },
      { path: 'blocks.writer.config.tools[0].request.headers.Authorization', variable: 'WRITER_AUTHORIZATION' },
      { path: 'blocks.writer.config.tools[0].request.query.token', variable: 'WRITER_TOKEN' },
      { path: 'blocks.writer.config.tools[1].headers.Authorization', variable: 'WRITER_AUTHORIZATION_2' },
    ]);
    const replacedVariables = ['WRITER_AUTHORIZATION', 'WRITER_AUTHORIZATION_2', 'WRITER_TOKEN'];
    expect(document.environment).toEqual(
      ['FETCH_ORDERS_API_KEY', 'FETCH_ORDERS_AUTHORIZATION', 'HOOK_SECRET', 'UPSTREAM_KEY', 'WRITER_API_KEY', ...replacedVariables].sort(),
    );

    // The exported state is the stored one, but for the seven replaced values.
    const expected = structuredClone(original.state);
    expected.blocks.hook.config.secret = '{{HOOK_SECRET}}';
    expected.blocks.fetch.config.headers[0].value = '{{FETCH_ORDERS_AUTHORIZATION}}';
    expected.blocks.fetch.config.queryParams[0].value = '{{FETCH_ORDERS_API_KEY}}';
    expected.blocks.writer.config.apiKey = '{{WRITER_API_KEY}}';
    expected.blocks.writer.config.tools[0].request.headers.Authorization = '{{WRITER_AUTHORIZATION}}';
    expected.blocks.writer.config.tools[0].request.query.token = '{{WRITER_TOKEN}}';
    expected.blocks.writer.config.tools[1].headers.Authorization = '{{WRITER_AUTHORIZATION_2}}';
    expect(document.state).toEqual(expected);

    await t.request('PUT', `/api/v1/workspaces/${otherWorkspace}/env`, { apiKey: t.personalKey, body: { variables: { UPSTREAM_KEY: 'u' } } });
    const imported = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.data).toMatchObject({ workspaceId: otherWorkspace, name: 'Everything', description: 'all the blocks', isDeployed: false });
    expect(imported.body.data.id).not.toBe(original.id);
    expect(imported.body.data.state).toEqual(document.state);
    expect(imported.body.missingEnvironment).toEqual(
      ['FETCH_ORDERS_API_KEY', 'FETCH_ORDERS_AUTHORIZATION', 'HOOK_SECRET', 'WRITER_API_KEY', ...replacedVariables].sort(),
    );

    // Exporting the copy gives the same document: nothing left to replace, nothing lost.
    const again = await t.request('GET', `/api/v1/workflows/${imported.body.data.id}/export`, { apiKey: t.personalKey });
    expect(again.body).toEqual({ data: document, replacedSecrets: [] });
  });

  it('imports into a folder under another name, and the copy deploys and runs', async () => {
    const source = await create(echoState(), 'Echo');
    const { body } = await t.request('GET', `/api/v1/workflows/${source.id}/export`);
    const folder = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'Imported' } });
    const imported = await t.request('POST', '/api/v1/workflows/import', {
      body: { workspaceId: t.workspaceId, document: body.data, folderId: folder.body.data.id, name: 'Echo copy' },
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ data: { name: 'Echo copy', folderId: folder.body.data.id }, missingEnvironment: [] });
    const id = imported.body.data.id;
    expect((await t.request('POST', `/api/v1/workflows/${id}/deploy`)).status).toBe(200);
    const run = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'copied' } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ echoed: 'copied' });
  });

  it('says what is wrong with a document that is not one', async () => {
    const { body } = await t.request('GET', `/api/v1/workflows/${(await create(echoState(), 'Doc')).id}/export`);
    const cases: Array<[unknown, { path: string; message: RegExp }]> = [
      [{ ...body.data, format: 'n8n' }, { path: 'document.format', message: /sluice\.workflow/ }],
      [{ ...body.data, version: 2 }, { path: 'document.version', message: /version 1/ }],
      [{ ...body.data, name: '' }, { path: 'document.name', message: /empty/ }],
      [{ ...body.data, extra: 1 }, { path: 'document', message: /extra/ }],
      ['not even an object', { path: 'document', message: /object/ }],
    ];
    for (const [document, problem] of cases) {
      const res = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual(expect.arrayContaining([{ path: problem.path, message: expect.stringMatching(problem.message) }]));
    }
    const broken = structuredClone(body.data);
    broken.state.edges.push({ id: 'dangling', source: 'start', target: 'nowhere' });
    const invalid = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: broken } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.some((d: { path: string }) => d.path.startsWith('document.state.edges'))).toBe(true);
    const list = await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`);
    expect(list.body.data.filter((w: { name: string }) => w.name === 'Doc')).toHaveLength(1);
  });

  it('keeps workspaces apart: no import into an unreachable workspace, no export of another workspace\'s workflow', async () => {
    const source = await create(echoState(), 'Private');
    const { body } = await t.request('GET', `/api/v1/workflows/${source.id}/export`);
    // The bootstrap key is scoped to the Default workspace.
    const intoOther = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: otherWorkspace, document: body.data } });
    expect(intoOther.status).toBe(403);
    const theirs = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document: body.data },
    });
    const exportTheirs = await t.request('GET', `/api/v1/workflows/${theirs.body.data.id}/export`);
    expect(exportTheirs.status).toBe(404);
    const noKey = await t.request('GET', `/api/v1/workflows/${source.id}/export`, { apiKey: null });
    expect(noKey.status).toBe(401);
  });
});
