// The response schemas of the OpenAPI document (src/http/response-schemas.ts) against real answers. The TypeScript
// client's types are generated from them, so a field a route adds, drops or renames must fail here first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openApiDocument } from '../../src/http/openapi.js';
import { responseSchemas } from '../../src/http/response-schemas.js';
import { createAppWorker } from '../../src/app/worker.js';
import { appendMemory } from '../../src/services/agent-memory.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { eventually, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
let worker: Worker;
beforeAll(async () => {
  // Sign-up on, so its answer can be checked too.
  t = await startTestApp({ SLUICE_ALLOW_SIGNUP: 'true' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(1000);
  await t?.close();
});

/** Parses with the named schema and reports every mismatch at once. */
function conforms(name: keyof typeof responseSchemas, body: unknown) {
  const result = (responseSchemas[name] as z.ZodType).safeParse(body);
  expect(result.success ? [] : result.error.issues, `${name}: ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
}

describe('documented responses match real ones', () => {
  /** An invite made with the members' answers, accepted once first-run setup is over. */
  let inviteToken = '';

  it('workflows, deployments, export and import', async () => {
    conforms('Me', (await t.request('GET', '/api/v1/me')).body);
    conforms('BlockTypeList', (await t.request('GET', '/api/v1/block-types')).body);
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Doc', state: echoState() } });
    conforms('WorkflowResponse', created.body);
    const id = created.body.data.id;
    conforms('WorkflowList', (await t.request('GET', `/api/v1/workflows?workspaceId=${t.workspaceId}`)).body);
    conforms('WorkflowResponse', (await t.request('GET', `/api/v1/workflows/${id}`)).body);
    conforms('WorkflowResponse', (await t.request('PATCH', `/api/v1/workflows/${id}`, { body: { description: 'd' } })).body);
    conforms('WorkflowStatus', (await t.request('GET', `/api/workflows/${id}/status`)).body);
    conforms('DeployResult', (await t.request('POST', `/api/v1/workflows/${id}/deploy`)).body);
    conforms('WorkflowStatus', (await t.request('GET', `/api/workflows/${id}/status`)).body);
    conforms('DeploymentList', (await t.request('GET', `/api/v1/workflows/${id}/deployments`)).body);
    conforms('DeployResult', (await t.request('POST', `/api/v1/workflows/${id}/deployments/1/activate`)).body);
    const exported = await t.request('GET', `/api/v1/workflows/${id}/export`);
    conforms('WorkflowExport', exported.body);
    const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: exported.body.data } });
    conforms('WorkflowImportResult', imported.body);
    conforms('Undeployed', (await t.request('DELETE', `/api/v1/workflows/${id}/deploy`)).body);
  });

  it('execution answers, jobs, logs and webhooks', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'fail', type: 'boolean' }] } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'if (<api.fail>) throw new Error("asked to"); return { ok: true };' } },
      ],
      [['start', 'fn']],
    );
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Runs', state } });
    const id = created.body.data.id;
    await t.request('POST', `/api/v1/workflows/${id}/deploy`);
    const sub = await t.request('POST', `/api/v1/workflows/${id}/webhooks`, {
      body: { url: 'https://example.com/hook', secret: 'whsec-0123456789', includeFinalOutput: true, includeTraceSpans: true },
    });
    conforms('SubscriptionResponse', sub.body);
    const subPath = `/api/v1/workflows/${id}/webhooks/${sub.body.data.id}`;

    const plain = await t.request('POST', `/api/workflows/${id}/execute`, { body: { fail: false } });
    expect(plain.status).toBe(200);
    conforms('ExecuteResult', plain.body);
    const failed = await t.request('POST', `/api/workflows/${id}/execute`, { body: { fail: true } });
    expect(failed.status).toBe(500);
    conforms('ExecuteFailure', failed.body);
    const streamed = await t.request('POST', `/api/workflows/${id}/execute`, { body: { stream: true, selectedOutputs: ['Fn.result'] } });
    const records = parseSse(streamed.text).records;
    expect(records.at(-1)).toBe('[DONE]');
    for (const record of records.slice(0, -2)) conforms('StreamChunk', record);
    conforms('StreamDone', records.at(-2));
    // The editor's Run: every engine event as a progress record, then the final record with the execution id.
    const manual = parseSse((await t.request('POST', `/api/v1/workflows/${id}/run`, { body: { input: { fail: true } } })).text).records;
    expect(manual.at(-1)).toBe('[DONE]');
    const progress = manual.slice(0, -2) as Array<{ event: string }>;
    expect(new Set(progress.map((r) => r.event))).toEqual(new Set(['run_started', 'block_started', 'block_finished']));
    for (const record of progress) conforms('RunProgress', record);
    conforms('StreamDone', manual.at(-2));
    expect(manual.at(-2)).toMatchObject({ success: false, executionId: expect.any(String) });
    const queued = await t.request('POST', `/api/workflows/${id}/execute`, { body: { fail: false }, headers: { 'x-execution-mode': 'async' } });
    expect(queued.status).toBe(202);
    conforms('ExecuteAccepted', queued.body);
    // Listed until a worker claims it (the list may already be empty).
    conforms('QueuedRunList', (await t.request('GET', `/api/v1/workflows/${id}/queued-runs`)).body);
    const done = await eventually(async () => {
      const job = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
      return job.body.status === 'completed' && job.body;
    });
    conforms('JobStatus', done);

    const basic = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${id}`);
    expect(basic.body.data.length).toBeGreaterThanOrEqual(3);
    conforms('LogPage', basic.body);
    const full = await t.request(
      'GET',
      `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${id}&details=full&includeTraceSpans=true&includeFinalOutput=true&limit=2`,
    );
    expect(full.body.nextCursor).not.toBeNull();
    conforms('LogPage', full.body);
    conforms('LogDetail', (await t.request('GET', `/api/v1/logs/${basic.body.data[0].id}`)).body);
    conforms('ExecutionDetail', (await t.request('GET', `/api/v1/logs/executions/${plain.body.executionId}`)).body);

    conforms('SubscriptionList', (await t.request('GET', `/api/v1/workflows/${id}/webhooks`)).body);
    conforms('SubscriptionResponse', (await t.request('GET', subPath)).body);
    conforms('SubscriptionResponse', (await t.request('PATCH', subPath, { body: { includeUsageData: true } })).body);
    const test = await t.request('POST', `${subPath}/test`);
    expect(test.status).toBe(202);
    conforms('DeliveryResponse', test.body);
    const deliveries = await t.request('GET', `${subPath}/deliveries`);
    conforms('DeliveryPage', deliveries.body);
    // Each delivery's body is the event a receiver verifies (the client's verifyWebhook returns it typed).
    expect(deliveries.body.data.length).toBeGreaterThanOrEqual(4);
    for (const delivery of deliveries.body.data) conforms('WebhookEvent', delivery.payload);
    conforms('DeliveryResponse', (await t.request('POST', `/api/v1/workflows/${id}/webhooks/deliveries/${test.body.data.id}/redeliver`)).body);

    // An agent's conversation memory, with a tool exchange in it (written directly: no model needed).
    await appendMemory(t.app.db, { workflowId: id, key: 'conv-1', executionId: plain.body.executionId }, [
      { role: 'user', content: 'Add 1 and 2' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }] },
      { role: 'tool', content: '3', toolCallId: 'call_1', toolName: 'add', isError: false },
      { role: 'assistant', content: 'It is 3' },
    ]);
    const memories = await t.request('GET', `/api/v1/workflows/${id}/memories`);
    conforms('MemoryPage', memories.body);
    expect(memories.body.data).toHaveLength(1);
    const memory = await t.request('GET', `/api/v1/workflows/${id}/memories/conv-1?limit=3`);
    conforms('MemoryDetail', memory.body);
    expect(memory.body.nextCursor).not.toBeNull();
  });

  it('chat and inbound webhook answers: JSON, streamed, failed', async () => {
    const chatState = makeState(
      [
        { id: 'chat', type: 'chat_trigger', name: 'Chat' },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'if (<chat.message> === "fail") throw new Error("asked to"); return <chat.message>;' } },
      ],
      [['chat', 'fn']],
    );
    const chat = (await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Chat', state: chatState } })).body.data.id;
    await t.request('POST', `/api/v1/workflows/${chat}/deploy`);
    const answered = await t.request('POST', `/api/chat/${chat}`, { body: { message: 'hi', stream: false } });
    expect(answered.status).toBe(200);
    conforms('ChatResult', answered.body);
    const failed = await t.request('POST', `/api/chat/${chat}`, { body: { message: 'fail', stream: false } });
    expect(failed.status).toBe(500);
    conforms('ChatFailure', failed.body);
    const streamed = parseSse((await t.request('POST', `/api/chat/${chat}`, { body: { message: 'hi', selectedOutputs: ['Fn.result'] } })).text).records;
    expect(streamed.at(-1)).toBe('[DONE]');
    for (const record of streamed.slice(0, -2)) conforms('StreamChunk', record);
    conforms('ChatStreamDone', streamed.at(-2));

    const path = `doc-${Date.now()}`;
    const hookState = makeState(
      [
        { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path } },
        { id: 'fn', type: 'function', name: 'Fn', config: { code: 'if (<hook.body.fail>) throw new Error("asked to"); return 1;' } },
      ],
      [['hook', 'fn']],
    );
    const hook = (await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Hook', state: hookState } })).body.data.id;
    await t.request('POST', `/api/v1/workflows/${hook}/deploy`);
    const accepted = await t.request('POST', `/api/webhooks/trigger/${path}`, { body: { fail: false }, apiKey: null });
    expect(accepted.status).toBe(200);
    conforms('WebhookAccepted', accepted.body);
    const hookFailed = await t.request('POST', `/api/webhooks/trigger/${path}`, { body: { fail: true }, apiKey: null });
    expect(hookFailed.status).toBe(500);
    conforms('ExecuteFailure', hookFailed.body);
  });

  it('approvals: paused answers (sync, streamed, async), the paused list, resume, cancel, and the log detail', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'gate', type: 'approval', name: 'Gate', config: { message: 'ok?', timeoutMs: 60_000 } },
      ],
      [['start', 'gate']],
    );
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Gated', state } });
    const id = created.body.data.id;
    await t.request('POST', `/api/v1/workflows/${id}/deploy`);
    const paused = await t.request('POST', `/api/workflows/${id}/execute`, { body: {} });
    expect(paused.status).toBe(202);
    conforms('ExecutionPaused', paused.body);
    conforms('ExecuteAcceptedOrPaused', paused.body);
    const streamed = await t.request('POST', `/api/workflows/${id}/execute`, { body: { stream: true } });
    conforms('StreamDone', parseSse(streamed.text).records.at(-2));
    const queued = await t.request('POST', `/api/workflows/${id}/execute`, { body: {}, headers: { 'x-execution-mode': 'async' } });
    const job = await eventually(async () => {
      const res = await t.request('GET', `/api/jobs/${queued.body.taskId}`);
      return res.body.status === 'paused' && res.body;
    });
    conforms('JobStatus', job);
    const list = await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`);
    expect(list.body.data).toHaveLength(3);
    conforms('PausedRunList', list.body);
    const resumed = await t.request('POST', `/api/v1/executions/${paused.body.executionId}/resume`, { body: { approved: true, data: { a: 1 } } });
    conforms('ResumeAccepted', resumed.body);
    const cancelled = await t.request('POST', `/api/v1/executions/${queued.body.executionId}/cancel`);
    conforms('CancelAnswer', cancelled.body);
    const logs = await eventually(async () => {
      const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&workflowIds=${id}`);
      return res.body.data.length === 2 && res.body.data;
    });
    for (const log of logs) conforms('LogDetail', (await t.request('GET', `/api/v1/logs/${log.id}`)).body);
  });

  it('re-runs: the answer, the dry run, async, a failed re-run, and the logs naming them', async () => {
    // An app of its own: this test reads the logs API more than the shared app's per-minute limit leaves.
    const t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
    const worker = createAppWorker(t.app, { pollIntervalMs: 50 });
    await worker.start();
    try {
      const state = makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'fail', type: 'boolean' }] } },
          { id: 'fn', type: 'function', name: 'Fn', config: { code: 'if (<api.fail>) throw new Error("asked to"); return { ok: true };' } },
        ],
        [['start', 'fn']],
      );
      const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Rerun', state } });
      const id = created.body.data.id;
      await t.request('POST', `/api/v1/workflows/${id}/deploy`);
      const first = await t.request('POST', `/api/workflows/${id}/execute`, { body: { fail: false } });
      const original = first.body.executionId;
      const again = await t.request('POST', `/api/v1/executions/${original}/rerun`, { body: { fromBlock: 'fn' } });
      expect(again.status, again.text).toBe(200);
      conforms('RerunResult', again.body);
      conforms('RerunResult', (await t.request('POST', `/api/v1/executions/${original}/rerun`, { body: { dryRun: true } })).body);
      const queued = await t.request('POST', `/api/v1/executions/${original}/rerun`, { body: { mode: 'async' } });
      expect(queued.status).toBe(202);
      conforms('RerunAccepted', queued.body);
      const failed = await t.request('POST', `/api/v1/executions/${original}/rerun`, { body: { input: { fail: true } } });
      expect(failed.status).toBe(500);
      conforms('RerunFailure', failed.body);
      await eventually(async () => (await t.request('GET', `/api/jobs/${queued.body.taskId}`)).body.status === 'completed');
      const reruns = (await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&rerunOf=${original}`)).body;
      expect(reruns.data).toHaveLength(3);
      conforms('LogPage', reruns);
      const [originalLog] = (await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${original}`)).body.data;
      const detail = (await t.request('GET', `/api/v1/logs/${originalLog.id}`)).body;
      expect(detail.data.reruns).toHaveLength(3);
      conforms('LogDetail', detail);
      conforms('LogDetail', (await t.request('GET', `/api/v1/logs/${reruns.data[0].id}`)).body);

      // In bulk: the one failed run (the failed re-run) retried, and its progress once it has failed again.
      const batch = await t.request('POST', '/api/v1/executions/rerun', { body: { workspaceId: t.workspaceId, filter: { workflowIds: id }, fromFailedBlock: true } });
      expect(batch.status, batch.text).toBe(202);
      conforms('RerunBatchAccepted', batch.body);
      const progress = await eventually(async () => {
        const res = await t.request('GET', `/api/v1/executions/rerun/${batch.body.data.batchId}`);
        return res.body.data.done === true && res.body;
      });
      expect(progress.data).toMatchObject({ total: 1, failed: 1 });
      conforms('RerunBatchProgress', progress);
    } finally {
      await worker.stop(1000);
      await t.close();
    }
  });

  it('probes: health, and readiness both ready and not', async () => {
    const health = await t.request('GET', '/health', { apiKey: null });
    expect(health.status).toBe(200);
    conforms('Health', health.body);
    const ready = await t.request('GET', '/ready', { apiKey: null });
    expect(ready.status).toBe(200);
    conforms('Readiness', ready.body);
    // Expecting a worker the readiness has not been handed makes the process unready (503, the same body).
    t.app.readiness.expectWorker();
    const unready = await t.request('GET', '/ready', { apiKey: null });
    expect(unready.status).toBe(503);
    expect(unready.body.checks.worker.ok).toBe(false);
    conforms('Readiness', unready.body);
    t.app.readiness.workerStarted(worker);
    const running = await t.request('GET', '/ready', { apiKey: null });
    expect(running.status).toBe(200);
    conforms('Readiness', running.body);
  });

  it('workspaces, members, environment variables, folders, API keys and usage limits', async () => {
    const personal = { apiKey: t.personalKey };
    conforms('WorkspaceList', (await t.request('GET', '/api/v1/workspaces', personal)).body);
    const workspace = await t.request('POST', '/api/v1/workspaces', { ...personal, body: { name: 'Documented' } });
    expect(workspace.status).toBe(201);
    conforms('WorkspaceResponse', workspace.body);

    const members = `/api/v1/workspaces/${t.workspaceId}/members`;
    const added = await t.request('POST', members, { body: { email: 'member@example.com', role: 'admin' } });
    expect(added.status).toBe(201);
    conforms('AddedMemberResponse', added.body);
    const memberList = await t.request('GET', members);
    expect(memberList.body.data).toHaveLength(2);
    conforms('MemberList', memberList.body);
    const changed = await t.request('PATCH', `${members}/${added.body.data.userId}`, { body: { role: 'viewer' } });
    expect(changed.status).toBe(200);
    conforms('MemberResponse', changed.body);

    const invites = `/api/v1/workspaces/${t.workspaceId}/invites`;
    const invite = await t.request('POST', invites, { body: { role: 'editor', email: 'invited@example.com' } });
    expect(invite.status).toBe(201);
    conforms('CreatedInviteResponse', invite.body);
    conforms('InviteList', (await t.request('GET', invites)).body);
    const token = new URL(invite.body.data.url).searchParams.get('token');
    const preview = await t.request('GET', `/api/v1/invites/${token}`, { apiKey: null });
    expect(preview.status).toBe(200);
    conforms('InvitePreview', preview.body);
    // Accepting (which signs in) is checked after first-run setup, which needs nobody to have a password yet.
    inviteToken = token!;

    const env = `/api/v1/workspaces/${t.workspaceId}/env`;
    const set = await t.request('PUT', env, { body: { variables: { DOC_TOKEN: 'secret-value', DOC_URL: 'https://example.com' } } });
    expect(set.status).toBe(200);
    conforms('EnvVarList', set.body);
    expect(set.text).not.toContain('secret-value');
    conforms('EnvVarList', (await t.request('GET', env)).body);

    const parent = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'Parent' } });
    expect(parent.status).toBe(201);
    conforms('FolderResponse', parent.body);
    const child = await t.request('POST', '/api/v1/folders', { body: { workspaceId: t.workspaceId, name: 'Child' } });
    const moved = await t.request('PATCH', `/api/v1/folders/${child.body.data.id}`, { body: { parentId: parent.body.data.id } });
    expect(moved.body.data.parentId).toBe(parent.body.data.id);
    conforms('FolderResponse', moved.body);
    conforms('FolderResponse', (await t.request('GET', `/api/v1/folders/${child.body.data.id}`)).body);
    conforms('FolderList', (await t.request('GET', `/api/v1/folders?workspaceId=${t.workspaceId}`)).body);

    // A personal key (workspaceId null) and a workspace key; the list shows used and unused ones, without the key.
    const personalKey = await t.request('POST', '/api/v1/api-keys', { ...personal, body: { name: 'doc personal' } });
    expect(personalKey.status).toBe(201);
    conforms('CreatedApiKeyResponse', personalKey.body);
    const workspaceKey = await t.request('POST', '/api/v1/api-keys', { body: { name: 'doc workspace', workspaceId: t.workspaceId } });
    conforms('CreatedApiKeyResponse', workspaceKey.body);
    const keys = await t.request('GET', '/api/v1/api-keys', personal);
    expect(keys.body.data.map((k: { scope: string }) => k.scope)).toEqual(expect.arrayContaining(['personal', 'workspace']));
    expect(keys.body.data.some((k: { lastUsedAt: string | null }) => k.lastUsedAt !== null)).toBe(true);
    expect(keys.text).not.toContain(personalKey.body.data.key);
    conforms('ApiKeyList', keys.body);

    const byKey = (await t.request('GET', '/api/users/me/usage-limits')).body;
    conforms('UsageLimits', byKey);
    expect(byKey.rateLimit.authType).toBe('api');
  });

  it('first-run setup, sign-in, sign-up and the session', async () => {
    const anonymous = { apiKey: null };
    const options = await t.request('GET', '/api/v1/auth/options', anonymous);
    expect(options.body.setupNeeded).toBe(true);
    conforms('AuthOptions', options.body);
    conforms('SetupState', (await t.request('GET', '/api/v1/auth/setup?token=wrong', anonymous)).body);
    const pending = await t.request('GET', `/api/v1/auth/setup?token=${t.app.setupToken}`, anonymous);
    expect(pending.body.suggestedEmail).toBe('admin@localhost');
    conforms('SetupState', pending.body);

    const password = 'correct horse battery';
    const setup = await t.request('POST', '/api/v1/auth/setup', {
      ...anonymous,
      body: { token: t.app.setupToken, email: 'admin@localhost', password },
    });
    expect(setup.status).toBe(201);
    conforms('SignedIn', setup.body);
    const signIn = await t.request('POST', '/api/v1/auth/sign-in', { ...anonymous, body: { email: 'admin@localhost', password } });
    expect(signIn.status).toBe(200);
    conforms('SignedIn', signIn.body);
    const signUp = await t.request('POST', '/api/v1/auth/sign-up', { ...anonymous, body: { email: 'new@example.com', password } });
    expect(signUp.status).toBe(201);
    conforms('SignedIn', signUp.body);

    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const session = await t.request('GET', '/api/v1/auth/session', { ...anonymous, headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.workspaces.length).toBeGreaterThanOrEqual(2);
    conforms('Session', session.body);
    // The same routes answer a session as they answer a key.
    const bySession = (await t.request('GET', '/api/users/me/usage-limits', { ...anonymous, headers: { cookie } })).body;
    conforms('UsageLimits', bySession);
    expect(bySession.rateLimit.authType).toBe('session');
    conforms('WorkspaceList', (await t.request('GET', '/api/v1/workspaces', { ...anonymous, headers: { cookie } })).body);
    conforms('AuthOptions', (await t.request('GET', '/api/v1/auth/options', anonymous)).body);

    const accepted = await t.request('POST', `/api/v1/invites/${inviteToken}/accept`, {
      ...anonymous,
      body: { email: 'invited@example.com', password: 'invited-password-1' },
    });
    expect(accepted.status).toBe(200);
    conforms('SignedIn', accepted.body);
  });

  it('names a schema for every documented body, and each resolves', () => {
    const doc = openApiDocument('http://x') as any;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const refPath of new Set(refs)) expect(doc.components.schemas[refPath.split('/').pop()!], refPath).toBeDefined();
    expect(doc.paths['/api/v1/logs'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LogPage' });
  });
});
