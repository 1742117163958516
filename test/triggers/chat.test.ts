// Chat (README "Other triggers"): `POST /api/chat/{workflowId}` {message, conversationId?} runs the active deployment
// with `<chat.message>` / `<chat.conversationId>`, streams like the execute endpoint, logs trigger `chat`; API key, or
// none when the workflow's chat is public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState, parseSse } from '../support/workflows.js';
import { callWebhook, logOf } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_SSE_KEEPALIVE_MS: '50', SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

const chatState = () =>
  makeState(
    [
      { id: 'chat', type: 'chat_trigger', name: 'Chat' },
      { id: 'reply', type: 'function', name: 'Reply', config: { code: "return 'You said: ' + <chat.message> + ' in ' + <chat.conversationId>;" } },
    ],
    [['chat', 'reply']],
  );

const chat = (workflowId: string, body: unknown, apiKey?: string | null) => t.request('POST', `/api/chat/${workflowId}`, { body, apiKey });

describe('chat trigger', () => {
  it('streams by default: selected outputs as chunks, then done with the conversation id, then [DONE]', async () => {
    const wf = await createAndDeploy(t, chatState());
    const res = await chat(wf, { message: 'hello', selectedOutputs: ['Reply.result'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const conversationId = res.headers.get('x-conversation-id');
    expect(conversationId).toMatch(/^conv_/);
    const { records } = parseSse(res.text);
    expect(records[0]).toEqual({ blockId: 'reply', chunk: `You said: hello in ${conversationId}` });
    expect(records[1]).toMatchObject({
      event: 'done',
      success: true,
      conversationId,
      executionId: expect.stringMatching(/^exec_/),
      output: { result: `You said: hello in ${conversationId}` },
      metadata: { duration: expect.any(Number) },
    });
    expect(records.at(-1)).toBe('[DONE]');
    expect((await logOf(t, (records[1] as { executionId: string }).executionId)).trigger).toBe('chat');
  });

  it('keeps a given conversation id, and answers JSON with stream: false', async () => {
    const wf = await createAndDeploy(t, chatState());
    const res = await chat(wf, { message: 'again', conversationId: 'conv-42', stream: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, conversationId: 'conv-42', output: { result: 'You said: again in conv-42' } });
    expect((await logOf(t, res.body.executionId)).trigger).toBe('chat');
  });

  it('needs a key unless the chat is public; a key still needs access to the workspace', async () => {
    const wf = await createAndDeploy(t, chatState());
    const anonymous = await chat(wf, { message: 'hi', stream: false }, null);
    expect(anonymous.status).toBe(401);
    expect((await chat('wf_doesnotexist', { message: 'hi' }, null)).status).toBe(401);
    expect((await chat(wf, { message: 'hi' }, 'sk-sluice-bogus')).status).toBe(401);

    const made = await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { chatPublic: true } });
    expect(made.status).toBe(200);
    expect(made.body.data.chatPublic).toBe(true);
    const open = await chat(wf, { message: 'hi', stream: false }, null);
    expect(open.status).toBe(200);
    expect(open.body.output.result).toMatch(/^You said: hi/);

    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'oscar@example.com', plan: 'free' });
    expect((await chat(wf, { message: 'hi' }, outsider.apiKey)).status).toBe(403);

    await t.request('PATCH', `/api/v1/workflows/${wf}`, { body: { chatPublic: false } });
    expect((await chat(wf, { message: 'hi' }, null)).status).toBe(401);
  });

  it('refuses what it cannot run: undeployed 409, no chat trigger 404, unknown 404, no message 400', async () => {
    const draft = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Draft', state: chatState() } });
    const undeployed = await chat(draft.body.data.id, { message: 'hi' });
    expect(undeployed.status).toBe(409);
    expect(undeployed.body.code).toBe('WORKFLOW_NOT_DEPLOYED');
    const apiOnly = await createAndDeploy(t, makeState([{ id: 'api', type: 'api_trigger', name: 'API' }]));
    expect((await chat(apiOnly, { message: 'hi' })).status).toBe(404);
    expect((await chat('wf_doesnotexist', { message: 'hi' })).status).toBe(404);
    const wf = await createAndDeploy(t, chatState());
    const invalid = await chat(wf, { conversationId: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual([{ path: 'message', message: expect.any(String) }]);
  });
});

describe('limits of request-driven triggers', () => {
  it('chat and webhook calls share the owner’s sync rate limit', async () => {
    const limited = await startTestApp({ SLUICE_LIMIT_SYNC_FREE: '2' });
    try {
      // Windows are fixed minutes: a run of calls that straddles a boundary is repeated with a fresh owner.
      for (let attempt = 1; ; attempt++) {
        const owner = await bootstrapAdmin(limited.app.db, { apiKey: generateApiKey(), adminEmail: `limited-${attempt}@example.com`, plan: 'free' });
        const deploy = async (state: unknown) => {
          const created = await limited.request('POST', '/api/v1/workflows', { body: { workspaceId: owner.workspaceId, name: 'Limited', state }, apiKey: owner.apiKey });
          expect((await limited.request('POST', `/api/v1/workflows/${created.body.data.id}/deploy`, { apiKey: owner.apiKey })).status).toBe(200);
          return created.body.data.id as string;
        };
        const path = `limited-${Date.now()}-${attempt}`;
        await deploy(makeState([{ id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path } }]));
        const wf = await deploy(chatState());
        const talk = (message: string) => limited.request('POST', `/api/chat/${wf}`, { body: { message, stream: false }, apiKey: owner.apiKey });
        const responses = [await talk('one'), await callWebhook(limited, path, '{}'), await talk('three'), await callWebhook(limited, path, '{}')];
        if (new Set(responses.map((r) => r.headers.get('x-ratelimit-reset'))).size > 1 && attempt < 3) continue;
        expect(responses.map((r) => r.status)).toEqual([200, 200, 429, 429]);
        expect(responses[0].headers.get('x-ratelimit-limit')).toBe('2');
        expect(responses[2].body.code).toBe('RATE_LIMIT_EXCEEDED');
        expect(responses[2].headers.get('retry-after')).toMatch(/^\d+$/);
        break;
      }
    } finally {
      await limited.close();
    }
  });
});
