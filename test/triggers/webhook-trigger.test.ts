// Inbound webhooks (README "Other triggers"): `POST /api/webhooks/trigger/{path}` runs the active deployment that owns
// the path with `<webhook.body>`, `<webhook.headers>`, `<webhook.query>`; optional HMAC check; paths are unique and
// live only while deployed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';
import { callWebhook, logOf, signWebhook } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

let pathCounter = 0;
const freshPath = (prefix = 'hook') => `${prefix}-${Date.now()}-${pathCounter++}`;

/** webhook_trigger → function that reports what the run saw. */
function hookState(path: string, extra: Record<string, unknown> = {}) {
  return makeState(
    [
      { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path, ...extra } },
      { id: 'seen', type: 'function', name: 'Seen', config: { code: "const h = <webhook.headers>; return { body: <webhook.body>, query: <webhook.query>, custom: h['x-custom'] ?? null };" } },
    ],
    [['hook', 'seen']],
  );
}

describe('webhook trigger', () => {
  it('runs the deployment with the JSON body, headers and query, answers {success, executionId}, logs trigger webhook', async () => {
    const path = freshPath();
    await createAndDeploy(t, hookState(path));
    const res = await callWebhook(t, `${path}?a=1&b=2&b=3`, JSON.stringify({ order: 42 }), { 'content-type': 'application/json', 'x-custom': 'yes' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, executionId: expect.stringMatching(/^exec_/) });
    const log = await logOf(t, res.body.executionId);
    expect(log.trigger).toBe('webhook');
    expect(log.executionData?.finalOutput.result).toEqual({ body: { order: 42 }, query: { a: '1', b: ['2', '3'] }, custom: 'yes' });
  });

  it('accepts form-encoded, multipart and plain text bodies', async () => {
    const path = freshPath();
    await createAndDeploy(t, hookState(path));
    const form = await callWebhook(t, path, 'name=Ada&tag=x&tag=y', { 'content-type': 'application/x-www-form-urlencoded' });
    expect((await logOf(t, form.body.executionId)).executionData?.finalOutput.result.body).toEqual({ name: 'Ada', tag: ['x', 'y'] });

    const text = await callWebhook(t, path, 'just words', { 'content-type': 'text/plain' });
    expect((await logOf(t, text.body.executionId)).executionData?.finalOutput.result.body).toBe('just words');

    const multipart = new FormData();
    multipart.set('field', 'value');
    multipart.set('upload', new Blob(['abc'], { type: 'text/plain' }), 'a.txt');
    const res = await fetch(`${t.url}/api/webhooks/trigger/${path}`, { method: 'POST', body: multipart });
    expect(res.status).toBe(200);
    const { executionId } = (await res.json()) as { executionId: string };
    expect((await logOf(t, executionId)).executionData?.finalOutput.result.body).toEqual({
      field: 'value',
      upload: { name: 'a.txt', type: 'text/plain', size: 3 },
    });

    const binary = await fetch(`${t.url}/api/webhooks/trigger/${path}`, {
      method: 'POST',
      body: new Uint8Array([0, 1, 2, 255]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const binaryRun = (await binary.json()) as { executionId: string };
    expect((await logOf(t, binaryRun.executionId)).executionData?.finalOutput.result.body).toBe('data:application/octet-stream;base64,AAEC/w==');

    // PostgreSQL cannot store U+0000: it arrives as U+FFFD rather than failing the run.
    const nul = await callWebhook(t, `${path}?q=a%00b`, '{"s":"x\\u0000y"}', { 'content-type': 'application/json' });
    expect(nul.status).toBe(200);
    expect((await logOf(t, nul.body.executionId)).executionData?.finalOutput.result).toMatchObject({ body: { s: 'x\uFFFDy' }, query: { q: 'a\uFFFDb' } });

    const badJson = await callWebhook(t, path, '{"oops"', { 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe('INVALID_JSON');
  });

  it('answers with the response block when one runs, and 500 with the execution id when the run fails', async () => {
    const path = freshPath();
    await createAndDeploy(
      t,
      makeState(
        [
          { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path } },
          { id: 'out', type: 'response', name: 'Out', config: { status: 202, headers: { 'x-reply': 'ok' }, body: { got: '<hook.body.n>' } } },
        ],
        [['hook', 'out']],
      ),
    );
    const res = await callWebhook(t, path, '{"n":7}', { 'content-type': 'application/json' });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-reply')).toBe('ok');
    expect(res.body).toEqual({ got: 7 });

    const failing = freshPath();
    await createAndDeploy(
      t,
      makeState(
        [
          { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: failing } },
          { id: 'boom', type: 'function', name: 'Boom', config: { code: "throw new Error('bad payload')" } },
        ],
        [['hook', 'boom']],
      ),
    );
    const failed = await callWebhook(t, failing, '{}', { 'content-type': 'application/json' });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED', executionId: expect.stringMatching(/^exec_/) });
    expect((await logOf(t, failed.body.executionId)).level).toBe('error');
  });

  it('verifies X-Sluice-Signature when the trigger has a secret (also one kept in an environment variable)', async () => {
    const path = freshPath('signed');
    await createAndDeploy(t, hookState(path, { secret: 'whsec-inbound-1' }));
    const body = JSON.stringify({ pay: 1 });
    const json = { 'content-type': 'application/json' };
    const unsigned = await callWebhook(t, path, body, json);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('UNAUTHORIZED');
    expect((await callWebhook(t, path, body, { ...json, 'x-sluice-signature': signWebhook('wrong-secret', body) })).status).toBe(401);
    expect((await callWebhook(t, path, body, { ...json, 'x-sluice-signature': signWebhook('whsec-inbound-1', '{"pay":2}') })).status).toBe(401);
    const stale = signWebhook('whsec-inbound-1', body, Date.now() - 6 * 60_000);
    expect((await callWebhook(t, path, body, { ...json, 'x-sluice-signature': stale })).status).toBe(401);
    const ok = await callWebhook(t, path, body, { ...json, 'x-sluice-signature': signWebhook('whsec-inbound-1', body) });
    expect(ok.status).toBe(200);

    const envPath = freshPath('signed-env');
    expect((await t.request('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { body: { variables: { HOOK_SECRET: 'from-env-secret' } } })).status).toBe(200);
    await createAndDeploy(t, hookState(envPath, { secret: '{{HOOK_SECRET}}' }));
    expect((await callWebhook(t, envPath, body, { ...json, 'x-sluice-signature': signWebhook('{{HOOK_SECRET}}', body) })).status).toBe(401);
    expect((await callWebhook(t, envPath, body, { ...json, 'x-sluice-signature': signWebhook('from-env-secret', body) })).status).toBe(200);
  });

  it('keeps paths unique across workflows: a taken path is 409 at deploy, and frees up on undeploy', async () => {
    const path = freshPath('shared');
    const first = await createAndDeploy(t, hookState(path));
    const second = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Second', state: hookState(path) } });
    const taken = await t.request('POST', `/api/v1/workflows/${second.body.data.id}/deploy`);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('WEBHOOK_PATH_TAKEN');
    expect(taken.body.error).toContain(path);
    // The failed deploy changed nothing: still undeployed, and the path still runs the first workflow.
    expect((await t.request('GET', `/api/workflows/${second.body.data.id}/status`)).body.isDeployed).toBe(false);
    const stillFirst = await callWebhook(t, path, '{}', { 'content-type': 'application/json' });
    expect(stillFirst.status).toBe(200);

    expect((await t.request('DELETE', `/api/v1/workflows/${first}/deploy`)).status).toBe(200);
    const gone = await callWebhook(t, path, '{}');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOT_FOUND');
    expect((await t.request('POST', `/api/v1/workflows/${second.body.data.id}/deploy`)).status).toBe(200);
    expect((await callWebhook(t, path, '{}')).status).toBe(200);

    // Deleting the workflow removes its path too.
    expect((await t.request('DELETE', `/api/v1/workflows/${second.body.data.id}`)).status).toBe(204);
    expect((await callWebhook(t, path, '{}')).status).toBe(404);
  });

  it('follows the active version: redeploying with a new path moves it, activating the old version moves it back', async () => {
    const oldPath = freshPath('v1');
    const newPath = freshPath('v2/nested');
    const wf = await createAndDeploy(t, hookState(oldPath));
    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { state: hookState(newPath) } });
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    expect((await callWebhook(t, oldPath, '{}')).status).toBe(404);
    expect((await callWebhook(t, newPath, '{}')).status).toBe(200);
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deployments/1/activate`)).status).toBe(200);
    expect((await callWebhook(t, oldPath, '{}')).status).toBe(200);
    expect((await callWebhook(t, newPath, '{}')).status).toBe(404);
  });

  it('is 404 for an unknown path, and refuses to deploy two triggers with one path or a path that is a reference', async () => {
    expect((await callWebhook(t, 'no-such-path', '{}')).status).toBe(404);
    const dup = freshPath('dup');
    const twice = makeState([
      { id: 'a', type: 'webhook_trigger', name: 'A', config: { path: dup } },
      { id: 'b', type: 'webhook_trigger', name: 'B', config: { path: dup } },
    ]);
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Dup', state: twice } });
    const refused = await t.request('POST', `/api/v1/workflows/${created.body.data.id}/deploy`);
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].path).toBe('state.blocks.b.config.path');

    // Saving defers a referenced value to run time; a path must be literal to be registered, so deploy refuses it.
    const referenced = makeState([{ id: 'h', type: 'webhook_trigger', name: 'H', config: { path: '{{HOOK_PATH}}' } }]);
    const saved = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Ref', state: referenced } });
    expect(saved.status).toBe(201);
    const notLiteral = await t.request('POST', `/api/v1/workflows/${saved.body.data.id}/deploy`);
    expect(notLiteral.status).toBe(400);
    expect(notLiteral.body.details[0].path).toBe('state.blocks.h.config.path');
  });
});
