// Stored credentials (issue 26 item 1): validated per type, encrypted at rest, never returned, rotated in place,
// confined to their workspace.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let otherWorkspace: string;
beforeAll(async () => {
  t = await startTestApp();
  otherWorkspace = (await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } })).body.data.id;
});
afterAll(async () => t?.close());

const PASSWORD = 'pg-pass-Zq81!';

describe('credentials API', () => {
  it('stores a credential, shows its fields but never its secrets, and keeps the secret out of the database in clear', async () => {
    const created = await t.request('POST', '/api/v1/credentials', {
      body: {
        workspaceId: t.workspaceId,
        name: 'Orders DB',
        type: 'postgres',
        data: { host: '127.0.0.1', port: 5432, user: 'app', password: PASSWORD, database: 'orders' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Orders DB',
      type: 'postgres',
      fields: { host: '127.0.0.1', port: 5432, user: 'app', database: 'orders' },
      secretsSet: ['password'],
      version: 1,
    });
    expect(created.text).not.toContain(PASSWORD);

    const listed = await t.request('GET', `/api/v1/credentials?workspaceId=${t.workspaceId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { name: string }) => c.name)).toContain('Orders DB');
    expect(listed.text).not.toContain(PASSWORD);
    const read = await t.request('GET', `/api/v1/credentials/${created.body.data.id}`);
    expect(read.body.data.secretsSet).toEqual(['password']);
    expect(read.text).not.toContain(PASSWORD);

    const rows = await t.app.db.execute(sql`select * from credentials`);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(rows)).not.toContain('orders');
  });

  it('rotates one field, keeping the others, and moves the version on', async () => {
    const created = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: 'Mail', type: 'smtp', data: { host: 'mail.example.com', port: 587, user: 'bot', password: 'old' } },
    });
    const rotated = await t.request('PATCH', `/api/v1/credentials/${created.body.data.id}`, { body: { data: { password: 'new-secret' } } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ fields: { host: 'mail.example.com', port: 587, user: 'bot' }, secretsSet: ['password'], version: 2 });
    const removed = await t.request('PATCH', `/api/v1/credentials/${created.body.data.id}`, { body: { data: { password: null } } });
    expect(removed.body.data).toMatchObject({ secretsSet: [], version: 3 });
    const renamed = await t.request('PATCH', `/api/v1/credentials/${created.body.data.id}`, { body: { name: 'Mail (prod)' } });
    expect(renamed.body.data).toMatchObject({ name: 'Mail (prod)', version: 3 });
  });

  it('refuses data that does not fit the type, naming the field but not echoing the value', async () => {
    const bad = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: 'Bad', type: 'mysql', data: { host: '', user: 'x', password: 'leaky-value', database: 'd', port: 'x' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    const paths = bad.body.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['data.host', 'data.port']));
    expect(bad.text).not.toContain('leaky-value');

    const unknownType = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: 'Bad', type: 'ftp', data: {} },
    });
    expect(unknownType.status).toBe(400);

    const http = await t.request('POST', '/api/v1/credentials', {
      body: { workspaceId: t.workspaceId, name: 'Bad', type: 'http', data: { scheme: 'digest', token: 'x' } },
    });
    expect(http.status).toBe(400);
  });

  it('answers 409 to a second credential of the same name in a workspace, but not in another', async () => {
    const body = (workspaceId: string) => ({ workspaceId, name: 'Shared name', type: 'http', data: { scheme: 'bearer', token: 't' } });
    expect((await t.request('POST', '/api/v1/credentials', { body: body(t.workspaceId) })).status).toBe(201);
    const again = await t.request('POST', '/api/v1/credentials', { body: body(t.workspaceId) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CREDENTIAL_NAME_TAKEN');
    expect((await t.request('POST', '/api/v1/credentials', { apiKey: t.personalKey, body: body(otherWorkspace) })).status).toBe(201);
  });

  it('keeps a workspace-scoped key out of another workspace’s credentials (404)', async () => {
    const elsewhere = await t.request('POST', '/api/v1/credentials', {
      apiKey: t.personalKey,
      body: { workspaceId: otherWorkspace, name: 'Theirs', type: 'redis', data: { host: '127.0.0.1', password: 'p' } },
    });
    expect(elsewhere.status).toBe(201);
    const id = elsewhere.body.data.id;
    // The bootstrap key is scoped to the Default workspace.
    expect((await t.request('GET', `/api/v1/credentials/${id}`)).status).toBe(404);
    expect((await t.request('PATCH', `/api/v1/credentials/${id}`, { body: { name: 'Mine' } })).status).toBe(404);
    expect((await t.request('POST', `/api/v1/credentials/${id}/test`)).status).toBe(404);
    expect((await t.request('DELETE', `/api/v1/credentials/${id}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/credentials?workspaceId=${otherWorkspace}`)).status).toBe(403);
    expect((await t.request('DELETE', `/api/v1/credentials/${id}`, { apiKey: t.personalKey })).status).toBe(204);
    expect((await t.request('GET', `/api/v1/credentials/${id}`, { apiKey: t.personalKey })).status).toBe(404);
  });
});
