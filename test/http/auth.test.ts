import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('API keys and /me', () => {
  it('answers who the key belongs to, with the header name in any case', async () => {
    for (const header of ['x-api-key', 'X-API-Key', 'X-Api-Key']) {
      const res = await t.request('GET', '/api/v1/me', { apiKey: null, headers: { [header]: t.apiKey } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        userId: t.userId,
        email: 'admin@localhost',
        workspaces: [{ id: t.workspaceId, name: 'Default', plan: 'free' }],
      });
    }
  });

  it('refuses missing, malformed and unknown keys with 401 in the error shape', async () => {
    for (const apiKey of [null, 'nope', 'sk-sluice-unknownunknownunknownunknown']) {
      const res = await t.request('GET', '/api/v1/me', { apiKey });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
      expect(res.body.error).toMatch(/API key/);
    }
  });

  it('creates a key shown once, lists only its hint, stores only the hash, and revokes it at once', async () => {
    const created = await t.request('POST', '/api/v1/api-keys', { apiKey: t.personalKey, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    const key: string = created.body.data.key;
    expect(key).toMatch(/^sk-sluice-[A-Za-z0-9]{32}$/);
    expect(created.body.data.scope).toBe('personal');

    const list = await t.request('GET', '/api/v1/api-keys', { apiKey: t.personalKey });
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.data.id);
    expect(listed.hint).toBe(`sk-sluice-…${key.slice(-4)}`);
    expect(list.text).not.toContain(key);

    const rows = await t.app.db.select().from(apiKeys);
    const row = rows.find((r) => r.id === created.body.data.id)!;
    // The SHA-256 hex of the key, computed here independently: keys stored by any earlier version keep matching.
    expect(row.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key);

    expect((await t.request('GET', '/api/v1/me', { apiKey: key })).status).toBe(200);
    const used = (await t.request('GET', '/api/v1/api-keys', { apiKey: t.personalKey })).body.data.find((k: { id: string }) => k.id === row.id);
    expect(used.lastUsedAt).not.toBeNull();

    // The workspace-scoped bootstrap key does not even see a personal key, let alone revoke it.
    expect((await t.request('DELETE', `/api/v1/api-keys/${row.id}`)).status).toBe(404);
    expect((await t.request('DELETE', `/api/v1/api-keys/${row.id}`, { apiKey: t.personalKey })).status).toBe(204);
    expect((await t.request('GET', '/api/v1/me', { apiKey: key })).status).toBe(401);
    expect((await t.request('DELETE', `/api/v1/api-keys/${row.id}`, { apiKey: t.personalKey })).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it('keeps workspaces apart for personal and workspace-scoped keys', async () => {
    // A second workspace for the admin, and an outsider with a workspace of their own.
    const ws2 = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Second' } });
    expect(ws2.status).toBe(201);
    const scoped = await t.request('POST', '/api/v1/api-keys', { body: { name: 'scoped', workspaceId: t.workspaceId } });
    expect(scoped.body.data.scope).toBe('workspace');
    const scopedKey: string = scoped.body.data.key;
    // The bootstrap key is itself workspace-scoped to Default (docs/api.md 2).
    expect((await t.request('GET', '/api/v1/me')).body.workspaces).toHaveLength(1);

    const wf2 = await t.request('POST', '/api/v1/workflows', {
      apiKey: t.personalKey,
      body: { workspaceId: ws2.body.data.id, name: 'In second', state: echoState() },
    });
    expect(wf2.status).toBe(201);

    // Personal key: both workspaces.
    const me = await t.request('GET', '/api/v1/me', { apiKey: t.personalKey });
    expect(me.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['Default', 'Second']);
    // Workspace key: only its own.
    const scopedMe = await t.request('GET', '/api/v1/me', { apiKey: scopedKey });
    expect(scopedMe.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['Default']);
    expect((await t.request('GET', `/api/v1/workflows?workspaceId=${ws2.body.data.id}`, { apiKey: scopedKey })).status).toBe(403);
    expect((await t.request('GET', `/api/v1/workflows/${wf2.body.data.id}`, { apiKey: scopedKey })).status).toBe(404);
    expect((await t.request('POST', `/api/v1/workflows/${wf2.body.data.id}/deploy`, { apiKey: scopedKey })).status).toBe(404);
    expect((await t.request('GET', `/api/workflows/${wf2.body.data.id}/status`, { apiKey: scopedKey })).status).toBe(404);
    // A workspace key cannot mint a personal key or create workspaces.
    expect((await t.request('POST', '/api/v1/api-keys', { apiKey: scopedKey, body: { name: 'escalate' } })).status).toBe(403);
    expect((await t.request('POST', '/api/v1/workspaces', { apiKey: scopedKey, body: { name: 'x' } })).status).toBe(403);

    // An outsider: member of the admin's workspace? No. Added later as a member: yes.
    const outsiderMember = await t.request('POST', `/api/v1/workspaces/${ws2.body.data.id}/members`, {
      apiKey: t.personalKey,
      body: { email: 'Outsider@Example.com', role: 'member' },
    });
    expect(outsiderMember.status).toBe(201);
    expect(outsiderMember.body.data.email).toBe('outsider@example.com');
    const members = await t.request('GET', `/api/v1/workspaces/${ws2.body.data.id}/members`, { apiKey: t.personalKey });
    expect(members.body.data.map((m: { role: string }) => m.role).sort()).toEqual(['editor', 'owner']);
    // The answer is the member as the list shows them; added again with another role, they keep the date they joined.
    const listed = members.body.data.find((m: { email: string }) => m.email === 'outsider@example.com');
    expect(outsiderMember.body.data).toEqual(listed);
    const promoted = await t.request('POST', `/api/v1/workspaces/${ws2.body.data.id}/members`, {
      apiKey: t.personalKey,
      body: { email: 'outsider@example.com', role: 'admin' },
    });
    expect(promoted.body.data).toEqual({ ...listed, role: 'admin' });
  });

  it('does not let another user reach this workspace through guessed ids', async () => {
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    const as = { apiKey: outsider.apiKey };
    const wf = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Private', state: echoState() },
    });
    const folder = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'Private' } });
    const id = wf.body.data.id;
    const attempts: Array<[string, string, number, unknown?]> = [
      ['GET', `/api/v1/workflows/${id}`, 404],
      ['PATCH', `/api/v1/workflows/${id}`, 404, { name: 'pwned' }],
      ['DELETE', `/api/v1/workflows/${id}`, 404],
      ['POST', `/api/v1/workflows/${id}/deploy`, 404],
      ['GET', `/api/v1/workflows/${id}/deployments`, 404],
      ['GET', `/api/workflows/${id}/status`, 404],
      ['GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`, 403],
      ['POST', '/api/v1/workflows', 403, { workspaceId: t.workspaceId, name: 'planted' }],
      ['GET', `/api/v1/folders/${folder.body.data.id}`, 404],
      ['DELETE', `/api/v1/folders/${folder.body.data.id}`, 404],
      ['GET', `/api/v1/workspaces/${t.workspaceId}/env`, 403],
      ['PUT', `/api/v1/workspaces/${t.workspaceId}/env`, 403, { variables: { A: 'b' } }],
      ['GET', `/api/v1/workspaces/${t.workspaceId}/members`, 403],
      ['POST', `/api/v1/workspaces/${t.workspaceId}/members`, 403, { email: 'eve2@example.com' }],
      ['POST', '/api/v1/api-keys', 403, { name: 'k', workspaceId: t.workspaceId }],
    ];
    for (const [method, path, status, body] of attempts) {
      const res = await t.request(method, path, { ...as, body });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.text).not.toContain('Private');
    }
    const still = await t.request('GET', `/api/v1/workflows/${id}`);
    expect(still.body.data.name).toBe('Private');
    expect(still.body.data.isDeployed).toBe(false);
    const outsiderMe = await t.request('GET', '/api/v1/me', as);
    expect(outsiderMe.body.workspaces.map((w: { id: string }) => w.id)).toEqual([outsider.workspaceId]);
  });
});

describe('folders and environment variables', () => {
  it('manages env vars without ever returning their values', async () => {
    const put = await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, {
      body: { variables: { STRIPE_KEY: 'sk_live_supersecret', REGION: 'eu' } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.map((v: { name: string }) => v.name)).toEqual(['REGION', 'STRIPE_KEY']);
    expect(put.text).not.toContain('supersecret');
    const list = await t.request('GET', `/api/v1/workspaces/${t.workspaceId}/env`);
    expect(list.text).not.toContain('supersecret');
    const bad = await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { 'bad name': 'x' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toContain('variables');
    expect((await t.request('DELETE', `/api/v1/workspaces/${t.workspaceId}/env/REGION`)).status).toBe(204);
    expect((await t.request('DELETE', `/api/v1/workspaces/${t.workspaceId}/env/REGION`)).status).toBe(404);
  });

  it('refuses folder cycles and unknown parents', async () => {
    const a = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'A' } });
    const b = await t.request('POST', '/api/v1/folders', {
      body: { workspaceId: t.workspaceId, name: 'B', parentId: a.body.data.id },
    });
    expect(b.status).toBe(201);
    const cycle = await t.request('PATCH', `/api/v1/folders/${a.body.data.id}`, { body: { parentId: b.body.data.id } });
    expect(cycle.status).toBe(400);
    const unknown = await t.request('POST', '/api/v1/folders', {
      body: { workspaceId: t.workspaceId, name: 'C', parentId: 'fld_unknown' },
    });
    expect(unknown.status).toBe(400);
  });
});

describe('error model', () => {
  it('answers unknown routes, malformed JSON and oversize bodies in the error shape', async () => {
    const unknown = await t.request('GET', '/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
    const api404 = await t.request('POST', '/api/definitely/not/here', { apiKey: null });
    expect(api404.status).toBe(404);
    expect(api404.body.code).toBe('NOT_FOUND');
    // Outside /api, unknown paths belong to the web app (single-page fallback), never to the JSON API.
    const page = await t.request('GET', '/definitely/not/here', { apiKey: null });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);

    const malformed = await t.request('POST', '/api/v1/workflows', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String), code: 'INVALID_JSON' });

    const huge = await t.request('POST', '/api/v1/workflows', {
      rawBody: JSON.stringify({ workspaceId: t.workspaceId, name: 'big', description: 'x'.repeat(6 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
