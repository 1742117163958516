// The response schemas of the OpenAPI document (src/http/response-schemas.ts) against real answers. The TypeScript
// client's types are generated from them, so a field a route adds, drops or renames must fail here first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openApiDocument } from '../../src/http/openapi.js';
import { responseSchemas } from '../../src/http/response-schemas.js';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { eventually, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
let worker: Worker;
beforeAll(async () => {
  t = await startTestApp();
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
  it('workflows, deployments, export and import', async () => {
    conforms('Me', (await t.request('GET', '/api/v1/me')).body);
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
    const queued = await t.request('POST', `/api/workflows/${id}/execute`, { body: { fail: false }, headers: { 'x-execution-mode': 'async' } });
    expect(queued.status).toBe(202);
    conforms('ExecuteAccepted', queued.body);
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

  it('names a schema for every documented body, and each resolves', () => {
    const doc = openApiDocument('http://x') as any;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const refPath of new Set(refs)) expect(doc.components.schemas[refPath.split('/').pop()!], refPath).toBeDefined();
    expect(doc.paths['/api/v1/logs'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LogPage' });
  });
});
