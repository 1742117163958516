// Human approval of agent tool calls (README "Agents", issue 25 item 6): a tool marked `requiresApproval` pauses the
// run before each call, listed with the tool and its arguments; the decision comes through the resume API, and the
// resumed agent goes on from where it stopped — the model is not called again for the steps already made, and the
// log counts each model call once. Driven as a user would, against the fake OpenAI-compatible server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { restartableSluice } from '../support/restartable.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';

let t: TestApp;
let worker: Worker;
let llm: FakeLlmServer;
let api: Server;
let apiUrl: string;
/** Paths the HTTP tools reached. */
const hits: string[] = [];

beforeAll(async () => {
  llm = await startFakeLlmServer();
  t = await startTestApp({ SLUICE_WORKER_POLL_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  api = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ done: req.url }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await worker?.stop(1_000);
  api?.closeAllConnections();
  await Promise.all([t?.close(), llm?.close(), new Promise((resolve) => api?.close(resolve))]);
});

const refundTool = (extra: Record<string, unknown> = {}) => ({
  type: 'http',
  name: 'refund',
  description: 'Refunds an order',
  parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
  request: { url: `${apiUrl}/refund/<args.order>`, method: 'POST' },
  retries: 0,
  requiresApproval: true,
  ...extra,
});
const lookupTool = () => ({ type: 'http', name: 'lookup', description: 'Looks an order up', request: { url: `${apiUrl}/lookup` }, retries: 0 });

const agentState = (tools: unknown[]) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
      {
        id: 'agent',
        type: 'agent',
        name: 'Agent',
        config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, apiKey: 'k', userPrompt: '<api.q>', tools },
      },
      { id: 'out', type: 'response', name: 'Out', config: { body: { answer: '<agent.content>', calls: '<agent.toolCalls>', steps: '<agent.steps>' } } },
    ],
    [
      ['start', 'agent'],
      ['agent', 'out'],
    ],
  );

const execute = (workflowId: string, q: string) => t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q } });
const resume = (executionId: string, body: unknown) => t.request('POST', `/api/v1/executions/${executionId}/resume`, { body });
const pausedEntry = async (executionId: string) =>
  (await t.request('GET', `/api/v1/executions?workspaceId=${t.workspaceId}&status=paused`)).body.data.find(
    (run: { executionId: string }) => run.executionId === executionId,
  );
/** Waits until the run is paused again after a decision (its next question listed). */
const pausedAgain = (executionId: string, callId: string) =>
  eventually(async () => {
    const entry = await pausedEntry(executionId);
    return entry?.toolCall?.id === callId ? entry : undefined;
  }, 15_000, `the run to pause at ${callId}`);

/** The tool results the model got in its latest request. */
const toolResults = () =>
  (llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string; tool_call_id?: string }>)
    .filter((m) => m.role === 'tool')
    .map((m) => [m.tool_call_id, m.content]);

describe('approval of agent tool calls', () => {
  it('pauses before the call, lists the tool and its arguments, and once approved runs it and goes on without calling the model again for the steps made', async () => {
    const wf = await createAndDeploy(t, agentState([refundTool()]), 'Refunds');
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'r1', name: 'refund', arguments: { order: 'A-7' } }], usage: { prompt: 1000, completion: 100 } },
      { kind: 'stream', tokens: ['Refunded A-7'], usage: { prompt: 2000, completion: 200 } },
    );
    const before = llm.requests.length;
    const paused = await execute(wf, 'refund A-7');
    expect(paused.status, paused.text).toBe(202);
    expect(paused.body.status).toBe('paused');
    const { executionId } = paused.body;
    expect(hits).not.toContain('/refund/A-7');

    const entry = await pausedEntry(executionId);
    expect(entry).toMatchObject({
      workflowId: wf,
      blockId: 'agent',
      message: 'Agent asks to call the tool refund',
      timeoutAt: null,
      defaultDecision: 'reject',
      toolCall: { id: 'r1', name: 'refund', arguments: { order: 'A-7' } },
    });

    expect((await resume(executionId, { approved: true })).status).toBe(202);
    const log = await logDetailOf(t, executionId);
    expect(log.status, log.error).toBe('success');
    expect(log.executionData.finalOutput.body).toMatchObject({ answer: 'Refunded A-7', steps: 2 });
    const [call] = log.executionData.finalOutput.body.calls;
    expect(call).toMatchObject({ id: 'r1', name: 'refund', result: { status: 200, data: { done: '/refund/A-7' } }, approval: { approved: true, decidedBy: t.userId } });
    expect(hits.filter((hit) => hit === '/refund/A-7')).toHaveLength(1);
    // Two model calls in all: the one before the pause was not made again.
    expect(llm.requests.length - before).toBe(2);
    expect(toolResults()).toEqual([['r1', JSON.stringify({ status: 200, data: { done: '/refund/A-7' } })]]);
    // Each model call counted once, in the log's cost and the agent's output.
    expect(log.cost.models['gpt-4o-mini'].tokens).toEqual({ prompt: 3000, completion: 300, total: 3300 });
    const agentSpan = log.executionData.traceSpans.find((s: { blockId: string }) => s.blockId === 'agent');
    expect(agentSpan.children.map((s: { type: string }) => s.type)).toEqual(['model_call', 'tool_call', 'model_call']);
    expect(log.approvals).toMatchObject({
      pauses: 1,
      decisions: { 'agent:1:r1': { approved: true, toolCall: { blockId: 'agent', id: 'r1', name: 'refund' } } },
    });
  });

  it('tells the model a rejected call was refused, with the reason the decider gave; the tool is not run', async () => {
    const wf = await createAndDeploy(t, agentState([refundTool()]), 'Refunds rejected');
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'r2', name: 'refund', arguments: { order: 'B-1' } }] },
      { kind: 'stream', tokens: ['I could not refund B-1'] },
    );
    const paused = await execute(wf, 'refund B-1');
    expect(paused.status).toBe(202);
    expect((await resume(paused.body.executionId, { approved: false, data: { note: 'already refunded' } })).status).toBe(202);
    const log = await logDetailOf(t, paused.body.executionId);
    expect(log.status).toBe('success');
    expect(log.executionData.finalOutput.body.answer).toBe('I could not refund B-1');
    expect(log.executionData.finalOutput.body.calls[0]).toMatchObject({
      name: 'refund',
      result: null,
      error: 'A person refused this call; it was not run. Reason: already refunded',
      approval: { approved: false },
    });
    expect(toolResults()).toEqual([['r2', 'Error: A person refused this call; it was not run. Reason: already refunded']]);
    expect(hits).not.toContain('/refund/B-1');
  });

  it('runs the other calls of the step at once, pauses once per guarded call, and resumes through several pauses', async () => {
    const wf = await createAndDeploy(t, agentState([lookupTool(), refundTool()]), 'Refunds in steps');
    llm.reply(
      {
        kind: 'tool_calls',
        calls: [
          { id: 'l1', name: 'lookup', arguments: {} },
          { id: 'c1', name: 'refund', arguments: { order: 'C-1' } },
          { id: 'c2', name: 'refund', arguments: { order: 'C-2' } },
        ],
        usage: { prompt: 10, completion: 1 },
      },
      { kind: 'tool_calls', calls: [{ id: 'c3', name: 'refund', arguments: { order: 'C-3' } }], usage: { prompt: 20, completion: 2 } },
      { kind: 'stream', tokens: ['Done'], usage: { prompt: 30, completion: 3 } },
    );
    const before = llm.requests.length;
    const lookups = hits.filter((hit) => hit === '/lookup').length;
    const paused = await execute(wf, 'refund C');
    expect(paused.status).toBe(202);
    const { executionId } = paused.body;
    // The lookup ran before the pause; the refunds wait, one question at a time.
    expect(hits.filter((hit) => hit === '/lookup').length).toBe(lookups + 1);
    expect((await pausedEntry(executionId)).toolCall).toMatchObject({ id: 'c1', arguments: { order: 'C-1' } });

    expect((await resume(executionId, { approved: true })).status).toBe(202);
    await pausedAgain(executionId, 'c2');
    expect(hits).toContain('/refund/C-1');
    expect((await resume(executionId, { approved: false })).status).toBe(202);
    await pausedAgain(executionId, 'c3');
    expect(toolResults().map(([id]) => id)).toEqual(['l1', 'c1', 'c2']);
    expect((await resume(executionId, { approved: true })).status).toBe(202);

    const log = await logDetailOf(t, executionId);
    expect(log.status).toBe('success');
    expect(log.executionData.finalOutput.body.answer).toBe('Done');
    expect(log.executionData.finalOutput.body.calls.map((c: { id: string; error?: string }) => [c.id, c.error === undefined])).toEqual([
      ['l1', true],
      ['c1', true],
      ['c2', false],
      ['c3', true],
    ]);
    expect(llm.requests.length - before).toBe(3);
    expect(hits.filter((hit) => hit === '/lookup').length).toBe(lookups + 1);
    expect(hits).not.toContain('/refund/C-2');
    expect(hits.filter((hit) => hit === '/refund/C-3')).toHaveLength(1);
    expect(log.cost.models['gpt-4o-mini'].tokens).toEqual({ prompt: 60, completion: 6, total: 66 });
    expect(log.approvals.pauses).toBe(3);
    expect(Object.keys(log.approvals.decisions).sort()).toEqual(['agent:1:c1', 'agent:1:c2', 'agent:2:c3']);
  });

  it('applies the tool’s default decision when its approval time-out passes', async () => {
    const wf = await createAndDeploy(t, agentState([refundTool({ approvalTimeoutMs: 1_000, approvalDefaultDecision: 'approve' })]), 'Refunds timed');
    llm.reply({ kind: 'tool_calls', calls: [{ id: 'd1', name: 'refund', arguments: { order: 'D-1' } }] }, { kind: 'stream', tokens: ['ok'] });
    const paused = await execute(wf, 'refund D-1');
    expect(paused.status).toBe(202);
    const entry = await pausedEntry(paused.body.executionId);
    expect(entry.defaultDecision).toBe('approve');
    expect(Date.parse(entry.timeoutAt) - Date.parse(entry.pausedAt)).toBe(1_000);
    const log = await logDetailOf(t, paused.body.executionId);
    expect(log.executionData.finalOutput.body.calls[0]).toMatchObject({ approval: { approved: true, decidedBy: null } });
    expect(hits).toContain('/refund/D-1');
  });

  it('keeps what the model calls before the pause cost when the paused run is cancelled', async () => {
    const wf = await createAndDeploy(t, agentState([refundTool()]), 'Refunds cancelled');
    llm.reply({ kind: 'tool_calls', calls: [{ id: 'e1', name: 'refund', arguments: { order: 'E-1' } }], usage: { prompt: 500, completion: 50 } });
    const paused = await execute(wf, 'refund E-1');
    expect(paused.status).toBe(202);
    expect((await t.request('POST', `/api/v1/executions/${paused.body.executionId}/cancel`)).status).toBe(200);
    const log = await logDetailOf(t, paused.body.executionId);
    expect(log.status).toBe('cancelled');
    expect(log.cost.models['gpt-4o-mini'].tokens).toEqual({ prompt: 500, completion: 50, total: 550 });
    expect(hits).not.toContain('/refund/E-1');
  });

  it('refuses, before any model call, a tool that needs approval in a workflow run as a sub-workflow', async () => {
    const child = await createAndDeploy(t, agentState([refundTool()]), 'Refunds child');
    const parent = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'sub', type: 'workflow', name: 'Sub', config: { workflowId: child, input: { q: 'refund' } } },
      ],
      [['start', 'sub']],
    );
    const wf = await createAndDeploy(t, parent, 'Refunds parent');
    const before = llm.requests.length;
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(res.status).toBe(500);
    expect(res.body.error).toContain('A tool that needs approval cannot wait for it here');
    expect(llm.requests.length).toBe(before);
  });
});

describe('approval of an agent tool call across a restart', { timeout: 120_000 }, () => {
  it('a run paused at a tool call before kill -9 is resumed by the restarted server, without calling the model again', async () => {
    const key = generateApiKey();
    const { env, call, dispose } = await restartableSluice('sluice-tool-approval-', key);
    let server: SluiceProcess | undefined;
    try {
      server = await startSluice(env);
      const me = await call(server, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId, name: 'refunds', state: agentState([refundTool()]) });
      const workflowId: string = created.body.data.id;
      expect((await call(server, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
      llm.reply(
        { kind: 'tool_calls', calls: [{ id: 'k1', name: 'refund', arguments: { order: 'K-9' } }], usage: { prompt: 40, completion: 4 } },
        { kind: 'stream', tokens: ['Refunded K-9'], usage: { prompt: 60, completion: 6 } },
      );
      const before = llm.requests.length;
      const paused = await call(server, 'POST', `/api/workflows/${workflowId}/execute`, { q: 'refund K-9' });
      expect(paused.status).toBe(202);
      await server.stop('SIGKILL');

      server = await startSluice(env);
      const listed = await call(server, 'GET', `/api/v1/executions?workspaceId=${workspaceId}&status=paused`);
      expect(listed.body.data).toEqual([
        expect.objectContaining({ executionId: paused.body.executionId, toolCall: { id: 'k1', name: 'refund', arguments: { order: 'K-9' } } }),
      ]);
      expect((await call(server, 'POST', `/api/v1/executions/${paused.body.executionId}/resume`, { approved: true })).status).toBe(202);
      const log = await eventually(async () => {
        const res = await call(server!, 'GET', `/api/v1/logs?workspaceId=${workspaceId}&executionId=${paused.body.executionId}&includeFinalOutput=true`);
        return res.body.data?.[0];
      }, 20_000, 'the resumed run to be logged');
      expect(log.level).toBe('info');
      expect(log.executionData.finalOutput.body).toMatchObject({ answer: 'Refunded K-9', steps: 2 });
      expect(llm.requests.length - before).toBe(2);
      expect(hits.filter((hit) => hit === '/refund/K-9')).toHaveLength(1);
    } finally {
      await server?.stop();
      await dispose();
    }
  });
});
