// The agent block through the real execute endpoint, against local fake OpenAI-compatible and Anthropic servers that
// stream token by token. Ordering is proven by holding each upstream token until the client has the previous chunk.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { latch, startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { chunksOf, doneOf, openSse, type SseReader } from '../llm/sse-client.js';
import { executionRow } from '../support/log-rows.js';

let t: TestApp;
let llm: FakeLlmServer;

beforeAll(async () => {
  [t, llm] = await Promise.all([startTestApp(), startFakeLlmServer()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), llm?.close()]);
});

const BASE_COST = 0.001;
const trigger = { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } };

function openAiAgent(id: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'agent',
    name,
    config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, userPrompt: '<api.q>', retries: 1, ...extra },
  };
}

function anthropicAgent(id: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'agent',
    name,
    config: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: llm.url, apiKey: 'sk-ant-test', userPrompt: '<api.q>', ...extra },
  };
}

const executeUrl = (workflowId: string) => `${t.url}/api/workflows/${workflowId}/execute`;

/** Lets the fake server's beforeToken hooks wait on a reader that only exists once the response has started. */
function readerSlot() {
  const ready = latch();
  let reader: SseReader | undefined;
  return {
    set(r: SseReader) {
      reader = r;
      ready.open();
    },
    async waitForRecords(count: number) {
      await ready.promise;
      await reader!.waitForRecords(count);
    },
  };
}

async function logsQuery(query: Record<string, string>) {
  const params = new URLSearchParams({ workspaceId: t.workspaceId, ...query });
  const res = await t.request('GET', `/api/v1/logs?${params}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Array<{ id: string; executionId: string; level: string; cost: { total: number } }>;
}

describe('agent streaming through the execute endpoint', () => {
  let workflowId: string;
  let records: Awaited<SseReader['finished']>;
  const clientHadWhenReleased: number[] = [];

  it('sends each token to the client before the model has produced the next one', async () => {
    workflowId = await createAndDeploy(t, makeState([trigger, openAiAgent('writer', 'Writer')], [['start', 'writer']]), 'Streaming');
    const slot = readerSlot();
    llm.replyForModel('gpt-4o-mini', {
      kind: 'stream',
      tokens: ['One', ' two', ' three'],
      usage: { prompt: 1200, completion: 300 },
      // Token i is only produced once the client holds chunk i-1: had the service buffered, this would deadlock.
      beforeToken: async (i) => {
        if (i === 0) return;
        await slot.waitForRecords(i);
        clientHadWhenReleased.push(i);
      },
    });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'Count to three', stream: true });
    expect(reader.status).toBe(200);
    expect(reader.headers.get('content-type')).toMatch(/^text\/event-stream/);
    slot.set(reader);
    records = await reader.finished;

    expect(clientHadWhenReleased).toEqual([1, 2]);
    // No selectedOutputs: the content of the agent with no outgoing edges streams.
    expect(chunksOf(records)).toEqual([
      { blockId: 'writer', chunk: 'One' },
      { blockId: 'writer', chunk: ' two' },
      { blockId: 'writer', chunk: ' three' },
    ]);
    expect(records.at(-1)).toBe('[DONE]');
  });

  it('ends with a final record carrying the whole content, tokens and cost', () => {
    const done = doneOf(records);
    expect(done.success).toBe(true);
    // gpt-4o-mini: 1200 × $0.15/1M + 300 × $0.60/1M.
    expect(done.output).toEqual({
      content: 'One two three',
      model: 'gpt-4o-mini',
      tokens: { prompt: 1200, completion: 300, total: 1500 },
      cost: { input: 0.00018, output: 0.00018, total: 0.00036 },
    });
    expect(typeof done.metadata.duration).toBe('number');
  });

  it('logs the run with tokens and cost = base charge + model cost, per model', async () => {
    const [entry] = await logsQuery({ workflowIds: workflowId });
    expect(entry).toBeDefined();
    expect(entry!.cost.total).toBeCloseTo(BASE_COST + 0.00036, 9);
    const detail = await t.request('GET', `/api/v1/logs/${entry!.id}`);
    expect(detail.status).toBe(200);
    const cost = detail.body.data.cost;
    expect(cost.total).toBeCloseTo(BASE_COST + 0.00036, 9);
    expect(cost.tokens).toEqual({ prompt: 1200, completion: 300, total: 1500 });
    expect(cost.models).toEqual({
      'gpt-4o-mini': { input: 0.00018, output: 0.00018, total: 0.00036, tokens: { prompt: 1200, completion: 300, total: 1500 } },
    });
  });

  it('is found by the logs API model and cost filters', async () => {
    const ids = (rows: Array<{ executionId: string }>) => rows.map((r) => r.executionId);
    const [entry] = await logsQuery({ workflowIds: workflowId });
    expect(ids(await logsQuery({ model: 'gpt-4o-mini', workflowIds: workflowId }))).toEqual([entry!.executionId]);
    expect(await logsQuery({ model: 'gpt-4o', workflowIds: workflowId })).toEqual([]);
    // Above the base charge alone, so only a run that paid for the model matches.
    expect(ids(await logsQuery({ minCost: String(BASE_COST + 0.0003), workflowIds: workflowId }))).toEqual([entry!.executionId]);
    expect(await logsQuery({ minCost: String(BASE_COST + 0.0004), workflowIds: workflowId })).toEqual([]);
  });
});

describe('two selected agents', () => {
  it('interleave their tokens, each chunk naming its block', async () => {
    const state = makeState(
      [trigger, openAiAgent('a', 'Agent A', { model: 'gpt-4o' }), anthropicAgent('b', 'Agent B')],
      [
        ['start', 'a'],
        ['start', 'b'],
      ],
    );
    const workflowId = await createAndDeploy(t, state, 'Two agents');
    const slot = readerSlot();
    // The global order is A0 B0 A1 B1 A2 B2; each token waits for the client to hold the one before it.
    const gate = (offset: number) => async (i: number) => {
      const position = 2 * i + offset;
      if (position > 0) await slot.waitForRecords(position);
    };
    llm.replyForModel('gpt-4o', { kind: 'stream', tokens: ['A0', 'A1', 'A2'], usage: { prompt: 100, completion: 30 }, beforeToken: gate(0) });
    llm.replyForModel('claude-sonnet-5-5', { kind: 'stream', tokens: ['B0', 'B1', 'B2'], usage: { prompt: 200, completion: 60 }, beforeToken: gate(1) });

    // Names are matched case-insensitively with spaces ignored.
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'go', stream: true, selectedOutputs: ['agent a.content', 'AgentB.content'] });
    slot.set(reader);
    const records = await reader.finished;

    expect(chunksOf(records)).toEqual([
      { blockId: 'a', chunk: 'A0' },
      { blockId: 'b', chunk: 'B0' },
      { blockId: 'a', chunk: 'A1' },
      { blockId: 'b', chunk: 'B1' },
      { blockId: 'a', chunk: 'A2' },
      { blockId: 'b', chunk: 'B2' },
    ]);
    const done = doneOf(records);
    expect(done.success).toBe(true);
    expect(done.output.content).toBe('B0B1B2');

    // Both providers' costs add up in the log: gpt-4o $2.50/$10, claude-sonnet-5-5 $2/$10 per 1M tokens.
    const gpt = 100 * 2.5e-6 + 30 * 10e-6;
    const claude = 200 * 2e-6 + 60 * 10e-6;
    const [row] = await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, workflowId));
    expect(row!.costTotal).toBeCloseTo(BASE_COST + gpt + claude, 9);
    expect(row!.models!.sort()).toEqual(['claude-sonnet-5-5', 'gpt-4o']);
    const cost = row!.cost as { tokens: unknown; models: Record<string, { total: number }> };
    expect(cost.tokens).toEqual({ prompt: 300, completion: 90, total: 390 });
    expect(cost.models['gpt-4o']!.total).toBeCloseTo(gpt, 9);
    expect(cost.models['claude-sonnet-5-5']!.total).toBeCloseTo(claude, 9);
  });

  it('send other selected attributes as one chunk when their block completes', async () => {
    const workflowId = await createAndDeploy(t, makeState([trigger, openAiAgent('solo', 'Solo')], [['start', 'solo']]), 'Attributes');
    llm.replyForModel('gpt-4o-mini', { kind: 'stream', tokens: ['x', 'y'], usage: { prompt: 10, completion: 2 } });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'go', stream: true, selectedOutputs: ['solo.content', 'solo.tokens'] });
    const records = await reader.finished;
    expect(chunksOf(records)).toEqual([
      { blockId: 'solo', chunk: 'x' },
      { blockId: 'solo', chunk: 'y' },
      { blockId: 'solo', chunk: JSON.stringify({ prompt: 10, completion: 2, total: 12 }) },
    ]);
  });
});

describe('default selection without selectedOutputs', () => {
  it('streams only the agent with no outgoing edges, fed by the one before it', async () => {
    const state = makeState(
      [trigger, openAiAgent('draft', 'Draft', { model: 'gpt-4.1-mini' }), openAiAgent('polish', 'Polish', { model: 'gpt-4.1', userPrompt: 'Polish: <draft.content>' })],
      [
        ['start', 'draft'],
        ['draft', 'polish'],
      ],
    );
    const workflowId = await createAndDeploy(t, state, 'Chain');
    llm.replyForModel('gpt-4.1-mini', { kind: 'stream', tokens: ['rough ', 'text'], usage: { prompt: 5, completion: 2 } });
    llm.replyForModel('gpt-4.1', { kind: 'stream', tokens: ['Fine ', 'text.'], usage: { prompt: 9, completion: 2 } });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'write', stream: true });
    const records = await reader.finished;
    expect(chunksOf(records)).toEqual([
      { blockId: 'polish', chunk: 'Fine ' },
      { blockId: 'polish', chunk: 'text.' },
    ]);
    expect(doneOf(records).output.content).toBe('Fine text.');
    const polishRequest = llm.requests.find((r) => r.body.model === 'gpt-4.1')!;
    expect(polishRequest.body.messages).toEqual([{ role: 'user', content: 'Polish: rough text' }]);
  });
});

describe('provider failures', () => {
  async function deployFailing(name: string, config: Record<string, unknown> = {}) {
    const model = `fail-${name}`;
    const workflowId = await createAndDeploy(t, makeState([trigger, openAiAgent('ai', 'AI', { model, ...config })], [['start', 'ai']]), name);
    return { workflowId, model };
  }

  it('401: the execution fails with the provider status and message (non-streaming)', async () => {
    const { workflowId, model } = await deployFailing('unauthorized');
    llm.replyForModel(model, { kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided: sk-bad', type: 'invalid_request_error' } } });
    const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: 'hi' } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED' });
    expect(res.body.error).toContain('OpenAI request failed: 401 Unauthorized — Incorrect API key provided');
    expect(llm.requests.filter((r) => r.body.model === model)).toHaveLength(1);
  });

  it('500 on every attempt: retried, then the final record reports the failure', async () => {
    const { workflowId, model } = await deployFailing('server-error', { retries: 1 });
    llm.replyForModel(model, { kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'hi', stream: true });
    const done = doneOf(await reader.finished);
    expect(done.success).toBe(false);
    expect(done.error).toContain('OpenAI request failed: 500 Internal Server Error — fake error 500 (after 2 attempts)');
    expect(llm.requests.filter((r) => r.body.model === model)).toHaveLength(2);
  });

  it('a malformed stream fails the run', async () => {
    const { workflowId, model } = await deployFailing('malformed');
    llm.replyForModel(model, { kind: 'malformed' });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'hi', stream: true });
    const done = doneOf(await reader.finished);
    expect(done.success).toBe(false);
    expect(done.error).toContain('OpenAI request failed: malformed stream');
  });

  it('a provider that goes silent times out', async () => {
    const { workflowId, model } = await deployFailing('silent', { timeoutMs: 300, retries: 0 });
    llm.replyForModel(model, { kind: 'hang' });
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'hi', stream: true });
    const done = doneOf(await reader.finished);
    expect(done.success).toBe(false);
    expect(done.error).toContain('OpenAI request failed: timed out after 300 ms without data from the model');
  });
});

describe('cancellation', () => {
  it('a client that disconnects aborts the upstream request, and the run is logged as an error', async () => {
    const model = 'cancel-me';
    const workflowId = await createAndDeploy(t, makeState([trigger, openAiAgent('ai', 'AI', { model })], [['start', 'ai']]), 'Cancel');
    const never = latch();
    llm.replyForModel(model, { kind: 'stream', tokens: ['first', 'never sent'], beforeToken: (i) => (i === 0 ? Promise.resolve() : never.promise) });
    const upstreamClosed = llm.nextEarlyClose();
    const reader = await openSse(executeUrl(workflowId), t.apiKey, { q: 'hi', stream: true });
    await reader.waitForRecords(1);
    expect(chunksOf(reader.records)).toEqual([{ blockId: 'ai', chunk: 'first' }]);
    reader.abort();
    await upstreamClosed;
    const row = await eventually(async () => {
      const [found] = await t.app.db.select(executionRow).from(executions).where(eq(executions.workflowId, workflowId));
      return found && found.status !== 'running' ? found : undefined;
    });
    expect(row.level).toBe('error');
    never.open();
  });
});
