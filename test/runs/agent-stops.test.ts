// The agent loop stops with its run (issue 25 item 7): the run's time limit and a cancel request end the run
// promptly — as timed out or cancelled, never hung — and abort what the loop has in flight: a tool call to a server
// that never answers (its connection is closed) and a model stream that never ends.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../llm/fake-llm-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, logDetailOf, makeState } from '../support/workflows.js';

const TIME_LIMIT_MS = 2_000;
let t: TestApp;
let llm: FakeLlmServer;
let silent: Server;
let silentUrl: string;
/** Requests the silent server got, and how many of them the client gave up (closed) while waiting. */
const silentSeen = { requests: 0, closed: 0 };

beforeAll(async () => {
  llm = await startFakeLlmServer();
  t = await startTestApp({ SLUICE_EXECUTION_TIMEOUT_MS: String(TIME_LIMIT_MS), SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  silent = createServer((req, res) => {
    silentSeen.requests++;
    res.on('close', () => silentSeen.closed++); // never answered: only the client can end it
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent?.closeAllConnections();
  await Promise.all([t?.close(), llm?.close(), new Promise((resolve) => silent?.close(resolve))]);
});

const agentState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      {
        id: 'agent',
        type: 'agent',
        name: 'Agent',
        config: {
          provider: 'openai',
          model: 'gpt-4o-mini',
          baseUrl: llm.openAiBaseUrl,
          apiKey: 'k',
          userPrompt: 'check',
          // Longer than the run's time limit: only the run's stop can end the call.
          tools: [{ type: 'http', name: 'slow', description: 'Never answers', request: { url: `${silentUrl}/slow` }, retries: 0, timeoutMs: 120_000 }],
        },
      },
    ],
    [['start', 'agent']],
  );

const askForSlowTool = { kind: 'tool_calls' as const, calls: [{ id: 's1', name: 'slow', arguments: {} }] };

describe('the agent loop and its run’s stops', () => {
  it('the run’s time limit ends the run and aborts the tool call in flight', async () => {
    const wf = await createAndDeploy(t, agentState(), 'Slow tool, timed');
    llm.reply(askForSlowTool);
    const { requests, closed } = silentSeen;
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(res.status, res.text).toBe(408);
    expect(res.body.error).toContain(`timed out after ${TIME_LIMIT_MS} ms`);
    expect(silentSeen.requests).toBe(requests + 1);
    await eventually(() => silentSeen.closed > closed, 10_000, 'the tool call’s connection to be closed');
    const log = await logDetailOf(t, res.headers.get('x-execution-id')!);
    expect(log).toMatchObject({ status: 'error' });
    expect(log.error).toContain('timed out');
  });

  it('the run’s time limit ends the run and aborts a model stream that never ends', async () => {
    const wf = await createAndDeploy(t, agentState(), 'Hanging model, timed');
    llm.reply({ kind: 'hang' });
    const closedEarly = llm.nextEarlyClose();
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(res.status, res.text).toBe(408);
    expect(res.body.error).toContain(`timed out after ${TIME_LIMIT_MS} ms`);
    await closedEarly; // the client closed the stream
  });

  it('a cancel request during a tool call ends the run as cancelled and aborts the call', async () => {
    const wf = await createAndDeploy(t, agentState(), 'Slow tool, cancelled');
    llm.reply(askForSlowTool);
    const { requests, closed } = silentSeen;
    const call = t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    await eventually(() => silentSeen.requests > requests, 10_000, 'the tool call to reach the server');
    const executionId = [...t.app.recorder.inFlight()].find((run) => run.marker.workflowId === wf)!.marker.executionId;
    const cancelled = await t.request('POST', `/api/v1/executions/${executionId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    const res = await call;
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EXECUTION_CANCELLED');
    await eventually(() => silentSeen.closed > closed, 10_000, 'the tool call’s connection to be closed');
    const log = await logDetailOf(t, executionId);
    // Cancelled, not timed out: the run ended at the request, before its time limit.
    expect(log).toMatchObject({ status: 'cancelled', error: 'Execution cancelled' });
  });
});
