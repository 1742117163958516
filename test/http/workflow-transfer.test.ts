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

/** Every block type; the connector blocks name the given credentials (by id, as stored). */
function everyBlockState(credentials = { db: 'cred_db', redis: 'cred_redis', smtp: 'cred_smtp', rabbit: 'cred_rabbit' }) {
  const state = makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'Start', config: { inputFormat: [{ name: 'q', type: 'string', value: 'x' }] } },
      { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: 'transfer/hook', secret: SECRETS[0] } },
      { id: 'tick', type: 'schedule_trigger', name: 'Tick', config: { cron: '0 * * * *', timezone: 'Europe/Paris' } },
      { id: 'chat', type: 'chat_trigger', name: 'Chat' },
      { id: 'inbox', type: 'queue_trigger', name: 'Inbox', config: { credentialId: credentials.rabbit, queue: 'orders' } },
      { id: 'notify', type: 'publish', name: 'Notify', config: { credentialId: credentials.rabbit, queue: 'done', message: { q: '<start.q>' } } },
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
      { id: 'db', type: 'database', name: 'DB', config: { credentialId: credentials.db, query: 'select * from t where id = $1', params: ['<start.q>'] } },
      { id: 'cache', type: 'redis', name: 'Cache', config: { credentialId: credentials.redis, operation: 'set', key: 'q', value: '<start.q>', ttl: 60 } },
      { id: 'mail', type: 'email', name: 'Mail', config: { credentialId: credentials.smtp, from: 'bot@example.com', to: 'ana@example.com', subject: '<start.q>' } },
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
      ['ok', 'db'],
      ['db', 'cache'],
      ['cache', 'mail'],
      ['mail', 'out'],
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
    // The connector blocks' credentials, here and (same names and types) in the workspace it is imported into.
    const credentialsIn = async (workspaceId: string) => {
      const make = async (name: string, type: string, data: Record<string, unknown>) =>
        (await t.request('POST', '/api/v1/credentials', { apiKey: t.personalKey, body: { workspaceId, name, type, data } })).body.data.id as string;
      return {
        db: await make('Transfer DB', 'postgres', { host: 'db.example.com', user: 'u', password: 'db-secret', database: 'd' }),
        redis: await make('Transfer cache', 'redis', { host: 'cache.example.com', password: 'redis-secret' }),
        smtp: await make('Transfer mail', 'smtp', { host: 'mail.example.com', user: 'bot', password: 'smtp-secret' }),
        rabbit: await make('Transfer broker', 'amqp', { host: 'mq.example.com', user: 'bot', password: 'amqp-secret' }),
      };
    };
    const here = await credentialsIn(t.workspaceId);
    const there = await credentialsIn(otherWorkspace);
    const original = await create(everyBlockState(here));
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
    expected.blocks.db.config.credentialId = { credential: 'Transfer DB' };
    expected.blocks.cache.config.credentialId = { credential: 'Transfer cache' };
    expected.blocks.mail.config.credentialId = { credential: 'Transfer mail' };
    expected.blocks.inbox.config.credentialId = { credential: 'Transfer broker' };
    expected.blocks.notify.config.credentialId = { credential: 'Transfer broker' };
    expect(document.state).toEqual(expected);
    for (const secret of ['db-secret', 'redis-secret', 'smtp-secret', 'amqp-secret', ...Object.values(here)]) expect(exported.text).not.toContain(secret);

    await t.request('PUT', `/api/v1/workspaces/${otherWorkspace}/env`, { apiKey: t.personalKey, body: { variables: { UPSTREAM_KEY: 'u' } } });
    const imported = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.data).toMatchObject({ workspaceId: otherWorkspace, name: 'Everything', description: 'all the blocks', isDeployed: false });
    expect(imported.body.data.id).not.toBe(original.id);
    // The credentials are the target workspace's of the same names and types.
    const mapped = structuredClone(document.state);
    mapped.blocks.db.config.credentialId = there.db;
    mapped.blocks.cache.config.credentialId = there.redis;
    mapped.blocks.mail.config.credentialId = there.smtp;
    mapped.blocks.inbox.config.credentialId = there.rabbit;
    mapped.blocks.notify.config.credentialId = there.rabbit;
    expect(imported.body.data.state).toEqual(mapped);
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

describe('workflow export and import: stored credentials', () => {
  const TOKEN = 'cred-token-never-exported-9c1';
  const credential = async (workspaceId: string, name: string, type: string, data: Record<string, unknown>) => {
    const res = await t.request('POST', '/api/v1/credentials', { apiKey: t.personalKey, body: { workspaceId, name, type, data } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const callWith = (credentialId: string) =>
    makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'Start' },
        { id: 'call', type: 'api', name: 'Call', config: { url: 'https://example.com/x', method: 'GET', credentialId } },
      ],
      [['start', 'call']],
    );

  it('exports a credential by name without its data, and maps it on import by name and type, or as the body says', async () => {
    const ours = await credential(t.workspaceId, 'Orders API', 'http', { scheme: 'bearer', token: TOKEN });
    const source = await create(callWith(ours), 'With credential');
    const exported = await t.request('GET', `/api/v1/workflows/${source.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(TOKEN);
    expect(exported.text).not.toContain(ours);
    const document = exported.body.data;
    expect(document.state.blocks.call.config.credentialId).toEqual({ credential: 'Orders API' });
    expect(document.credentials).toEqual([{ name: 'Orders API', type: 'http' }]);

    // Nothing of that name in the other workspace: a 400 naming what to map.
    const unmapped = await t.request('POST', '/api/v1/workflows/import', { apiKey: t.personalKey, body: { workspaceId: otherWorkspace, document } });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.code).toBe('CREDENTIALS_UNMAPPED');
    expect(unmapped.body.error).toContain('"Orders API"');
    expect(unmapped.body.details).toEqual([{ path: 'credentials.Orders API', message: expect.stringContaining('no http credential named "Orders API"') }]);

    // A credential of the same name but another type is not taken; mapping to it is refused too.
    const wrongType = await credential(otherWorkspace, 'Orders API', 'redis', { host: '127.0.0.1' });
    expect((await t.request('POST', '/api/v1/workflows/import', { apiKey: t.personalKey, body: { workspaceId: otherWorkspace, document } })).status).toBe(400);
    const mappedWrong = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document, credentials: { 'Orders API': wrongType } },
    });
    expect(mappedWrong.body.details[0].message).toContain('a redis credential');

    // Mapped explicitly to a credential of another name.
    const theirs = await credential(otherWorkspace, 'Orders (staging)', 'http', { scheme: 'bearer', token: 'x-staging' });
    const mapped = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document, credentials: { 'Orders API': theirs } },
    });
    expect(mapped.status, mapped.text).toBe(201);
    expect(mapped.body.data.state.blocks.call.config.credentialId).toBe(theirs);
    // A credential id from elsewhere is not accepted as a mapping.
    const foreign = await t.request('POST', '/api/v1/workflows/import', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, document, credentials: { 'Orders API': ours } },
    });
    expect(foreign.status).toBe(400);

    // Back into the source workspace: mapped automatically by name and type.
    const same = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document, name: 'Copy' } });
    expect(same.status, same.text).toBe(201);
    expect(same.body.data.state.blocks.call.config.credentialId).toBe(ours);
  });
});
