// The agent block called directly, against the local fake providers: outputs, keys, pricing, structured answers,
// retries and provider failures. The execute-endpoint behaviour (streaming, logs) is in test/http/agent-*.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentBlock, type AgentConfig } from '../../src/blocks/agent.js';
import { latch, startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { fakeContext } from './context.js';

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
});

function agentContext(
  config: Record<string, unknown>,
  options: { providerEnv?: Record<string, string>; allowPrivateNetwork?: boolean; signal?: AbortSignal } = {},
) {
  const made = fakeContext(agentBlock, config, { signal: options.signal });
  made.ctx.services = {
    ...made.ctx.services,
    allowPrivateNetwork: options.allowPrivateNetwork ?? true,
    providerEnv: (name) => options.providerEnv?.[name],
  };
  return made;
}

const openai = (extra: Partial<Record<keyof AgentConfig, unknown>> = {}) => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  baseUrl: llm.openAiBaseUrl,
  userPrompt: 'Say hello',
  retries: 2,
  ...extra,
});
const anthropic = (extra: Partial<Record<keyof AgentConfig, unknown>> = {}) => ({
  provider: 'anthropic',
  model: 'claude-3-5-haiku-20241022',
  baseUrl: llm.url,
  apiKey: 'sk-ant-test',
  userPrompt: 'Say hello',
  ...extra,
});

describe('agent block, OpenAI-compatible provider', () => {
  it('streams tokens through emitChunk and reports content, model, tokens and cost', async () => {
    llm.reply({ kind: 'stream', tokens: ['Hel', 'lo', '!'], usage: { prompt: 1000, completion: 500 } });
    const { ctx, chunks } = agentContext(openai({ systemPrompt: 'Be brief', temperature: 0.2, maxTokens: 50 }));
    const result = await agentBlock.run(ctx);
    expect(chunks).toEqual(['Hel', 'lo', '!']);
    // gpt-4o-mini: $0.15 / $0.60 per 1M tokens.
    expect(result.output).toEqual({
      content: 'Hello!',
      model: 'gpt-4o-mini',
      tokens: { prompt: 1000, completion: 500, total: 1500 },
      cost: { input: 0.00015, output: 0.0003, total: 0.00045 },
    });
    const sent = llm.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Say hello' },
      ],
    });
  });

  it('works against a local server without any key (a placeholder is sent)', async () => {
    const { ctx } = agentContext(openai({ model: 'llama3.1:8b' }));
    const result = await agentBlock.run(ctx);
    expect(result.output.content).toBe('Hello world');
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sluice-no-key');
    // Unknown to the price table: costs nothing, and says so.
    expect(result.output.cost).toEqual({ input: 0, output: 0, total: 0 });
    expect(result.output.pricing).toBe('unknown model');
  });

  it('takes the key and base URL from the provider environment when the block has none', async () => {
    const { ctx } = agentContext(openai({ baseUrl: undefined }), {
      providerEnv: { OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: llm.openAiBaseUrl },
    });
    await agentBlock.run(ctx);
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sk-from-env');
  });

  it("prefers the block's apiKey over the environment", async () => {
    const { ctx } = agentContext(openai({ apiKey: 'sk-from-block' }), { providerEnv: { OPENAI_API_KEY: 'sk-from-env' } });
    await agentBlock.run(ctx);
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sk-from-block');
  });

  it("refuses to call OpenAI's own API without a key, naming where to put one", async () => {
    const { ctx } = agentContext(openai({ baseUrl: undefined }));
    await expect(agentBlock.run(ctx)).rejects.toThrow(/OpenAI API key missing.*OPENAI_API_KEY/);
  });

  it('goes through the guarded network layer: loopback is refused unless private networks are allowed', async () => {
    const { ctx } = agentContext(openai(), { allowPrivateNetwork: false });
    await expect(agentBlock.run(ctx)).rejects.toThrow(/OpenAI base URL refused: Refused to connect to 127\.0\.0\.1.*SLUICE_ALLOW_PRIVATE_NETWORK/);
    expect(llm.requests).toHaveLength(0);
  });

  it('refuses a hostname that resolves to a private address after DNS', async () => {
    const { ctx } = agentContext(openai({ baseUrl: llm.openAiBaseUrl.replace('127.0.0.1', 'localhost'), retries: 0 }), {
      allowPrivateNetwork: false,
    });
    await expect(agentBlock.run(ctx)).rejects.toThrow(/OpenAI request refused: Refused to connect to localhost/);
    expect(llm.requests).toHaveLength(0);
  });

  it('prices with SLUICE_MODEL_PRICING when it names the model', async () => {
    llm.reply({ kind: 'stream', tokens: ['ok'], usage: { prompt: 2_000_000, completion: 1_000_000 } });
    const { ctx } = agentContext(openai({ model: 'my-local-model' }), {
      providerEnv: { SLUICE_MODEL_PRICING: '{"my-local-model":{"input":1,"output":3}}' },
    });
    const result = await agentBlock.run(ctx);
    expect(result.output.cost).toEqual({ input: 2, output: 3, total: 5 });
    expect(result.output.pricing).toBeUndefined();
  });

  it('parses a structured answer and validates it against responseFormat', async () => {
    llm.reply({ kind: 'stream', tokens: ['{"name":', '"Ada",', '"age":36}'], usage: { prompt: 5, completion: 5 } });
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };
    const { ctx } = agentContext(openai({ responseFormat: schema }));
    const result = await agentBlock.run(ctx);
    expect(result.output.content).toEqual({ name: 'Ada', age: 36 });
    expect(llm.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema } });
  });

  it('fails the block when the answer does not match responseFormat, keeping what the call cost', async () => {
    llm.reply({ kind: 'stream', tokens: ['{"name": 42}'], usage: { prompt: 1000, completion: 1000 } });
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const { ctx } = agentContext(openai({ responseFormat: { name: 'person', schema } }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toMatch(/does not match responseFormat: name: .*expected string/);
    expect(result.output.tokens).toEqual({ prompt: 1000, completion: 1000, total: 2000 });
  });

  it('fails the block when a structured answer is not JSON at all', async () => {
    llm.reply({ kind: 'stream', tokens: ['Sure! Here you go'], usage: { prompt: 1, completion: 1 } });
    const { ctx } = agentContext(openai({ responseFormat: { type: 'object' } }));
    const result = await agentBlock.run(ctx);
    expect(result.output.error).toMatch(/not valid JSON/);
  });

  it('retries a 500 before any token and succeeds', async () => {
    llm.reply({ kind: 'error', status: 500 }, { kind: 'error', status: 503 });
    const { ctx } = agentContext(openai());
    const result = await agentBlock.run(ctx);
    expect(result.output.content).toBe('Hello world');
    expect(llm.requests).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    llm.reply({ kind: 'error', status: 429, headers: { 'retry-after': '1' } });
    const { ctx } = agentContext(openai());
    const started = Date.now();
    await agentBlock.run(ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(llm.requests).toHaveLength(2);
  });

  it('gives up after the bounded retries with the status in the message', async () => {
    llm.reply({ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    const { ctx } = agentContext(openai({ retries: 2 }));
    await expect(agentBlock.run(ctx)).rejects.toThrow(
      'OpenAI request failed: 500 Internal Server Error — fake error 500 (after 3 attempts)',
    );
    expect(llm.requests).toHaveLength(3);
  });

  it('does not retry a 401', async () => {
    llm.reply({ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const { ctx } = agentContext(openai());
    await expect(agentBlock.run(ctx)).rejects.toThrow('OpenAI request failed: 401 Unauthorized — Incorrect API key provided');
    expect(llm.requests).toHaveLength(1);
  });

  it('fails on a malformed stream without retrying', async () => {
    llm.reply({ kind: 'malformed' });
    const { ctx } = agentContext(openai());
    await expect(agentBlock.run(ctx)).rejects.toThrow(/^OpenAI request failed: malformed stream/);
    expect(llm.requests).toHaveLength(1);
  });

  it('times out a provider that goes silent', async () => {
    llm.reply({ kind: 'hang' });
    const { ctx } = agentContext(openai({ timeoutMs: 200, retries: 0 }));
    await expect(agentBlock.run(ctx)).rejects.toThrow('OpenAI request failed: timed out after 200 ms without data from the model');
  });

  it('reports a refused connection as a connection error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { ctx } = agentContext(openai({ baseUrl: `http://127.0.0.1:${port}/v1`, retries: 0 }));
    await expect(agentBlock.run(ctx)).rejects.toThrow(/^OpenAI request failed: connection error — .*ECONNREFUSED/);
  });

  it('does not retry once tokens were streamed: the client already has them', async () => {
    llm.reply({ kind: 'drop-after', tokens: ['Half an'] });
    const { ctx, chunks } = agentContext(openai());
    await expect(agentBlock.run(ctx)).rejects.toThrow(/^OpenAI request failed: (connection error|the stream ended)/);
    expect(chunks).toEqual(['Half an']);
    expect(llm.requests).toHaveLength(1);
  });

  it('treats a stream that ends without finish_reason as failed, not as a short answer', async () => {
    llm.reply({ kind: 'stream', tokens: ['cut'], truncate: true });
    const { ctx } = agentContext(openai({ retries: 0 }));
    await expect(agentBlock.run(ctx)).rejects.toThrow('OpenAI request failed: the stream ended before the model finished');
  });

  it('aborts the upstream request when the run is cancelled', async () => {
    const hold = latch();
    llm.reply({ kind: 'stream', tokens: ['a', 'b'], beforeToken: (i) => (i === 1 ? hold.promise : Promise.resolve()) });
    const controller = new AbortController();
    const { ctx, chunks } = agentContext(openai(), { signal: controller.signal });
    const closed = llm.nextEarlyClose();
    const running = agentBlock.run(ctx);
    await expect.poll(() => chunks.length).toBe(1);
    controller.abort(new Error('client disconnected'));
    await expect(running).rejects.toThrow('client disconnected');
    await closed;
    hold.open();
  });
});

describe('agent block, Anthropic provider', () => {
  it('streams tokens and reports usage from message_start and message_delta', async () => {
    llm.reply({ kind: 'stream', tokens: ['Bon', 'jour'], usage: { prompt: 2000, completion: 1000 } });
    const { ctx, chunks } = agentContext(anthropic({ systemPrompt: 'French only', maxTokens: 100 }));
    const result = await agentBlock.run(ctx);
    expect(chunks).toEqual(['Bon', 'jour']);
    // claude-3-5-haiku (dated name): $0.80 / $4 per 1M tokens.
    expect(result.output).toEqual({
      content: 'Bonjour',
      model: 'claude-3-5-haiku-20241022',
      tokens: { prompt: 2000, completion: 1000, total: 3000 },
      cost: { input: 0.0016, output: 0.004, total: 0.0056 },
    });
    const sent = llm.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.body).toMatchObject({
      model: 'claude-3-5-haiku-20241022',
      max_tokens: 100,
      stream: true,
      system: 'French only',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
  });

  it('takes ANTHROPIC_API_KEY from the provider environment', async () => {
    const { ctx } = agentContext(anthropic({ apiKey: undefined }), { providerEnv: { ANTHROPIC_API_KEY: 'sk-ant-env' } });
    await agentBlock.run(ctx);
    const headers = llm.requests[0]!.headers;
    expect(headers['x-api-key'] ?? headers.authorization).toMatch(/sk-ant-env/);
  });

  it('puts the schema into the system prompt and validates the answer', async () => {
    llm.reply({ kind: 'stream', tokens: ['```json\n{"ok": true}\n```'], usage: { prompt: 1, completion: 1 } });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const { ctx } = agentContext(anthropic({ responseFormat: schema }));
    const result = await agentBlock.run(ctx);
    expect(result.output.content).toEqual({ ok: true });
    expect(String(llm.requests[0]!.body.system)).toContain(JSON.stringify(schema));
  });

  it('reports a 401 with the provider message', async () => {
    llm.reply({ kind: 'error', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const { ctx } = agentContext(anthropic());
    await expect(agentBlock.run(ctx)).rejects.toThrow('Anthropic request failed: 401 Unauthorized — invalid x-api-key');
  });

  it('fails on a malformed stream', async () => {
    llm.reply({ kind: 'malformed' });
    const { ctx } = agentContext(anthropic());
    await expect(agentBlock.run(ctx)).rejects.toThrow(/^Anthropic request failed: malformed stream/);
  });

  it('fails when the stream ends without message_stop', async () => {
    llm.reply({ kind: 'stream', tokens: ['x'], truncate: true });
    const { ctx } = agentContext(anthropic({ retries: 0 }));
    await expect(agentBlock.run(ctx)).rejects.toThrow('Anthropic request failed: the stream ended before the model finished');
  });
});

describe('agent block configuration', () => {
  it('needs a model and a prompt', () => {
    expect(agentBlock.configSchema.safeParse({ provider: 'openai', userPrompt: 'hi' }).success).toBe(false);
    expect(agentBlock.configSchema.safeParse({ provider: 'openai', model: 'gpt-4o' }).success).toBe(false);
    expect(agentBlock.configSchema.safeParse({ provider: 'openai', model: 'gpt-4o', systemPrompt: 'x' }).success).toBe(true);
  });

  it('rejects an unknown provider and treats blank optional fields as unset', () => {
    expect(agentBlock.configSchema.safeParse({ provider: 'cohere', model: 'x', userPrompt: 'hi' }).success).toBe(false);
    const parsed = agentBlock.configSchema.parse({ provider: 'OpenAI', model: 'x', userPrompt: 'hi', temperature: '', maxTokens: '', apiKey: '' });
    expect(parsed).toMatchObject({ provider: 'openai', temperature: undefined, maxTokens: undefined, apiKey: undefined });
  });

  it('sends a prompt that referenced an object as JSON text', () => {
    const parsed = agentBlock.configSchema.parse({ model: 'x', userPrompt: { question: 'why?' } });
    expect(parsed.userPrompt).toBe('{"question":"why?"}');
  });
});
