// Agent memory (README "Agents", docs/workflows.md "Agent memory"): an agent block with `memory` continues the
// conversation of earlier runs under the same key — the model's next request holds the earlier user, assistant and
// tool messages before the new prompt — against a local fake OpenAI-compatible or Anthropic server. The memories are
// listed, read and deleted through the API, and pruned with the logs. Runs on PGlite, and on PostgreSQL with
// TEST_DATABASE_URL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/app/maintenance.js';
import { createLogger } from '../../src/logger.js';
import { appendMemory } from '../../src/services/agent-memory.js';
import { generateApiKey, storeApiKey } from '../../src/services/api-keys.js';
import { findOrCreateUser } from '../../src/services/workspaces.js';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
let llm: FakeLlmServer;

beforeAll(async () => {
  [t, llm] = await Promise.all([startTestApp(), startFakeLlmServer()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), llm?.close()]);
});

const addTool = {
  type: 'function',
  name: 'add',
  description: 'Adds two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  code: 'return { sum: args.a + args.b };',
};

/** chat → agent, remembering per conversation; the run's output is the agent's. */
function chatAgent(model: string, agent: Record<string, unknown> = {}) {
  return makeState(
    [
      { id: 'chat', type: 'chat_trigger', name: 'Chat' },
      {
        id: 'agent',
        type: 'agent',
        name: 'Agent',
        config: {
          provider: 'openai',
          model,
          baseUrl: llm.openAiBaseUrl,
          systemPrompt: 'Be brief.',
          userPrompt: '<chat.message>',
          retries: 0,
          memory: { key: '<chat.conversationId>' },
          ...agent,
        },
      },
    ],
    [['chat', 'agent']],
  );
}

async function chat(workflowId: string, message: string, conversationId: string) {
  const res = await t.request('POST', `/api/chat/${workflowId}`, { body: { message, conversationId, stream: false } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const stream = (tokens: string[]) => ({ kind: 'stream' as const, tokens, usage: { prompt: 10, completion: 2 } });

/** The messages of the requests made for `model`, in order. */
const requestsFor = (model: string) =>
  llm.requests.filter((r) => r.body.model === model).map((r) => r.body.messages as Array<Record<string, unknown>>);

const memoriesPath = (workflowId: string, key?: string) =>
  `/api/v1/workflows/${workflowId}/memories${key === undefined ? '' : `/${encodeURIComponent(key)}`}`;

describe('agent memory', () => {
  it('continues a conversation: the second run sends the first run’s user, assistant and tool messages before its prompt', async () => {
    const model = 'memory-basic';
    const workflowId = await createAndDeploy(t, chatAgent(model, { tools: [addTool] }), 'Memory basic');
    llm.replyForModel(
      model,
      { kind: 'tool_calls', calls: [{ id: 'call_add', name: 'add', arguments: { a: 2, b: 3 } }], usage: { prompt: 5, completion: 1 } },
      stream(['It is ', '5']),
      stream(['You asked for 2 + 3']),
    );
    expect(await chat(workflowId, 'What is 2 + 3?', 'conv-a')).toMatchObject({ output: { content: 'It is 5' } });
    expect(await chat(workflowId, 'What did I ask?', 'conv-a')).toMatchObject({ output: { content: 'You asked for 2 + 3' } });

    const [, , second] = requestsFor(model);
    expect(second).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is 2 + 3?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_add', type: 'function', function: { name: 'add', arguments: JSON.stringify({ a: 2, b: 3 }) } }],
      },
      { role: 'tool', tool_call_id: 'call_add', content: JSON.stringify({ sum: 5 }) },
      { role: 'assistant', content: 'It is 5' },
      { role: 'user', content: 'What did I ask?' },
    ]);

    // Another conversation of the same workflow starts afresh.
    llm.replyForModel(model, stream(['Hi']));
    await chat(workflowId, 'Hello', 'conv-b');
    expect(requestsFor(model).at(-1)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
    ]);

    // The API shows both, newest first, and the messages of one in order.
    const list = await t.request('GET', memoriesPath(workflowId));
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((m: { key: string; messageCount: number }) => [m.key, m.messageCount])).toEqual([
      ['conv-b', 2],
      ['conv-a', 6],
    ]);
    const shown = await t.request('GET', memoriesPath(workflowId, 'conv-a'));
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.nextCursor).toBeNull();
    expect(shown.body.data).toMatchObject({ key: 'conv-a', messageCount: 6 });
    expect(shown.body.data.messages.map((m: Record<string, unknown>) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'What is 2 + 3?'],
      [2, 'assistant', ''],
      [3, 'tool', '{"sum":5}'],
      [4, 'assistant', 'It is 5'],
      [5, 'user', 'What did I ask?'],
      [6, 'assistant', 'You asked for 2 + 3'],
    ]);
    expect(shown.body.data.messages[1].toolCalls).toEqual([{ id: 'call_add', name: 'add', arguments: '{"a":2,"b":3}' }]);
    expect(shown.body.data.messages[2]).toMatchObject({ toolCallId: 'call_add', toolName: 'add', isError: false });
  });

  it('gives the model only the last lastMessages messages, starting at a user message', async () => {
    const model = 'memory-trim';
    const workflowId = await createAndDeploy(t, chatAgent(model, { memory: { key: '<chat.conversationId>', lastMessages: 3 } }), 'Memory trim');
    llm.replyForModel(model, stream(['one']), stream(['two']), stream(['three']));
    await chat(workflowId, 'first', 'trim');
    await chat(workflowId, 'second', 'trim');
    await chat(workflowId, 'third', 'trim');
    // Four messages were kept before the third run; the last three begin with an assistant answer, which is left out.
    expect(requestsFor(model).at(-1)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'third' },
    ]);
    expect((await t.request('GET', memoriesPath(workflowId, 'trim'))).body.data.messageCount).toBe(6);
  });

  it('leaves an empty answer out of what the model is sent (providers refuse an empty assistant message)', async () => {
    const model = 'memory-empty';
    const workflowId = await createAndDeploy(t, chatAgent(model), 'Memory empty answer');
    llm.replyForModel(model, stream([]), stream(['ok']));
    await chat(workflowId, 'say nothing', 'empty');
    await chat(workflowId, 'now say ok', 'empty');
    expect(requestsFor(model).at(-1)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'say nothing' },
      { role: 'user', content: 'now say ok' },
    ]);
  });

  it('keeps the conversation for the Anthropic provider too, in its own message format', async () => {
    const model = 'claude-memory';
    const workflowId = await createAndDeploy(
      t,
      chatAgent(model, { provider: 'anthropic', baseUrl: llm.url, apiKey: 'sk-ant-test', tools: [addTool] }),
      'Memory anthropic',
    );
    llm.replyForModel(
      model,
      { kind: 'tool_calls', calls: [{ id: 'toolu_1', name: 'add', arguments: { a: 1, b: 1 } }] },
      stream(['Two']),
      stream(['Still two']),
    );
    await chat(workflowId, 'One plus one?', 'anthropic-conv');
    await chat(workflowId, 'Sure?', 'anthropic-conv');
    expect(requestsFor(model).at(-1)).toEqual([
      { role: 'user', content: 'One plus one?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 1, b: 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"sum":2}' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two' }] },
      { role: 'user', content: 'Sure?' },
    ]);
  });

  it('adds nothing from a run whose agent failed, and fails an agent whose key came out empty', async () => {
    const model = 'memory-fail';
    const workflowId = await createAndDeploy(t, chatAgent(model), 'Memory fail');
    llm.replyForModel(model, stream(['Kept']), { kind: 'error', status: 400, body: { error: { message: 'bad request' } } }, stream(['Again']));
    await chat(workflowId, 'keep me', 'fails');
    await t.request('POST', `/api/chat/${workflowId}`, { body: { message: 'lost', conversationId: 'fails', stream: false } });
    await chat(workflowId, 'after', 'fails');
    expect(requestsFor(model).at(-1)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'keep me' },
      { role: 'assistant', content: 'Kept' },
      { role: 'user', content: 'after' },
    ]);

    // An API caller that sends no session id: the agent says what is missing instead of running without memory.
    const apiState = makeState(
      [
        { id: 'api', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'sessionId', type: 'string' }, { name: 'q', type: 'string' }] } },
        {
          id: 'agent',
          type: 'agent',
          name: 'Agent',
          config: { provider: 'openai', model, baseUrl: llm.openAiBaseUrl, userPrompt: '<api.q>', retries: 0, memory: { key: '<api.sessionId>' } },
        },
      ],
      [['api', 'agent']],
    );
    const apiWorkflow = await createAndDeploy(t, apiState, 'Memory without key');
    const calls = llm.requests.length;
    const res = await t.request('POST', `/api/workflows/${apiWorkflow}/execute`, { body: { q: 'hi' } });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatch(/memory\.key.*is empty/);
    expect(llm.requests.length).toBe(calls);
  });

  it('refuses a memory that makes no sense when the workflow is saved, naming the problem', async () => {
    const save = (memory: unknown) =>
      t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Bad memory', state: chatAgent('any', { memory }) } });
    for (const [memory, path, message] of [
      [{ key: 'k', lastMessages: 500 }, 'memory.lastMessages', 'must be at most 200'],
      [{ key: 'k', lastMessages: 0 }, 'memory.lastMessages', 'must be at least 1'],
      [{ key: '  ' }, 'memory.key', 'is empty'],
      [{ key: 'k', size: 3 }, 'memory', 'size'],
      ['always', 'memory', ''],
    ] as const) {
      const res = await save(memory);
      expect(res.status, res.text).toBe(400);
      const detail = (res.body.details as Array<{ path: string; message: string }>).find((d) => d.path.endsWith(path));
      expect(detail, `${JSON.stringify(memory)}: ${res.text}`).toBeDefined();
      expect(`${detail!.path} ${detail!.message}`).toContain(message);
    }
    // A reference is checked when the run resolves it.
    expect((await save({ key: '<chat.conversationId>', lastMessages: '<chat.message>' })).status).toBe(201);
  });
});

describe('agent memories through the API', () => {
  it('pages the list, reads a key with any characters, deletes it, and 404s for another workspace', async () => {
    const workflowId = await createAndDeploy(t, chatAgent('memory-api'), 'Memory API');
    const keys = ['user/1 two', 'ümlaut?&#', 'plain'];
    for (const key of keys) {
      await appendMemory(t.app.db, { workflowId, key, executionId: 'exec_test' }, [{ role: 'user', content: `hello from ${key}` }]);
    }
    const first = await t.request('GET', `${memoriesPath(workflowId)}?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toHaveLength(2);
    const rest = await t.request('GET', `${memoriesPath(workflowId)}?limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body.nextCursor).toBeNull();
    expect([...first.body.data, ...rest.body.data].map((m: { key: string }) => m.key).sort()).toEqual([...keys].sort());

    for (const key of keys) {
      const shown = await t.request('GET', memoriesPath(workflowId, key));
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body.data.messages).toMatchObject([{ seq: 1, role: 'user', content: `hello from ${key}`, executionId: 'exec_test' }]);
    }
    expect((await t.request('GET', `${memoriesPath(workflowId)}?cursor=garbage`)).status).toBe(400);

    // Someone else's workspace: the workflow and its memories are not there for them.
    const outsider = await findOrCreateUser(t.app.db, 'outsider-memory@example.com', 'free');
    const outsiderKey = generateApiKey();
    await storeApiKey(t.app.db, { key: outsiderKey, userId: outsider.id, workspaceId: null, name: 'outsider' });
    for (const [method, path] of [
      ['GET', memoriesPath(workflowId)],
      ['GET', memoriesPath(workflowId, 'plain')],
      ['DELETE', memoriesPath(workflowId, 'plain')],
    ] as const) {
      const res = await t.request(method, path, { apiKey: outsiderKey });
      expect({ method, path, status: res.status, code: res.body?.code }).toEqual({ method, path, status: 404, code: 'NOT_FOUND' });
    }

    expect((await t.request('DELETE', memoriesPath(workflowId, 'user/1 two'))).status).toBe(204);
    expect((await t.request('GET', memoriesPath(workflowId, 'user/1 two'))).status).toBe(404);
    expect((await t.request('DELETE', memoriesPath(workflowId, 'user/1 two'))).status).toBe(404);
    expect((await t.request('GET', memoriesPath(workflowId))).body.data.map((m: { key: string }) => m.key).sort()).toEqual(['plain', 'ümlaut?&#']);
  });

  it('loses no message when runs append to one key at once: each run’s messages stay together, in sequence', async () => {
    const workflowId = await createAndDeploy(t, chatAgent('memory-concurrent'), 'Memory concurrent');
    const runs = Array.from({ length: 12 }, (_, i) => `run${i}`);
    await Promise.all(
      runs.map((run) =>
        appendMemory(t.app.db, { workflowId, key: 'shared', executionId: run }, [
          { role: 'user', content: `${run} asks` },
          { role: 'assistant', content: `${run} answers` },
        ]),
      ),
    );
    const shown = await t.request('GET', `${memoriesPath(workflowId, 'shared')}?limit=500`);
    const messages = shown.body.data.messages as Array<{ seq: number; content: string; executionId: string }>;
    expect(shown.body.data.messageCount).toBe(24);
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    for (let i = 0; i < 24; i += 2) {
      expect(messages[i + 1].executionId).toBe(messages[i].executionId);
      expect([messages[i].content, messages[i + 1].content]).toEqual([`${messages[i].executionId} asks`, `${messages[i].executionId} answers`]);
    }
    expect(new Set(messages.map((m) => m.executionId)).size).toBe(12);
  });

  it('is pruned with the logs: a memory whose last message is older than the retention goes, a recent one stays', async () => {
    const workflowId = await createAndDeploy(t, chatAgent('memory-retention'), 'Memory retention');
    await appendMemory(t.app.db, { workflowId, key: 'old', executionId: 'exec_old' }, [{ role: 'user', content: 'long ago' }]);
    await appendMemory(t.app.db, { workflowId, key: 'recent', executionId: 'exec_new' }, [{ role: 'user', content: 'just now' }]);
    await t.app.db.execute(sql`update agent_memories set updated_at = now() - interval '31 days' where workflow_id = ${workflowId} and key = 'old'`);

    const maintain = (logRetentionDays: number | null) =>
      runMaintenance({ db: t.app.db, logger: createLogger('silent'), storage: t.app.files.storage, logRetentionDays });
    await maintain(null); // no retention set: kept for ever
    expect((await t.request('GET', memoriesPath(workflowId, 'old'))).status).toBe(200);
    await maintain(30);
    expect((await t.request('GET', memoriesPath(workflowId, 'old'))).status).toBe(404);
    expect((await t.request('GET', memoriesPath(workflowId, 'recent'))).status).toBe(200);
    const rows = await t.app.db.execute(sql`select count(*)::int as n from agent_memory_messages where execution_id = 'exec_old'`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });
});
