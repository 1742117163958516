// Agent tools through the real app (README "Agents"): a workflow tool runs a child execution linked to the agent's run,
// `<args.x>` in an http tool's request is the model's argument while every other reference is the engine's, and
// broken tool configurations are refused when the workflow is saved.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { responseSchemas } from '../../src/http/response-schemas.js';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
let llm: FakeLlmServer;
let api: Server;
let apiUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  llm = await startFakeLlmServer();
  // OPENAI_BASE_URL serves the README example, which names no base URL of its own.
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited', OPENAI_BASE_URL: llm.openAiBaseUrl });
  api = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stock: 7 }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  api?.closeAllConnections();
  await Promise.all([t?.close(), llm?.close(), new Promise((resolve) => api?.close(resolve))]);
});

const trigger = { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } };

const agentState = (tools: unknown[], extra: Record<string, unknown> = {}) =>
  makeState(
    [
      trigger,
      {
        id: 'agent',
        type: 'agent',
        name: 'Agent',
        config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, userPrompt: '<api.q>', tools, ...extra },
      },
      { id: 'out', type: 'response', name: 'Out', config: { body: { answer: '<agent.content>', calls: '<agent.toolCalls>' } } },
    ],
    [
      ['start', 'agent'],
      ['agent', 'out'],
    ],
  );

async function logOf(executionId: string) {
  return eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&details=full`);
    return res.body.data?.[0];
  }, 10_000, `the log of ${executionId}`);
}

describe('agent tools in runs', () => {
  it('a workflow tool runs the workflow as a child execution whose log links the agent’s run', async () => {
    const child = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'name', type: 'string', required: true, description: 'Who' }] } },
        { id: 'greet', type: 'function', name: 'Greet', config: { code: 'return `hello ${<api.name>}`;' } },
      ],
      [['start', 'greet']],
    );
    const childId = await createAndDeploy(t, child, 'Greeter');
    const parentId = await createAndDeploy(t, agentState([{ type: 'workflow', workflowId: childId, name: 'greet' }]), 'Agent with workflow tool');
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'g1', name: 'greet', arguments: { name: 'Ada' } }], usage: { prompt: 100, completion: 10 } },
      { kind: 'stream', tokens: ['Greeted'], usage: { prompt: 100, completion: 10 } },
    );
    const res = await t.request('POST', `/api/workflows/${parentId}/execute`, { body: { q: 'greet Ada' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.answer).toBe('Greeted');
    const [call] = res.body.calls;
    expect(call).toMatchObject({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } });
    expect(call.result.result).toBe('hello Ada');

    // The Input Format became the tool's schema the model was offered.
    const offered = (llm.requests.at(-2)!.body.tools as Array<{ function: { name: string; parameters: unknown } }>)[0]!;
    expect(offered.function).toMatchObject({
      name: 'greet',
      parameters: { type: 'object', properties: { name: { type: 'string', description: 'Who' } }, required: ['name'] },
    });

    const parentExecution = res.headers.get('x-execution-id')!;
    const children = await eventually(async () => {
      const list = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&parentExecutionId=${parentExecution}`);
      return list.body.data?.length ? list.body.data : undefined;
    }, 10_000, 'the child log');
    expect(children).toHaveLength(1);
    expect(children[0].workflowId).toBe(childId);

    // The trace: the agent's span holds a span per model call and per tool call, the child's trace under its tool call.
    const detail = (await t.request('GET', `/api/v1/logs/${(await logOf(parentExecution)).id}`)).body.data;
    const agentSpan = detail.executionData.traceSpans.find((s: { blockId: string }) => s.blockId === 'agent');
    expect(agentSpan.children.map((s: { type: string }) => s.type)).toEqual(['model_call', 'workflow', 'model_call']);
    expect(agentSpan.children[1].children.map((s: { blockId: string }) => s.blockId)).toEqual(['start', 'greet']);
    // Both model calls, priced once each, under the model's name.
    expect(detail.cost.models['gpt-4o-mini'].tokens).toEqual({ prompt: 200, completion: 20, total: 220 });
  });

  it('refuses at deploy a workflow tool that names no workflow of the workspace, or runs its own workflow', async () => {
    const created = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'Agent with a stray tool', state: agentState([{ type: 'workflow', workflowId: 'wf_doesnotexist' }]) },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const stray = await t.request('POST', `/api/v1/workflows/${id}/deploy`);
    expect(stray.status).toBe(400);
    expect(JSON.stringify(stray.body)).toContain('state.blocks.agent.config.tools.0.workflowId');
    expect(JSON.stringify(stray.body)).toContain('is not a workflow of this workspace');

    const saved = await t.request('PATCH', `/api/v1/workflows/${id}`, { body: { state: agentState([{ type: 'workflow', workflowId: id }]) } });
    expect(saved.status, saved.text).toBe(200);
    const cycle = await t.request('POST', `/api/v1/workflows/${id}/deploy`);
    expect(cycle.status).toBe(400);
    expect(JSON.stringify(cycle.body)).toContain('(a cycle)');
  });

  it('fills <args.x> with the model’s argument and other references from the run', async () => {
    const tool = {
      type: 'http',
      name: 'stock',
      description: 'Stock of an item',
      parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
      request: { url: `${apiUrl}/stock/<args.sku>`, query: { asked: '<api.q>' } },
    };
    const id = await createAndDeploy(t, agentState([tool]), 'Agent with http tool');
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 's1', name: 'stock', arguments: { sku: 'A-1' } }] },
      { kind: 'stream', tokens: ['7 left'] },
    );
    const res = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'how many' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.answer).toBe('7 left');
    expect(res.body.calls[0].result).toEqual({ status: 200, data: { stock: 7 } });
    expect(seen.at(-1)).toBe('/stock/A-1?asked=how+many');
  });

  it('an http tool with a stored credential sends its auth to the API, never to the model, the log or an export', async () => {
    const token = 'tool-Tk-3c9e71';
    const authorizations: (string | undefined)[] = [];
    const guarded = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stock: 3 }));
    });
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    try {
      const credential = await t.request('POST', '/api/v1/credentials', {
        body: { workspaceId: t.workspaceId, name: 'Stock API', type: 'http', data: { scheme: 'bearer', token } },
      });
      expect(credential.status, credential.text).toBe(201);
      const tool = {
        type: 'http',
        name: 'stock',
        description: 'Stock of an item',
        parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        request: { url: `http://127.0.0.1:${(guarded.address() as AddressInfo).port}/stock/<args.sku>` },
        credentialId: credential.body.data.id,
      };
      const id = await createAndDeploy(t, agentState([tool]), 'Agent with a credential tool');
      llm.reply({ kind: 'tool_calls', calls: [{ id: 'c1', name: 'stock', arguments: { sku: 'B-2' } }] }, { kind: 'stream', tokens: ['3 left'] });
      const res = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'how many' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.calls[0].result).toEqual({ status: 200, data: { stock: 3 } });
      expect(authorizations).toEqual([`Bearer ${token}`]);
      expect(JSON.stringify(llm.requests.slice(-2))).not.toContain(token);
      const detail = await t.request('GET', `/api/v1/logs/${(await logOf(res.headers.get('x-execution-id')!)).id}`);
      expect(detail.text).not.toContain(token);

      // The export names the credential; the import maps it back by name.
      const exported = await t.request('GET', `/api/v1/workflows/${id}/export`);
      expect(exported.body.data.state.blocks.agent.config.tools[0].credentialId).toEqual({ credential: 'Stock API' });
      expect(exported.body.data.credentials).toEqual([{ name: 'Stock API', type: 'http' }]);
      const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document: exported.body.data } });
      expect(imported.status, imported.text).toBe(201);
      expect(imported.body.data.state.blocks.agent.config.tools[0].credentialId).toBe(credential.body.data.id);

      // A credential that is gone is the tool's error, answered to the model, not a failed run.
      await t.request('DELETE', `/api/v1/credentials/${credential.body.data.id}`);
      llm.reply({ kind: 'tool_calls', calls: [{ id: 'c2', name: 'stock', arguments: { sku: 'B-2' } }] }, { kind: 'stream', tokens: ['cannot tell'] });
      const gone = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'how many' } });
      expect(gone.status, gone.text).toBe(200);
      expect(gone.body.calls[0].error).toContain('not found in this workspace');
      expect(authorizations).toHaveLength(1);
    } finally {
      guarded.closeAllConnections();
      await new Promise((resolve) => guarded.close(resolve));
    }
  });

  it('fails the run with the maxSteps error in the answer', async () => {
    const fn = { type: 'function', name: 'noop', code: 'return 1;' };
    const id = await createAndDeploy(t, agentState([fn], { maxSteps: 2 }), 'Endless agent');
    const endless = { kind: 'tool_calls' as const, calls: [{ name: 'noop', arguments: {} }] };
    llm.reply(endless, endless);
    const res = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'loop' } });
    expect(res.status).toBe(500);
    expect(res.body.error).toContain('The agent reached maxSteps (2 model calls) without a final answer');
  });

  it('runs the README example (examples/agent-tools.workflow.json): the model calls the function tool, then answers', async () => {
    const document = JSON.parse(readFileSync(new URL('../../examples/agent-tools.workflow.json', import.meta.url), 'utf8'));
    const imported = await t.request('POST', '/api/v1/workflows/import', { body: { workspaceId: t.workspaceId, document } });
    expect(imported.status, imported.text).toBe(201);
    const id = imported.body.data.id;
    expect((await t.request('POST', `/api/v1/workflows/${id}/deploy`)).status).toBe(200);
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'm1', name: 'multiply', arguments: { a: 1234, b: 5678 } }] },
      { kind: 'stream', tokens: ['1234 × 5678 = 7006652'] },
    );
    const res = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'What is 1234 times 5678?' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ answer: '1234 × 5678 = 7006652', steps: 2 });
    expect(res.body.toolCalls[0]).toMatchObject({ name: 'multiply', arguments: { a: 1234, b: 5678 }, result: { product: 7006652 } });
  });

  it('with streamEvents, a stream carries the agent’s steps and tool calls between the chunks; without, only chunks', async () => {
    const fn = { type: 'function', name: 'double', parameters: { type: 'object', properties: { n: { type: 'number' } } }, code: 'return args.n * 2;' };
    const state = makeState(
      [
        trigger,
        {
          id: 'agent',
          type: 'agent',
          name: 'Agent',
          config: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: llm.url, apiKey: 'k', userPrompt: '<api.q>', tools: [fn] },
        },
      ],
      [['start', 'agent']],
    );
    const id = await createAndDeploy(t, state, 'Streaming agent');
    const script = () =>
      llm.reply(
        { kind: 'tool_calls', calls: [{ id: 'd1', name: 'double', arguments: { n: 21 } }], usage: { prompt: 5, completion: 1 } },
        { kind: 'stream', tokens: ['4', '2'], usage: { prompt: 6, completion: 2 } },
      );

    script();
    const withEvents = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'double 21', stream: true, streamEvents: true } });
    const records = parseSse(withEvents.text).records as Array<Record<string, unknown>>;
    expect(records.slice(0, -2).map((r) => r.event ?? `chunk:${r.chunk}`)).toEqual(['step', 'tool_call', 'tool_result', 'step', 'chunk:4', 'chunk:2']);
    expect(records[0]).toEqual({ blockId: 'agent', event: 'step', step: 1, toolCalls: 1, tokens: { prompt: 5, completion: 1, total: 6 } });
    expect(records[1]).toEqual({ blockId: 'agent', event: 'tool_call', step: 1, id: 'd1', name: 'double', arguments: { n: 21 } });
    expect(records[2]).toMatchObject({ blockId: 'agent', event: 'tool_result', step: 1, id: 'd1', name: 'double', result: 42 });
    for (const record of records.slice(0, 4)) {
      const parsed = (responseSchemas.StreamEvent as z.ZodType).safeParse(record);
      expect(parsed.success, JSON.stringify(record)).toBe(true);
    }
    expect(records.at(-2)).toMatchObject({ event: 'done', success: true });

    script();
    const plain = await t.request('POST', `/api/workflows/${id}/execute`, { body: { q: 'double 21', stream: true } });
    const chunks = parseSse(plain.text).records.slice(0, -2);
    expect(chunks).toEqual([
      { blockId: 'agent', chunk: '4' },
      { blockId: 'agent', chunk: '2' },
    ]);
  });

  it('refuses tool name clashes, unusable parameter schemas and maxSteps above 50 when the workflow is saved', async () => {
    const save = (state: unknown) => t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'bad tools', state } });
    const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, code: 'return 1;', ...extra });

    const clash = await save(agentState([fn('lookup'), fn('lookup')]));
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.body)).toContain('the tool name \\"lookup\\" is already used by tool 0');

    const badSchema = await save(agentState([fn('lookup', { parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } } })]));
    expect(badSchema.status).toBe(400);
    expect(JSON.stringify(badSchema.body)).toMatch(/tools\.0\.parameters/);

    const tooMany = await save(agentState([fn('lookup')], { maxSteps: 51 }));
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toMatch(/maxSteps.*must be at most 50/);

    const badName = await save(agentState([fn('has space')]));
    expect(badName.status).toBe(400);
    expect(JSON.stringify(badName.body)).toMatch(/tools\.0\.name/);

    // A tool that needs approval is accepted; its approval time-out is held to the approval block's range.
    expect((await save(agentState([fn('lookup', { requiresApproval: true })]))).status).toBe(201);
    const approval = await save(agentState([fn('lookup', { requiresApproval: true, approvalTimeoutMs: 10 })]));
    expect(approval.status).toBe(400);
    expect(JSON.stringify(approval.body)).toMatch(/tools\.0\.approvalTimeoutMs.*must be at least 1000 ms/);

    // <args.x> names no block, and is still accepted: it is the model's argument.
    const ok = await save(agentState([{ type: 'http', name: 'x', request: { url: 'https://example.com/<args.id>' } }]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // …only there: elsewhere in the block it is a reference like any other, and names no block.
    const stray = await save(agentState([], { userPrompt: 'look up <args.id>' }));
    expect(stray.status).toBe(400);
    expect(JSON.stringify(stray.body)).toContain('reference <args.id> names no block');
  });
});
