// The agent loop's own cost per step (src/llm/agent-loop.ts): a loop of STEPS model calls, each asking for one tool
// call of an in-process tool, against the local fake OpenAI-compatible server — beside the same number of plain model
// calls (callModel, no tools, no history) to that server. The difference per step is what the loop adds: the tool
// definitions and the growing history in each request, assembling streamed tool calls, validating arguments, running
// the tool and building results. Upstream and client share this process.
// Run: node --import tsx bench/agent-loop.bench.ts [runs] [steps]   (target: < 2 ms per step)
import { cpus } from 'node:os';
import { runAgentLoop } from '../src/llm/agent-loop.js';
import { callModel, PROVIDERS } from '../src/llm/index.js';
import type { AgentTool } from '../src/llm/tools.js';
import { startFakeLlmServer, type Reply } from '../test/llm/fake-llm-server.js';

const RUNS = Number(process.argv[2] ?? 20);
const STEPS = Number(process.argv[3] ?? 10);

const llm = await startFakeLlmServer();
const provider = PROVIDERS.openai.provider;
const connection = { apiKey: 'k', baseUrl: llm.openAiBaseUrl, allowPrivateNetwork: true };
const request = { model: 'gpt-4o-mini', userPrompt: 'Add the numbers up' };
const usage = { prompt: 100, completion: 10 };

const add: AgentTool = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  call: async (args) => {
    const { a, b } = args as { a: number; b: number };
    return { sum: a + b };
  },
};

async function loopRun(): Promise<number> {
  const replies: Reply[] = [];
  for (let i = 1; i < STEPS; i++) replies.push({ kind: 'tool_calls', calls: [{ name: 'add', arguments: { a: i, b: 1 } }], usage });
  replies.push({ kind: 'stream', tokens: ['The ', 'sum'], usage });
  llm.reply(...replies);
  const started = performance.now();
  const result = await runAgentLoop({
    provider,
    connection,
    request,
    tools: [add],
    maxSteps: STEPS,
    price: () => ({ input: 0, output: 0, total: 0 }),
    signal: new AbortController().signal,
    onToken: () => {},
    timeoutMs: 30_000,
    retries: 0,
  });
  if (result.steps !== STEPS || result.error) throw new Error(`loop ended after ${result.steps} steps: ${result.error ?? ''}`);
  return performance.now() - started;
}

async function plainRun(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < STEPS; i++) {
    llm.reply({ kind: 'stream', tokens: ['The ', 'sum'], usage });
    await callModel({ provider, connection, request, signal: new AbortController().signal, onToken: () => {}, timeoutMs: 30_000, retries: 0 });
  }
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Warm-up: JIT, the SDK's first import and the keep-alive connections.
for (let i = 0; i < 3; i++) {
  await plainRun();
  await loopRun();
}
const plain: number[] = [];
const loop: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so a slow moment of the machine falls on both.
  plain.push((await plainRun()) / STEPS);
  loop.push((await loopRun()) / STEPS);
}
await llm.close();

const p = median(plain);
const l = median(loop);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`);
console.log(`${RUNS} runs of ${STEPS} steps (${STEPS - 1} tool calls, then the answer), medians per step:`);
console.log(`  plain model call (fake provider, no tools): ${p.toFixed(2)} ms`);
console.log(`  agent loop step (model call + tool call):    ${l.toFixed(2)} ms`);
console.log(`  loop overhead per step:                      ${(l - p).toFixed(2)} ms   (target < 2 ms)`);
