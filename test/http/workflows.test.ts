import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function createWorkflow(extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/v1/workflows', {
    body: { workspaceId: t.workspaceId, name: 'Echo', state: echoState(), ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('workflows CRUD', () => {
  it('creates, reads, updates, lists and deletes a workflow', async () => {
    const wf = await createWorkflow({ description: 'says it back' });
    expect(wf.id).toMatch(/^wf_/);
    expect(wf.state.blocks.start.type).toBe('api_trigger');
    expect(wf.isDeployed).toBe(false);

    const read = await t.request('GET', `/api/v1/workflows/${wf.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.description).toBe('says it back');

    const updated = await t.request('PATCH', `/api/v1/workflows/${wf.id}`, { body: { name: 'Echo 2' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.name).toBe('Echo 2');
    expect(updated.body.data.state).toEqual(read.body.data.state);

    const list = await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(wf.id);

    expect((await t.request('DELETE', `/api/v1/workflows/${wf.id}`)).status).toBe(204);
    expect((await t.request('GET', `/api/v1/workflows/${wf.id}`)).status).toBe(404);
  });

  it('lists by folder', async () => {
    const folder = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'Billing' } });
    expect(folder.status).toBe(201);
    const inFolder = await createWorkflow({ folderId: folder.body.data.id, name: 'In folder' });
    const outside = await createWorkflow({ name: 'Outside' });
    const list = await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}&folderId=${folder.body.data.id}`);
    const ids = list.body.data.map((w: { id: string }) => w.id);
    expect(ids).toContain(inFolder.id);
    expect(ids).not.toContain(outside.id);
  });

  it('rejects an invalid state with every problem listed and stores nothing', async () => {
    const before = await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`);
    const state = echoState();
    const bad = {
      ...state,
      blocks: {
        ...state.blocks,
        second: { id: 'second', type: 'api_trigger', name: 'Second', position: { x: 0, y: 0 }, config: {} },
        odd: { id: 'odd', type: 'teleport', name: 'Odd', position: { x: 0, y: 0 }, config: {} },
      },
      edges: [...state.edges, { id: 'e2', source: 'respond', target: 'nowhere' }],
    };
    const res = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Bad', state: bad } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const messages = res.body.details.map((d: { message: string }) => d.message).join('\n');
    expect(res.body.details.length).toBeGreaterThanOrEqual(3);
    expect(messages).toMatch(/teleport/);
    expect(messages).toMatch(/API trigger/i);
    expect(res.body.details.every((d: { path: string }) => d.path.startsWith('state'))).toBe(true);
    const after = await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`);
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('rejects bad input on create and update with 4xx and changes nothing', async () => {
    const wf = await createWorkflow();
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', '/api/v1/workflows', { workspaceId: t.workspaceId }, 400],
      ['POST', '/api/v1/workflows', { workspaceId: t.workspaceId, name: 42 }, 400],
      ['POST', '/api/v1/workflows', { workspaceId: t.workspaceId, name: 'x'.repeat(201) }, 400],
      ['POST', '/api/v1/workflows', { workspaceId: t.workspaceId, name: 'x', extra: true }, 400],
      ['POST', '/api/v1/workflows', { workspaceId: t.workspaceId, name: 'x', folderId: 'fld_nope' }, 400],
      ['POST', '/api/v1/workflows', { workspaceId: 'ws_someoneelse', name: 'x' }, 403],
      ['PATCH', `/api/v1/workflows/${wf.id}`, {}, 400],
      ['PATCH', `/api/v1/workflows/${wf.id}`, { state: { blocks: 'nope' } }, 400],
      ['PATCH', '/api/v1/workflows/wf_doesnotexist', { name: 'y' }, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await t.request(method, path, { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(typeof res.body.error).toBe('string');
      expect(typeof res.body.code).toBe('string');
    }
    const read = await t.request('GET', `/api/v1/workflows/${wf.id}`);
    expect(read.body.data.name).toBe('Echo');
    expect(read.body.data.state).toEqual(wf.state);
  });
});

describe('deployments', () => {
  it('deploys numbered versions, tracks needsRedeployment, activates an older one and undeploys', async () => {
    const wf = await createWorkflow();
    const status0 = await t.request('GET', `/api/workflows/${wf.id}/status`);
    expect(status0.body).toMatchObject({ isDeployed: false, deployedAt: null, needsRedeployment: false });

    const d1 = await t.request('POST', `/api/v1/workflows/${wf.id}/deploy`);
    expect(d1.status).toBe(200);
    expect(d1.body.version).toBe(1);
    expect(Date.parse(d1.body.deployedAt)).not.toBeNaN();

    const status1 = await t.request('GET', `/api/workflows/${wf.id}/status`);
    expect(status1.body).toMatchObject({ isDeployed: true, needsRedeployment: false });

    await t.request('PATCH', `/api/v1/workflows/${wf.id}`, { body: { state: echoState('other') } });
    const status2 = await t.request('GET', `/api/workflows/${wf.id}/status`);
    expect(status2.body.needsRedeployment).toBe(true);

    // Renaming does not change the state, so it does not need a redeploy.
    const d2 = await t.request('POST', `/api/v1/workflows/${wf.id}/deploy`);
    expect(d2.body.version).toBe(2);
    await t.request('PATCH', `/api/v1/workflows/${wf.id}`, { body: { name: 'Renamed' } });
    expect((await t.request('GET', `/api/workflows/${wf.id}/status`)).body.needsRedeployment).toBe(false);

    const list = await t.request('GET', `/api/v1/workflows/${wf.id}/deployments`);
    expect(list.body.data.map((d: { version: number }) => d.version)).toEqual([2, 1]);
    expect(list.body.data[0].isActive).toBe(true);

    const rollback = await t.request('POST', `/api/v1/workflows/${wf.id}/deployments/1/activate`);
    expect(rollback.status).toBe(200);
    expect(rollback.body.version).toBe(1);
    const afterRollback = await t.request('GET', `/api/v1/workflows/${wf.id}/deployments`);
    expect(afterRollback.body.data.find((d: { version: number }) => d.version === 1).isActive).toBe(true);
    // Draft (v2 state) now differs from the active v1.
    expect((await t.request('GET', `/api/workflows/${wf.id}/status`)).body.needsRedeployment).toBe(true);

    expect((await t.request('POST', `/api/v1/workflows/${wf.id}/deployments/9/activate`)).status).toBe(404);
    expect((await t.request('POST', `/api/v1/workflows/${wf.id}/deployments/abc/activate`)).status).toBe(400);

    const undeploy = await t.request('DELETE', `/api/v1/workflows/${wf.id}/deploy`);
    expect(undeploy.status).toBe(200);
    expect((await t.request('GET', `/api/workflows/${wf.id}/status`)).body.isDeployed).toBe(false);
    expect((await t.request('DELETE', `/api/v1/workflows/${wf.id}/deploy`)).status).toBe(409);
    // Versions are immutable history: undeploying keeps them.
    expect((await t.request('GET', `/api/v1/workflows/${wf.id}/deployments`)).body.data).toHaveLength(2);
  });

  it('gives concurrent deploys distinct versions', async () => {
    const wf = await createWorkflow();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.request('POST', `/api/v1/workflows/${wf.id}/deploy`)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('OpenAPI document', () => {
  it('describes the routes with the request schemas the server validates against', async () => {
    const res = await t.request('GET', '/api/openapi.json', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const create = res.body.paths['/api/v1/workflows'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['workspaceId', 'name']));
    expect(create.properties.name.maxLength).toBe(200);
    const logs = res.body.paths['/api/v1/logs'].get.parameters.map((p: { name: string }) => p.name);
    expect(logs).toEqual(expect.arrayContaining(['workspaceId', 'cursor', 'order', 'details', 'limit']));
    expect(res.body.paths['/api/workflows/{workflowId}/execute'].post).toBeDefined();
  });
});
