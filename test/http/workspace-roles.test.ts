// Workspace roles (docs/api.md "Members and invites"): every write route of the API, tried as a viewer (403 naming the
// role), as an editor (not refused for its role), and the member routes as an editor (403) and an admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceMembers } from '../../src/db/schema.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { appendMemory } from '../../src/services/agent-memory.js';
import { generateApiKey, storeApiKey } from '../../src/services/api-keys.js';
import { findOrCreateUser } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

/** A user with `role` in the test workspace, and a personal key of theirs (a key acts with its owner's role). */
async function memberWithKey(email: string, role: string) {
  const user = await findOrCreateUser(t.app.db, email, 'free');
  await t.app.db.insert(workspaceMembers).values({ workspaceId: t.workspaceId, userId: user.id, role }).onConflictDoNothing();
  const key = generateApiKey();
  await storeApiKey(t.app.db, { key, userId: user.id, workspaceId: null, name: 'test' });
  return { userId: user.id, key };
}

const ROLES_OPENAPI_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Roles', version: '1' },
  paths: { '/ping': { get: { responses: { '200': { description: 'ok' } } } } },
};

let seq = 0;

/** What the routes act on, made afresh for each row an editor or admin may carry out (some of them delete it). */
async function fixture(): Promise<Record<string, string>> {
  const n = ++seq;
  const wf = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: `Roles ${n}`, state: echoState() } });
  const workflowId = wf.body.data.id;
  expect((await t.request('POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
  const run = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: 'x' } });
  const sub = await t.request('POST', `/api/v1/workflows/${workflowId}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook' } });
  const folder = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: `Folder ${n}` } });
  const credential = await t.request('POST', '/api/v1/credentials', {
    body: { workspaceId: t.workspaceId, name: `Token ${n}`, type: 'http', data: { scheme: 'bearer', token: 'secret' } },
  });
  const connector = await t.request('POST', '/api/v1/connectors', {
    body: { workspaceId: t.workspaceId, name: `Connector ${n}`, document: ROLES_OPENAPI_DOCUMENT },
  });
  await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { [`VAR_${n}`]: 'secret' } } });
  const target = await memberWithKey(`target${n}@example.com`, 'viewer');
  const invite = await t.request('POST', `/api/v1/workspaces/${t.workspaceId}/invites`, { body: { role: 'viewer' } });
  // An agent's conversation memory (written directly: no model needed to have one).
  await appendMemory(t.app.db, { workflowId, key: 'conversation 1', executionId: 'exec_roles' }, [{ role: 'user', content: 'hello' }]);
  return {
    workspaceId: t.workspaceId,
    workflowId,
    version: '1',
    executionId: run.headers.get('x-execution-id')!,
    subscriptionId: sub.body.data.id,
    deliveryId: 'dlv_unknown',
    folderId: folder.body.data.id,
    credentialId: credential.body.data.id,
    connectorId: connector.body.data.id,
    name: `VAR_${n}`,
    userId: target.userId,
    inviteId: invite.body.data.id,
    key: encodeURIComponent('conversation 1'),
  };
}

type Row = {
  route: string;
  body?: unknown;
  needs: 'editor' | 'admin';
  refusal: string;
  /** What an editor gets when it is not a success: the request passes the role check and fails further on. */
  editorStatus?: number;
};

/** Every write route that a role decides, with what a viewer (or an editor, for `admin`) is told. */
const ROWS: Row[] = [
  { route: 'PUT /api/v1/workspaces/{workspaceId}/env', body: { variables: { A: 'b' } }, needs: 'editor', refusal: 'change environment variables' },
  { route: 'DELETE /api/v1/workspaces/{workspaceId}/env/{name}', needs: 'editor', refusal: 'change environment variables' },
  { route: 'POST /api/v1/workflows', body: { workspaceId: '{workspaceId}', name: 'New' }, needs: 'editor', refusal: 'create workflows' },
  {
    route: 'POST /api/v1/workflows/import',
    body: { workspaceId: '{workspaceId}', document: { format: 'sluice.workflow', version: 1, name: 'Imported', state: echoState() } },
    needs: 'editor',
    refusal: 'import workflows',
  },
  { route: 'PATCH /api/v1/workflows/{workflowId}', body: { name: 'Renamed' }, needs: 'editor', refusal: 'edit workflows' },
  { route: 'DELETE /api/v1/workflows/{workflowId}', needs: 'editor', refusal: 'delete workflows' },
  { route: 'POST /api/v1/workflows/{workflowId}/deploy', needs: 'editor', refusal: 'deploy workflows' },
  { route: 'DELETE /api/v1/workflows/{workflowId}/deploy', needs: 'editor', refusal: 'undeploy workflows' },
  { route: 'POST /api/v1/workflows/{workflowId}/deployments/{version}/activate', needs: 'editor', refusal: 'roll back deployments' },
  { route: 'POST /api/v1/workflows/{workflowId}/run', body: {}, needs: 'editor', refusal: 'run drafts' },
  { route: 'POST /api/v1/workflows/{workflowId}/webhooks', body: { url: 'http://127.0.0.1:9/x' }, needs: 'editor', refusal: 'manage webhook subscriptions' },
  { route: 'POST /api/v1/workflows/{workflowId}/webhooks/deliveries/{deliveryId}/redeliver', needs: 'editor', refusal: 'manage webhook subscriptions' },
  { route: 'PATCH /api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', body: { active: false }, needs: 'editor', refusal: 'manage webhook subscriptions' },
  { route: 'DELETE /api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', needs: 'editor', refusal: 'manage webhook subscriptions' },
  { route: 'POST /api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test', needs: 'editor', refusal: 'manage webhook subscriptions' },
  {
    route: 'POST /api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries/{deliveryId}/redeliver',
    needs: 'editor',
    refusal: 'manage webhook subscriptions',
  },
  { route: 'DELETE /api/v1/workflows/{workflowId}/memories/{key}', needs: 'editor', refusal: 'delete agent memories' },
  { route: 'POST /api/v1/folders', body: { workspaceId: '{workspaceId}', name: 'F' }, needs: 'editor', refusal: 'change folders' },
  { route: 'PATCH /api/v1/folders/{folderId}', body: { name: 'G' }, needs: 'editor', refusal: 'change folders' },
  { route: 'DELETE /api/v1/folders/{folderId}', needs: 'editor', refusal: 'change folders' },
  {
    route: 'POST /api/v1/credentials',
    body: { workspaceId: '{workspaceId}', name: 'C', type: 'http', data: { scheme: 'bearer', token: 't' } },
    needs: 'editor',
    refusal: 'change credentials',
  },
  { route: 'PATCH /api/v1/credentials/{credentialId}', body: { name: 'D' }, needs: 'editor', refusal: 'change credentials' },
  { route: 'DELETE /api/v1/credentials/{credentialId}', needs: 'editor', refusal: 'change credentials' },
  { route: 'POST /api/v1/credentials/{credentialId}/test', needs: 'editor', refusal: 'change credentials' },
  {
    route: 'POST /api/v1/connectors',
    body: { workspaceId: '{workspaceId}', name: 'C', document: ROLES_OPENAPI_DOCUMENT },
    needs: 'editor',
    refusal: 'change connectors',
  },
  { route: 'DELETE /api/v1/connectors/{connectorId}', needs: 'editor', refusal: 'change connectors' },
  { route: 'POST /api/v1/executions/{executionId}/cancel', needs: 'editor', refusal: 'cancel runs' },
  { route: 'POST /api/v1/executions/{executionId}/resume', body: { approved: true }, needs: 'editor', refusal: 'approve or reject runs' },
  { route: 'POST /api/v1/executions/{executionId}/rerun', body: {}, needs: 'editor', refusal: 're-run executions' },
  { route: 'POST /api/v1/executions/{executionId}/retry', needs: 'editor', refusal: 're-run executions' },
  { route: 'POST /api/v1/executions/rerun', body: { workspaceId: '{workspaceId}', limit: 1 }, needs: 'editor', refusal: 're-run executions' },
  {
    route: 'POST /api/v1/mcp/tools',
    body: { workspaceId: '{workspaceId}', url: 'http://127.0.0.1:9/mcp' },
    needs: 'editor',
    refusal: 'list MCP tools',
    editorStatus: 502, // nothing listens on port 9: past the role check, the server cannot be reached
  },
  { route: 'POST /api/v1/workspaces/{workspaceId}/members', body: { email: 'new@example.com', role: 'viewer' }, needs: 'admin', refusal: 'manage members' },
  { route: 'PATCH /api/v1/workspaces/{workspaceId}/members/{userId}', body: { role: 'editor' }, needs: 'admin', refusal: 'manage members' },
  { route: 'DELETE /api/v1/workspaces/{workspaceId}/members/{userId}', needs: 'admin', refusal: 'manage members' },
  { route: 'POST /api/v1/workspaces/{workspaceId}/invites', body: { role: 'viewer' }, needs: 'admin', refusal: 'manage members' },
  { route: 'DELETE /api/v1/workspaces/{workspaceId}/invites/{inviteId}', needs: 'admin', refusal: 'manage members' },
];

/** Write routes no role decides, and why (docs/api.md "Members and invites"). */
const NOT_BY_ROLE = [
  'POST /api/v1/auth/setup', // before anyone signs in
  'POST /api/v1/auth/sign-in',
  'POST /api/v1/auth/sign-up',
  'POST /api/v1/auth/sign-out',
  'POST /api/v1/invites/{token}/accept', // the token is the capability
  'POST /api/v1/workspaces', // a workspace of one's own, owned
  'POST /api/v1/api-keys', // a key acts with its owner's role, so a viewer's key is a viewer too
  'DELETE /api/v1/api-keys/{keyId}',
  // Calling a deployed workflow runs what an editor deployed: viewers may (it is how a workflow is used).
  'POST /api/workflows/{workflowId}/execute',
  'POST /api/webhooks/trigger/{path}', // no principal: the path (and signature) are the capability
  'POST /api/chat/{workflowId}',
];

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

async function attempt(row: Row, key: string, values: Record<string, string>) {
  const [method, template] = row.route.split(' ');
  const body = row.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(row.body), values));
  return t.request(method, fill(template, values), { apiKey: key, body });
}

describe('roles on every write route', { timeout: 90_000 }, () => {
  it('lists every write route of the OpenAPI document, either decided by role or on purpose not', () => {
    const doc = openApiDocument(t.url) as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect([...ROWS.map((r) => r.route), ...NOT_BY_ROLE].sort()).toEqual(writes.sort());
  });

  it('refuses a viewer every write with 403 and a message naming the role', async () => {
    const viewer = await memberWithKey('viewer@example.com', 'viewer');
    const values = await fixture();
    for (const row of ROWS) {
      const res = await attempt(row, viewer.key, values);
      expect({ route: row.route, status: res.status, body: res.body }).toEqual({
        route: row.route,
        status: 403,
        body: { code: 'FORBIDDEN', error: `Viewers cannot ${row.refusal}` },
      });
    }
    // Nothing changed: the workflow is still deployed under its name, the variable still there.
    const wf = await t.request('GET', `/api/v1/workflows/${values.workflowId}`);
    expect(wf.body.data.name).toMatch(/^Roles /);
    const env = await t.request('GET', `/api/v1/workspaces/${t.workspaceId}/env`, { apiKey: viewer.key });
    expect(env.status).toBe(200);
    expect(env.body.data.map((v: { name: string }) => v.name)).toContain(values.name);
    expect(env.text).not.toContain('secret');
  });

  it('lets a viewer read what editors made', async () => {
    const viewer = await memberWithKey('reader@example.com', 'viewer');
    const values = await fixture();
    for (const path of [
      `/api/v1/workflows?workspaceId=${t.workspaceId}`,
      `/api/v1/workflows/${values.workflowId}`,
      `/api/v1/workflows/${values.workflowId}/deployments`,
      `/api/v1/workflows/${values.workflowId}/queued-runs`,
      `/api/v1/workflows/${values.workflowId}/webhooks`,
      `/api/v1/workflows/${values.workflowId}/memories`,
      `/api/v1/workflows/${values.workflowId}/memories/${values.key}`,
      `/api/v1/logs?workspaceId=${t.workspaceId}`,
      `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`,
      `/api/v1/workspaces/${t.workspaceId}/members`,
    ]) {
      expect({ path, status: (await t.request('GET', path, { apiKey: viewer.key })).status }).toEqual({ path, status: 200 });
    }
    // The subscription's secret is write-only for everyone.
    const subs = await t.request('GET', `/api/v1/workflows/${values.workflowId}/webhooks`, { apiKey: viewer.key });
    expect(subs.body.data[0]).not.toHaveProperty('secret');
  });

  it('lets an editor make every editor write, and refuses the member writes naming the role', async () => {
    const editor = await memberWithKey('editor@example.com', 'editor');
    for (const row of ROWS) {
      const res = await attempt(row, editor.key, await fixture());
      if (row.needs === 'admin') {
        expect({ route: row.route, status: res.status, error: res.body.error }).toEqual({
          route: row.route,
          status: 403,
          error: `Editors cannot ${row.refusal}`,
        });
      } else {
        expect({ route: row.route, status: res.status, body: res.body }).not.toMatchObject({ status: 403 });
        if (row.editorStatus) expect(res.status, `${row.route}: ${res.text}`).toBe(row.editorStatus);
        else expect(res.status, `${row.route}: ${res.text}`).toBeLessThan(500);
      }
    }
  });

  it('lets an admin manage members and invites', async () => {
    const admin = await memberWithKey('admin2@example.com', 'admin');
    for (const row of ROWS.filter((r) => r.needs === 'admin')) {
      const res = await attempt(row, admin.key, await fixture());
      expect({ route: row.route, status: res.status }).toEqual({
        route: row.route,
        status: row.route.startsWith('POST') ? 201 : row.route.startsWith('PATCH') ? 200 : 204,
      });
    }
  });

  it('a workspace-scoped key of a viewer is a viewer too', async () => {
    const viewer = await memberWithKey('scoped-viewer@example.com', 'viewer');
    const key = generateApiKey();
    await storeApiKey(t.app.db, { key, userId: viewer.userId, workspaceId: t.workspaceId, name: 'scoped' });
    const values = await fixture();
    const res = await t.request('POST', `/api/v1/workflows/${values.workflowId}/deploy`, { apiKey: key });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Viewers cannot deploy workflows');
  });
});

describe('members', () => {
  it('changes a role, reads `member` as editor, and never demotes or removes the owner', async () => {
    const someone = await memberWithKey('someone@example.com', 'viewer');
    const path = `/api/v1/workspaces/${t.workspaceId}/members`;
    const changed = await t.request('PATCH', `${path}/${someone.userId}`, { body: { role: 'member' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ userId: someone.userId, email: 'someone@example.com', role: 'editor' });
    const listed = (await t.request('GET', path)).body.data.find((m: { userId: string }) => m.userId === someone.userId);
    expect(listed.role).toBe('editor');
    // The editor can now deploy.
    const values = await fixture();
    expect((await t.request('POST', `/api/v1/workflows/${values.workflowId}/deploy`, { apiKey: someone.key })).status).toBe(200);

    const demote = await t.request('PATCH', `${path}/${t.userId}`, { body: { role: 'viewer' } });
    expect(demote.status).toBe(400);
    expect(demote.body.error).toBe('The workspace owner cannot be demoted');
    const remove = await t.request('DELETE', `${path}/${t.userId}`);
    expect(remove.status).toBe(400);
    expect(remove.body.error).toBe('The workspace owner cannot be removed');
    expect((await t.request('PATCH', `${path}/${someone.userId}`, { body: { role: 'owner' } })).status).toBe(400);
    expect((await t.request('PATCH', `${path}/usr_nobody`, { body: { role: 'viewer' } })).status).toBe(404);
  });

  it('reads a membership stored as `member` (before viewers existed) as an editor', async () => {
    const legacy = await memberWithKey('legacy@example.com', 'member');
    const listed = (await t.request('GET', `/api/v1/workspaces/${t.workspaceId}/members`)).body.data;
    expect(listed.find((m: { userId: string }) => m.userId === legacy.userId).role).toBe('editor');
    const values = await fixture();
    expect((await t.request('POST', `/api/v1/workflows/${values.workflowId}/deploy`, { apiKey: legacy.key })).status).toBe(200);
  });
});
