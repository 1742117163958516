// Subscription management (docs/api.md 7): create/read/list/update/delete, defaults, validation of every field,
// the write-only encrypted secret, and tenant isolation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSubscriptions } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createDeployedWorkflow, subscribe } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const base = (workflowId: string) => `/api/v1/workflows/${workflowId}/webhooks`;

describe('webhook subscriptions', () => {
  it('creates with the documented defaults, reads, lists, updates and deletes', async () => {
    const wf = await createDeployedWorkflow(t);
    const created = await t.request('POST', base(wf.id), { body: { url: 'https://hooks.example.com/sluice' } });
    expect(created.status).toBe(201);
    const sub = created.body.data;
    expect(sub).toEqual({
      id: expect.stringMatching(/^sub_/),
      workflowId: wf.id,
      url: 'https://hooks.example.com/sluice',
      hasSecret: false,
      includeFinalOutput: false,
      includeTraceSpans: false,
      includeRateLimits: false,
      includeUsageData: false,
      levelFilter: ['info', 'error'],
      triggerFilter: ['api', 'webhook', 'schedule', 'manual', 'chat', 'queue'],
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    expect((await t.request('GET', `${base(wf.id)}/${sub.id}`)).body.data).toEqual(sub);
    expect((await t.request('GET', base(wf.id))).body.data).toEqual([sub]);

    const patched = await t.request('PATCH', `${base(wf.id)}/${sub.id}`, {
      body: { active: false, levelFilter: ['error'], triggerFilter: ['schedule', 'api', 'api'], includeFinalOutput: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      active: false,
      levelFilter: ['error'],
      triggerFilter: ['api', 'schedule'],
      includeFinalOutput: true,
      url: 'https://hooks.example.com/sluice',
    });

    expect((await t.request('DELETE', `${base(wf.id)}/${sub.id}`)).status).toBe(204);
    expect((await t.request('GET', `${base(wf.id)}/${sub.id}`)).status).toBe(404);
    expect((await t.request('GET', base(wf.id))).body.data).toEqual([]);
  });

  it('keeps the secret write-only and encrypted at rest', async () => {
    const wf = await createDeployedWorkflow(t);
    const sub = await subscribe(t, wf.id, { url: 'https://hooks.example.com/a', secret: 'whsec-super-secret-value' });
    expect(sub.hasSecret).toBe(true);
    const read = await t.request('GET', `${base(wf.id)}/${sub.id}`);
    expect(read.text).not.toContain('whsec-super-secret-value');
    expect(read.body.data).not.toHaveProperty('secret');
    const [row] = await t.app.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id));
    expect(row.secretEncrypted).not.toContain('whsec-super-secret-value');
    expect(t.app.cipher.decrypt(row.secretEncrypted!)).toBe('whsec-super-secret-value');

    const cleared = await t.request('PATCH', `${base(wf.id)}/${sub.id}`, { body: { secret: null } });
    expect(cleared.body.data.hasSecret).toBe(false);
  });

  it('rejects invalid fields with 400 and the field named', async () => {
    const wf = await createDeployedWorkflow(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'url'],
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: '/relative/path' }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(3000)}` }, 'url'],
      [{ url: 'https://example.com', levelFilter: ['warn'] }, 'levelFilter.0'],
      [{ url: 'https://example.com', levelFilter: [] }, 'levelFilter'],
      [{ url: 'https://example.com', triggerFilter: ['cron'] }, 'triggerFilter.0'],
      [{ url: 'https://example.com', triggerFilter: 'api' }, 'triggerFilter'],
      [{ url: 'https://example.com', active: 'yes' }, 'active'],
      [{ url: 'https://example.com', includeFinalOutput: 1 }, 'includeFinalOutput'],
      [{ url: 'https://example.com', secret: 'short' }, 'secret'],
      [{ url: 'https://example.com', events: ['x'] }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await t.request('POST', base(wf.id), { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path), JSON.stringify(body)).toContain(path);
    }
    expect((await t.request('POST', base(wf.id), { rawBody: '{nope', headers: { 'content-type': 'application/json' } })).body.code).toBe(
      'INVALID_JSON',
    );
    const sub = await subscribe(t, wf.id, { url: 'https://example.com/ok' });
    const emptyPatch = await t.request('PATCH', `${base(wf.id)}/${sub.id}`, { body: {} });
    expect(emptyPatch.status).toBe(400);
    const badPatch = await t.request('PATCH', `${base(wf.id)}/${sub.id}`, { body: { url: 'gopher://x' } });
    expect(badPatch.status).toBe(400);
    expect((await t.request('GET', base(wf.id))).body.data).toHaveLength(1);
  });

  it('isolates tenants: another user sees 404 for the workflow, its subscriptions and deliveries', async () => {
    const wf = await createDeployedWorkflow(t);
    const sub = await subscribe(t, wf.id, { url: 'https://example.com/mine' });
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    const asEve = { apiKey: outsider.apiKey };
    const probes: Array<[string, string, unknown?]> = [
      ['GET', base(wf.id)],
      ['POST', base(wf.id), { url: 'https://evil.example.com' }],
      ['GET', `${base(wf.id)}/${sub.id}`],
      ['PATCH', `${base(wf.id)}/${sub.id}`, { url: 'https://evil.example.com' }],
      ['DELETE', `${base(wf.id)}/${sub.id}`],
      ['POST', `${base(wf.id)}/${sub.id}/test`],
      ['GET', `${base(wf.id)}/${sub.id}/deliveries`],
    ];
    for (const [method, path, body] of probes) {
      const res = await t.request(method, path, { ...asEve, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // Eve's own workflow cannot reach Alice's subscription by id either.
    const eveWf = await createDeployedWorkflow(t, undefined, outsider.apiKey, outsider.workspaceId);
    expect((await t.request('GET', `${base(eveWf.id)}/${sub.id}`, asEve)).status).toBe(404);
    expect((await t.request('DELETE', `${base(eveWf.id)}/${sub.id}`, asEve)).status).toBe(404);
    // Nothing changed for Alice.
    expect((await t.request('GET', `${base(wf.id)}/${sub.id}`)).body.data.url).toBe('https://example.com/mine');
    // And without a key it is 401.
    expect((await t.request('GET', base(wf.id), { apiKey: null })).status).toBe(401);
  });

  it('caps subscriptions per workflow', async () => {
    const wf = await createDeployedWorkflow(t);
    for (let i = 0; i < 20; i++) await subscribe(t, wf.id, { url: `https://example.com/${i}` });
    const res = await t.request('POST', base(wf.id), { body: { url: 'https://example.com/21' } });
    expect(res.status).toBe(409);
  });
});

describe('private-network guard at save time', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
  });
  afterAll(async () => guarded?.close());

  it('refuses loopback, private, link-local and names resolving to them', async () => {
    const wf = await createDeployedWorkflow(guarded);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://localhost:3000/hook',
    ]) {
      const res = await guarded.request('POST', base(wf.id), { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.details[0].path).toBe('url');
      expect(res.body.details[0].message).toMatch(/SLUICE_ALLOW_PRIVATE_NETWORK/);
    }
    const sub = await subscribe(guarded, wf.id, { url: 'https://93.184.215.14/hook' });
    const patched = await guarded.request('PATCH', `${base(wf.id)}/${sub.id}`, { body: { url: 'http://127.0.0.1/x' } });
    expect(patched.status).toBe(400);
  });
});
