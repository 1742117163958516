// The agent loop on its own (src/llm/agent-loop.ts), with tools written in the test, against the fake OpenAI server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  runAgentLoop,
  type AgentCheckpoint,
  type AgentLoopOptions,
  type ApprovalAsk,
  type ToolCallDecision,
} from '../../src/llm/agent-loop.js';
import { PROVIDERS } from '../../src/llm/index.js';
import type { AgentTool } from '../../src/llm/tools.js';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.js';

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(() => llm.close());

const loop = (tools: AgentTool[], extra: Partial<AgentLoopOptions> = {}) =>
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
    ...extra,
  });

/** A tool that needs approval, recording the arguments of the calls it ran. */
function guardedTool() {
  const ran: unknown[] = [];
  const tool: AgentTool = {
    name: 'delete_everything',
    description: 'Deletes',
    parameters: { type: 'object', properties: { what: { type: 'string' } } },
    approval: { defaultDecision: 'reject' },
    call: async (args) => {
      ran.push(args);
      return 'deleted';
    },
  };
  return { tool, ran };
}

const decided = (approved: boolean, data: unknown = {}): ToolCallDecision => ({ approved, data, decidedBy: 'u', decidedAt: new Date().toISOString() });

/** The tool results the model was sent in its last request. */
const toolMessages = () =>
  (llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string; tool_call_id?: string }>).filter((m) => m.role === 'tool');

it('never runs a tool that needs approval when nobody can be asked: the model is told the call was refused', async () => {
  const { tool, ran } = guardedTool();
  llm.reply({ kind: 'tool_calls', calls: [{ id: 'd', name: 'delete_everything', arguments: {} }] }, { kind: 'stream', tokens: ['ok'] });
  const result = await loop([tool]);
  expect(ran).toEqual([]);
  expect(result.toolCalls[0]!.error).toContain('needs a person to approve');
  expect(result.content).toBe('ok');
});

it('asks before each call of a tool that needs approval: approved runs it, rejected tells the model why', async () => {
  const { tool, ran } = guardedTool();
  const asked: ApprovalAsk[] = [];
  llm.reply(
    { kind: 'tool_calls', calls: [{ id: 'a', name: 'delete_everything', arguments: { what: 'tmp' } }] },
    { kind: 'tool_calls', calls: [{ id: 'b', name: 'delete_everything', arguments: { what: 'home' } }] },
    { kind: 'stream', tokens: ['done'] },
  );
  const answers = [decided(true), decided(false, { note: 'not the home directory' })];
  const result = await loop([tool], {
    askApproval: async (ask) => {
      asked.push(ask);
      return answers.shift()!;
    },
  });
  expect(asked.map((ask) => ask.call)).toEqual([
    { id: 'a', name: 'delete_everything', arguments: { what: 'tmp' } },
    { id: 'b', name: 'delete_everything', arguments: { what: 'home' } },
  ]);
  expect(ran).toEqual([{ what: 'tmp' }]);
  expect(result.content).toBe('done');
  const refused = 'A person refused this call; it was not run. Reason: not the home directory';
  expect(result.toolCalls.map((call) => [call.result, call.error, call.approval?.approved])).toEqual([
    ['deleted', undefined, true],
    [null, refused, false],
  ]);
  expect(toolMessages().map((m) => m.content)).toEqual(['deleted', `Error: ${refused}`]);
});

it('goes on from the checkpoint it handed over when it asked: no model call or other tool call is made twice', async () => {
  const { tool, ran } = guardedTool();
  let lookups = 0;
  const free: AgentTool = { name: 'lookup', description: '', parameters: { type: 'object' }, call: async () => ++lookups };
  // Step 1 asks for a free tool and a guarded one in parallel; the question stops the loop (as a pause stops the run).
  llm.reply(
    {
      kind: 'tool_calls',
      calls: [
        { id: 'l1', name: 'lookup', arguments: {} },
        { id: 'g1', name: 'delete_everything', arguments: { what: 'x' } },
      ],
      usage: { prompt: 100, completion: 10 },
    },
    { kind: 'stream', tokens: ['fine'], usage: { prompt: 200, completion: 20 } },
  );
  const before = llm.requests.length;
  const stop = new AbortController();
  let saved: unknown;
  const paused = loop([free, tool], {
    signal: stop.signal,
    askApproval: (ask) => {
      saved = JSON.parse(JSON.stringify(ask.checkpoint)); // stored as JSON with the run
      stop.abort(new Error('paused'));
      return new Promise(() => undefined);
    },
  });
  await expect(paused).rejects.toThrow('paused');
  expect(lookups).toBe(1);
  expect(ran).toEqual([]);

  const resumed = await loop([free, tool], { resumeFrom: saved as AgentCheckpoint, askApproval: async () => decided(true) });
  expect(resumed.content).toBe('fine');
  expect(llm.requests.length - before).toBe(2); // one model call before the pause, one after
  expect(lookups).toBe(1);
  expect(ran).toEqual([{ what: 'x' }]);
  expect(resumed.steps).toBe(2);
  expect(resumed.modelCalls.map((call) => call.tokens.total)).toEqual([110, 220]);
  expect(resumed.toolCalls.map((call) => [call.name, call.result])).toEqual([
    ['lookup', 1],
    ['delete_everything', 'deleted'],
  ]);
  // The model got both results of step 1, in the order it asked for them.
  expect(toolMessages().map((m) => [m.tool_call_id, m.content])).toEqual([
    ['l1', '1'],
    ['g1', 'deleted'],
  ]);
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
