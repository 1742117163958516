// The agent loop on its own (src/llm/agent-loop.ts), with tools written in the test, against the fake OpenAI server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/llm/agent-loop.js';
import { PROVIDERS } from '../../src/llm/index.js';
import type { AgentTool } from '../../src/llm/tools.js';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.js';

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(() => llm.close());

const loop = (tools: AgentTool[]) =>
  runAgentLoop({
    provider: PROVIDERS.openai.provider,
    connection: { apiKey: 'k', baseUrl: llm.openAiBaseUrl, allowPrivateNetwork: true },
    request: { model: 'm', userPrompt: 'go' },
    tools,
    maxSteps: 5,
    price: () => ({ input: 0, output: 0, total: 0 }),
    signal: new AbortController().signal,
    onToken: () => {},
    timeoutMs: 10_000,
    retries: 0,
  });

it('never runs a tool that needs approval: the model is told the call was refused', async () => {
  let calls = 0;
  const guarded: AgentTool = {
    name: 'delete_everything',
    description: 'Deletes',
    parameters: { type: 'object', properties: {} },
    requiresApproval: true,
    call: async () => {
      calls++;
      return 'deleted';
    },
  };
  llm.reply({ kind: 'tool_calls', calls: [{ id: 'd', name: 'delete_everything', arguments: {} }] }, { kind: 'stream', tokens: ['ok'] });
  const result = await loop([guarded]);
  expect(calls).toBe(0);
  expect(result.toolCalls[0]!.error).toContain('needs a person to approve');
  expect(result.content).toBe('ok');
});

it('refuses two tools of one name and a tool whose schema does not compile, before any model call', async () => {
  const tool = (name: string, parameters: Record<string, unknown> = { type: 'object' }): AgentTool => ({
    name,
    description: '',
    parameters,
    call: async () => null,
  });
  const before = llm.requests.length;
  await expect(loop([tool('a'), tool('a')])).rejects.toThrow('Two tools are named "a"');
  await expect(loop([tool('b', { type: 'object', properties: { x: { type: 'nonsense' } } })])).rejects.toThrow(/^Tool "b": parameters/);
  expect(llm.requests.length).toBe(before);
});
