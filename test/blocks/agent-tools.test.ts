// The agent loop with tools (README "Agents"), the agent block called directly against the local fake providers in
// both wire formats: tool calls answered by real local HTTP servers and the sandbox, their results sent back to the
// model, and the ways a loop ends (a final answer, maxSteps, maxCostUsd, cancel).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentBlock } from '../../src/blocks/agent.js';
import { latch, startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { fakeContext } from './context.js';

let llm: FakeLlmServer;

interface SeenRequest {
  method: string;
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A local HTTP API for http tools: records what it was sent and answers as `answer` says. */
let api: { server: Server; url: string; seen: SeenRequest[]; answer: (req: SeenRequest) => Promise<[number, unknown]> };

beforeAll(async () => {
  llm = await startFakeLlmServer();
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(parts).toString('utf8'), headers: req.headers };
      seen.push(request);
      void api.answer(request).then(([status, body]) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer: async () => [200, { ok: true }],
  };
});
afterAll(async () => {
  await llm.close();
  api.server.closeAllConnections();
  await new Promise<void>((resolve) => api.server.close(() => resolve()));
});
beforeEach(() => {
  llm.requests.length = 0;
  api.seen.length = 0;
  api.answer = async () => [200, { ok: true }];
});

function agentContext(config: Record<string, unknown>, options: { signal?: AbortSignal; references?: Record<string, unknown> } = {}) {
  const made = fakeContext(agentBlock, config, options);
  made.ctx.services = { ...made.ctx.services, allowPrivateNetwork: true, providerEnv: () => undefined };
  return made;
}

const weatherTool = () => ({
  type: 'http',
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  request: {
    url: `${api.url}/weather/<args.city>`,
    method: 'POST',
    query: { units: 'metric' },
    headers: { 'x-city': '<args.city>' },
    body: { city: '<args.city>' },
  },
  retries: 0,
});

const addTool = {
  type: 'function',
  name: 'add',
  description: 'Adds two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  code: 'return { sum: args.a + args.b };',
};

const providers = [
  {
    name: 'OpenAI-compatible',
    config: (extra: Record<string, unknown>) => ({ provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, userPrompt: 'Go', ...extra }),
    /** The tool results the model was sent in request i, as [callId, content] pairs. */
    toolResults(i: number): Array<[string, string]> {
      const messages = llm.requests[i]!.body.messages as Array<Record<string, unknown>>;
      return messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id as string, m.content as string]);
    },
    toolNames(i: number): string[] {
      return ((llm.requests[i]!.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
    },
  },
  {
    name: 'Anthropic',
    config: (extra: Record<string, unknown>) => ({
      provider: 'anthropic',
      model: 'claude-3-5-haiku-20241022',
      baseUrl: llm.url,
      apiKey: 'sk-ant-test',
      userPrompt: 'Go',
      ...extra,
    }),
    toolResults(i: number): Array<[string, string]> {
      const messages = llm.requests[i]!.body.messages as Array<{ role: string; content: unknown }>;
      return messages
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
        .filter((block) => block.type === 'tool_result')
        .map((block) => [block.tool_use_id as string, block.content as string]);
    },
    toolNames(i: number): string[] {
      return ((llm.requests[i]!.body.tools ?? []) as Array<{ name: string }>).map((t) => t.name);
    },
  },
];

describe.each(providers)('agent loop, $name', (provider) => {
  it('calls an http tool with the arguments filled into the request, sends the result back and streams only the final answer', async () => {
    api.answer = async () => [200, { temperature: 21 }];
    llm.reply(
      { kind: 'tool_calls', text: 'Let me look.', calls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' } }], usage: { prompt: 100, completion: 10 } },
      { kind: 'stream', tokens: ['It is ', '21 degrees.'], usage: { prompt: 200, completion: 20 } },
    );
    const { ctx, chunks } = agentContext(provider.config({ tools: [weatherTool()] }));
    const result = await agentBlock.run(ctx);

    expect(result.output.error).toBeUndefined();
    expect(result.output.content).toBe('It is 21 degrees.');
    expect(chunks).toEqual(['It is ', '21 degrees.']);
    expect(result.output.steps).toBe(2);
    expect(result.output.tokens).toEqual({ prompt: 300, completion: 30, total: 330 });
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toMatchObject({ method: 'POST', url: '/weather/Oslo?units=metric', body: JSON.stringify({ city: 'Oslo' }) });
    expect(api.seen[0]!.headers['x-city']).toBe('Oslo');
    expect(result.output.toolCalls).toEqual([
      { id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' }, result: { status: 200, data: { temperature: 21 } }, durationMs: expect.any(Number) },
    ]);
    expect(provider.toolNames(0)).toEqual(['get_weather']);
    expect(provider.toolResults(1)).toEqual([['call_w', JSON.stringify({ status: 200, data: { temperature: 21 } })]]);
    // One child span per model call and per tool call, in order; the usage is counted once, on the block's span.
    const spans = result.childSpans as Array<Record<string, unknown>>;
    expect(spans.map((s) => s.type)).toEqual(['model_call', 'tool_call', 'model_call']);
    expect(spans.every((s) => s.tokens === undefined && s.cost === undefined)).toBe(true);
  });

  it('URL-encodes an argument inside the URL, so the model cannot reshape the request', async () => {
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'x', name: 'get_weather', arguments: { city: '../admin?role=owner' } }] },
      { kind: 'stream', tokens: ['ok'] },
    );
    const { ctx } = agentContext(provider.config({ tools: [weatherTool()] }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toBeUndefined();
    expect(api.seen[0]!.url).toBe('/weather/..%2Fadmin%3Frole%3Downer?units=metric');
    // In the body it is data, as sent.
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ city: '../admin?role=owner' });
  });

  it('runs several tool calls of one step in parallel and answers each', async () => {
    // The first request is held until the second has arrived: run one after the other, the first would time out.
    const bothArrived = latch();
    api.answer = async (req) => {
      if (api.seen.length >= 2) bothArrived.open();
      await bothArrived.promise;
      return [200, { city: req.url.split('/')[2]!.split('?')[0] }];
    };
    llm.reply(
      {
        kind: 'tool_calls',
        calls: [
          { id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'c2', name: 'get_weather', arguments: { city: 'Rome' } },
          { id: 'c3', name: 'add', arguments: { a: 2, b: 3 } },
        ],
      },
      { kind: 'stream', tokens: ['Done'] },
    );
    const tool = { ...weatherTool(), timeoutMs: 5_000 };
    const { ctx } = agentContext(provider.config({ tools: [tool, addTool] }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toBeUndefined();
    const calls = result.output.toolCalls as Array<Record<string, unknown>>;
    expect(calls.map((c) => [c.id, c.result, c.error])).toEqual([
      ['c1', { status: 200, data: { city: 'Oslo' } }, undefined],
      ['c2', { status: 200, data: { city: 'Rome' } }, undefined],
      ['c3', { sum: 5 }, undefined],
    ]);
    expect(provider.toolResults(1).map(([id]) => id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('answers arguments that do not match the schema with the validation error, without running the tool', async () => {
    llm.reply(
      { kind: 'tool_calls', calls: [{ id: 'bad', name: 'get_weather', arguments: { town: 'Oslo' } }] },
      { kind: 'tool_calls', calls: [{ id: 'nojson', name: 'add', arguments: '{"a": 1,' }] },
      { kind: 'tool_calls', calls: [{ id: 'nosuch', name: 'launch', arguments: {} }] },
      { kind: 'stream', tokens: ['Sorry'] },
    );
    const { ctx } = agentContext(provider.config({ tools: [weatherTool(), addTool] }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toBeUndefined();
    expect(result.output.content).toBe('Sorry');
    expect(api.seen).toHaveLength(0);
    const [bad, nojson, nosuch] = result.output.toolCalls as Array<{ error: string }>;
    expect(bad!.error).toMatch(/do not match the tool's parameters: city: /);
    expect(nojson!.error).toBe('The arguments are not valid JSON');
    expect(nosuch!.error).toContain('There is no tool named "launch"');
    expect(provider.toolResults(1)[0]![1]).toMatch(/^Error: The arguments do not match/);
  });

  it('gives a failing tool and an unreachable one back to the model as error results; the run goes on', async () => {
    api.answer = async () => [503, { message: 'down for maintenance' }];
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = { ...weatherTool(), name: 'unreachable', request: { url: `http://127.0.0.1:${deadPort}/x` } };
    const throwing = { ...addTool, name: 'explode', code: 'throw new Error("no such account")' };
    llm.reply(
      {
        kind: 'tool_calls',
        calls: [
          { id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'b', name: 'unreachable', arguments: { city: 'Oslo' } },
          { id: 'c', name: 'explode', arguments: { a: 1, b: 2 } },
        ],
      },
      { kind: 'stream', tokens: ['Nothing works'] },
    );
    const { ctx } = agentContext(provider.config({ tools: [weatherTool(), unreachable, throwing] }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toBeUndefined();
    expect(result.output.content).toBe('Nothing works');
    const errors = (result.output.toolCalls as Array<{ error: string }>).map((c) => c.error);
    expect(errors[0]).toContain('HTTP 503');
    expect(errors[0]).toContain('down for maintenance');
    expect(errors[1]).toMatch(/^The request failed: /);
    expect(errors[2]).toContain('no such account');
    expect(provider.toolResults(1).every(([, content]) => content.startsWith('Error: '))).toBe(true);
  });

  it('fails the block naming maxSteps when the model never stops calling tools; the calls made are paid for', async () => {
    const endless = { kind: 'tool_calls' as const, calls: [{ name: 'add', arguments: { a: 1, b: 1 } }], usage: { prompt: 10, completion: 1 } };
    llm.reply(endless, endless, endless);
    const { ctx } = agentContext(provider.config({ tools: [addTool], maxSteps: 3 }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toBe('The agent reached maxSteps (3 model calls) without a final answer');
    expect(result.output.steps).toBe(3);
    expect(llm.requests).toHaveLength(3);
    expect(result.output.tokens).toEqual({ prompt: 30, completion: 3, total: 33 });
  });

  it('stops at maxCostUsd before running more tools', async () => {
    const costly = { kind: 'tool_calls' as const, calls: [{ name: 'add', arguments: { a: 1, b: 1 } }], usage: { prompt: 1_000_000, completion: 0 } };
    llm.reply(costly);
    const model = provider.name === 'Anthropic' ? { model: 'claude-3-5-haiku-20241022' } : { model: 'gpt-4o-mini' };
    const { ctx } = agentContext(provider.config({ tools: [addTool], maxCostUsd: 0.1, ...model }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toMatch(/^The agent reached maxCostUsd \(0\.1 USD; spent 0\.\d+\) without a final answer$/);
    expect(result.output.steps).toBe(1);
    expect((result.output.toolCalls as unknown[]).length).toBe(0);
    expect(llm.requests).toHaveLength(1);
  });

  it('cancel during a tool call aborts the tool’s request and ends the run', async () => {
    const arrived = latch();
    const closedByClient = latch();
    api.answer = (req) => {
      arrived.open();
      void req;
      return new Promise(() => {});
    };
    api.server.once('request', (_req, res) => res.on('close', () => closedByClient.open()));
    llm.reply({ kind: 'tool_calls', calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const controller = new AbortController();
    const { ctx } = agentContext(provider.config({ tools: [{ ...weatherTool(), timeoutMs: 300_000 }] }), { signal: controller.signal });
    const running = agentBlock.run(ctx);
    await arrived.promise;
    controller.abort(new Error('Run cancelled'));
    await expect(running).rejects.toThrow('Run cancelled');
    await closedByClient.promise;
    // No further model call was made after the cancel.
    expect(llm.requests).toHaveLength(1);
  });
});

describe('agent tools config', () => {
  it('keeps a block without tools exactly as before: one call, no toolCalls or steps in the output', async () => {
    llm.reply({ kind: 'stream', tokens: ['Hi'] });
    const { ctx } = agentContext(providers[0]!.config({}));
    const result = await agentBlock.run(ctx);
    expect(Object.keys(result.output).sort()).toEqual(['content', 'cost', 'model', 'tokens']);
    expect(result.childSpans).toBeUndefined();
    expect(llm.requests[0]!.body.tools).toBeUndefined();
  });

  it('fails the block before any model call when an MCP server cannot be used', async () => {
    const { ctx } = agentContext(providers[0]!.config({ tools: [{ type: 'mcp', url: 'http://127.0.0.1:1/mcp' }] }));
    await expect(agentBlock.run(ctx)).rejects.toThrow(/MCP/);
    expect(llm.requests).toHaveLength(0);
  });
});
