// The execution path serves keys, deployments, members and environment variables from per-process caches. A change
// must take effect at once in the process that made it, and within a second in every other process (the database's
// change feed; README "Caches"). Each case warms the cache first, so a stale copy would be served if invalidation
// failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, storeApiKey } from '../../src/services/api-keys.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

/** The stated bound for another process to see a change. */
const OTHER_PROCESS_BOUND_MS = 1_000;

const saying = (text: string, withEnv = true) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'out', type: 'response', name: 'Out', config: { body: withEnv ? { says: text, env: '{{GREETING}}' } : { says: text } } },
    ],
    [['start', 'out']],
  );

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const execute = (url: string, workflowId: string, key: string) =>
  fetch(`${url}/api/workflows/${workflowId}/execute`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: '{}',
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

describe('caches in the process that made the change', () => {
  it('a revoked key is refused on the very next request', async () => {
    const created = await t.request('POST', '/api/v1/api-keys', { apiKey: t.personalKey, body: { name: 'short-lived', workspaceId: t.workspaceId } });
    const { key, id } = created.body.data;
    expect((await t.request('GET', '/api/v1/me', { apiKey: key })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v1/api-keys/${id}`, { apiKey: t.personalKey })).status).toBe(204);
    const refused = await t.request('GET', '/api/v1/me', { apiKey: key });
    expect(refused.status).toBe(401);
  });

  it('a new deployment, a rollback, an undeploy and a changed environment variable apply to the next call', async () => {
    await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { GREETING: 'hi' } } });
    const workflowId = await createAndDeploy(t, saying('v1'));
    expect((await execute(t.url, workflowId, t.apiKey)).body).toEqual({ says: 'v1', env: 'hi' });

    await t.request('PATCH', `/api/v1/workflows/${workflowId}`, { body: { state: saying('v2') } });
    await t.request('POST', `/api/v1/workflows/${workflowId}/deploy`);
    expect((await execute(t.url, workflowId, t.apiKey)).body).toEqual({ says: 'v2', env: 'hi' });

    await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { GREETING: 'hello' } } });
    expect((await execute(t.url, workflowId, t.apiKey)).body).toEqual({ says: 'v2', env: 'hello' });

    await t.request('POST', `/api/v1/workflows/${workflowId}/deployments/1/activate`);
    expect((await execute(t.url, workflowId, t.apiKey)).body).toEqual({ says: 'v1', env: 'hello' });

    await t.request('DELETE', `/api/v1/workflows/${workflowId}/deploy`);
    expect((await execute(t.url, workflowId, t.apiKey)).status).toBe(409);
  });

  it('a member removed from a workspace loses access on the next call', async () => {
    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Shared' } });
    const workspaceId = other.body.data.id;
    const created = await t.request('POST', '/api/v1/workflows', {
      apiKey: t.personalKey,
      body: { workspaceId, name: 'shared', state: saying('shared', false) },
    });
    const workflowId = created.body.data.id;
    await t.request('POST', `/api/v1/workflows/${workflowId}/deploy`, { apiKey: t.personalKey });
    const member = await t.request('POST', `/api/v1/workspaces/${workspaceId}/members`, {
      apiKey: t.personalKey,
      body: { email: 'guest@example.com' },
    });
    expect(member.status).toBe(201);
    const guestUserId = member.body.data.userId;
    const guestKey = generateApiKey();
    await storeApiKey(t.app.db, { key: guestKey, userId: guestUserId, workspaceId: null, name: 'guest' });
    expect((await execute(t.url, workflowId, guestKey)).status).toBe(200);
    expect((await t.request('DELETE', `/api/v1/workspaces/${workspaceId}/members/${guestUserId}`, { apiKey: t.personalKey })).status).toBe(204);
    expect((await execute(t.url, workflowId, guestKey)).status).toBe(403);
  });
});

// Two `sluice serve` processes on one PostgreSQL: a change made through one is seen by the other within the bound.
describe.runIf(TEST_DATABASE_URL)('caches across processes (PostgreSQL)', { timeout: 120_000 }, () => {
  let other: SluiceProcess | undefined;
  afterAll(async () => {
    await other?.stop();
  });

  it(`a revocation and a deployment made in one process apply in another within ${OTHER_PROCESS_BOUND_MS} ms`, async () => {
    other = await startSluice({ DATABASE_URL: t.databaseUrl!, SLUICE_SECRET: t.config.secret!, SLUICE_ALLOW_PRIVATE_NETWORK: 'true' }, ['serve', '--no-worker']);

    const workflowId = await createAndDeploy(t, saying('one', false));
    const created = await t.request('POST', '/api/v1/api-keys', { apiKey: t.personalKey, body: { name: 'shared', workspaceId: t.workspaceId } });
    const { key, id } = created.body.data;
    // Warm the other process's caches.
    expect((await execute(other.url, workflowId, key)).body.says).toBe('one');

    await t.request('PATCH', `/api/v1/workflows/${workflowId}`, { body: { state: saying('two', false) } });
    await t.request('POST', `/api/v1/workflows/${workflowId}/deploy`);
    await eventually(async () => (await execute(other!.url, workflowId, key)).body.says === 'two', OTHER_PROCESS_BOUND_MS, 'the new deployment in the other process');

    await t.request('DELETE', `/api/v1/api-keys/${id}`, { apiKey: t.personalKey });
    await eventually(async () => (await execute(other!.url, workflowId, key)).status === 401, OTHER_PROCESS_BOUND_MS, 'the revocation in the other process');
  });
});
