// Agent memory across a restart (README "Agents"): a conversation held by one `sluice serve` process is continued by
// the next one on the same data — the embedded database of a data directory, or PostgreSQL with TEST_DATABASE_URL.
// The first process is killed (SIGKILL) right after answering: the memory was written before the answer was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { restartableSluice, type RestartableSluice } from '../support/restartable.js';
import { makeState } from '../support/workflows.js';

let llm: FakeLlmServer;
const key = generateApiKey();
let env: Record<string, string>;
let call: RestartableSluice['call'];
let dispose: RestartableSluice['dispose'] | undefined;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  ({ env, call, dispose } = await restartableSluice('sluice-memory-', key));
});
afterAll(async () => {
  await llm?.close();
  await dispose?.();
});

describe('agent memory across a restart', { timeout: 120_000 }, () => {
  it('a conversation begun before kill -9 is continued by the restarted server', async () => {
    const model = 'memory-restart';
    const state = makeState(
      [
        { id: 'chat', type: 'chat_trigger', name: 'Chat' },
        {
          id: 'agent',
          type: 'agent',
          name: 'Agent',
          config: { provider: 'openai', model, baseUrl: llm.openAiBaseUrl, userPrompt: '<chat.message>', retries: 0, memory: { key: '<chat.conversationId>' } },
        },
      ],
      [['chat', 'agent']],
    );
    llm.replyForModel(
      model,
      { kind: 'stream', tokens: ['Noted: ', 'blue'], usage: { prompt: 5, completion: 2 } },
      { kind: 'stream', tokens: ['Blue'], usage: { prompt: 9, completion: 1 } },
    );
    let server: SluiceProcess | undefined;
    try {
      server = await startSluice(env);
      const me = await call(server, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId, name: 'Remembers', state });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const workflowId: string = created.body.data.id;
      expect((await call(server, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
      const first = await call(server, 'POST', `/api/chat/${workflowId}`, { message: 'My favourite colour is blue', stream: false });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const conversationId: string = first.body.conversationId;
      await server.stop('SIGKILL');

      server = await startSluice(env);
      const second = await call(server, 'POST', `/api/chat/${workflowId}`, { message: 'Which colour?', conversationId, stream: false });
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body.output.content).toBe('Blue');
      const sent = llm.requests.filter((r) => r.body.model === model).at(-1)!.body.messages;
      expect(sent).toEqual([
        { role: 'user', content: 'My favourite colour is blue' },
        { role: 'assistant', content: 'Noted: blue' },
        { role: 'user', content: 'Which colour?' },
      ]);
      const listed = await call(server, 'GET', `/api/v1/workflows/${workflowId}/memories`);
      expect(listed.body.data).toMatchObject([{ key: conversationId, messageCount: 4 }]);
    } finally {
      await server?.stop();
    }
  });
});
