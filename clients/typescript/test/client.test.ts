// sluice-client against a real server: workflows from creation to export/import, and runs in the three modes (sync,
// streamed chunk by chunk, async with waitForJob), with failures as typed SluiceErrors.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { latch, startFakeLlmServer, type FakeLlmServer } from '../../../test/llm/fake-llm-server.js';
import type { StreamChunk, Workflow } from '../src/index.js';
import { echoState, eventually, makeState, refusal, startClientTestServer, type ClientTestServer } from './support.js';

let s: ClientTestServer;
let llm: FakeLlmServer;
beforeAll(async () => {
  [s, llm] = await Promise.all([startClientTestServer(), startFakeLlmServer()]);
});
afterAll(async () => Promise.all([s?.close(), llm?.close()]));

const trigger = { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } };
const failing = makeState(
  [trigger, { id: 'fn', type: 'function', name: 'Boom', config: { code: "throw new Error('boom: ' + <api.q>);" } }],
  [['start', 'fn']],
);

async function deployed(state: unknown, name: string) {
  const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name, state });
  await s.client.workflows.deploy(wf.id);
  return wf.id;
}

describe('workflows', () => {
  it('create, update, deploy, roll back, export and import, typed from the OpenAPI document', async () => {
    const me = await s.client.me();
    expect(me.workspaces.map((w) => w.id)).toEqual([s.t.workspaceId]);
    const created = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Echo', state: echoState() });
    expectTypeOf(created).toEqualTypeOf<Workflow>();
    expect(created).toMatchObject({ name: 'Echo', isDeployed: false, activeVersion: null });
    expect(await s.client.workflows.deploy(created.id)).toMatchObject({ version: 1 });
    await s.client.workflows.update(created.id, { description: 'v2', state: echoState('text') });
    expect(await s.client.workflows.status(created.id)).toMatchObject({ isDeployed: true, needsRedeployment: true });
    expect((await s.client.workflows.deploy(created.id)).version).toBe(2);
    expect(await s.client.workflows.activate(created.id, 1)).toMatchObject({ version: 1 });
    const history = await s.client.workflows.deployments(created.id);
    expect(history.map((d) => [d.version, d.isActive])).toEqual([
      [2, false],
      [1, true],
    ]);
    const listed = await s.client.workflows.list({ workspaceId: s.t.workspaceId });
    expect(listed.find((w) => w.id === created.id)).toMatchObject({ activeVersion: 1, description: 'v2' });

    const { data: document, replacedSecrets } = await s.client.workflows.export(created.id);
    expect(document).toMatchObject({ format: 'sluice.workflow', version: 1, name: 'Echo' });
    expect(replacedSecrets).toEqual([]);
    const copy = await s.client.workflows.import({ workspaceId: s.t.workspaceId, document, name: 'Echo copy' });
    expect(copy.data.state).toEqual(document.state);
    expect(copy.missingEnvironment).toEqual([]);

    await s.client.workflows.undeploy(created.id);
    expect((await s.client.workflows.get(created.id)).isDeployed).toBe(false);
    await s.client.workflows.delete(copy.data.id);
    const gone = await refusal(s.client.workflows.get(copy.data.id));
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists the block types with their forms and config schemas, and a workflow built from their defaults deploys and runs', async () => {
    const types = await s.client.blockTypes();
    const byType = Object.fromEntries(types.map((t) => [t.type, t]));
    expect(Object.keys(byType)).toEqual(expect.arrayContaining(['api_trigger', 'api', 'function', 'condition', 'agent', 'approval', 'loop', 'parallel']));
    expect(byType.webhook_trigger.trigger).toBe('webhook');
    expect(byType.api.trigger).toBeNull();
    const api = byType.api;
    expect(api.fields.find((f) => f.key === 'method')).toMatchObject({ kind: 'select', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] });
    expect(api.fields.find((f) => f.key === 'body')?.conditional).toBe(true);
    expect(api.configSchema).toMatchObject({ type: 'object', properties: { url: { type: 'string' }, retries: { type: 'integer', maximum: 10 } } });
    expect(byType.loop.configSchema).toMatchObject({ properties: { loopType: { enum: ['for', 'forEach'] } } });

    // A program builds a workflow from the catalogue alone: each block starts from its type's default config.
    const block = (id: string, type: string, config: Record<string, unknown> = {}) => ({
      id,
      type,
      name: byType[type].label,
      config: { ...byType[type].defaultConfig, ...config },
    });
    const state = makeState(
      [block('start', 'api_trigger'), block('fn', 'function'), block('out', 'response', { body: { ran: '<function.result>' } })],
      [
        ['start', 'fn'],
        ['fn', 'out'],
      ],
    );
    const workflowId = await deployed(state, 'From the catalogue');
    expect(await s.client.executeWorkflow(workflowId, {})).toMatchObject({ status: 200, body: { ran: { ok: true } } });
  });

  it('turns refusals into SluiceErrors with status, code and details', async () => {
    const invalid = await refusal(
      s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Bad', state: { blocks: {}, edges: [{ id: 'e', source: 'a', target: 'b' }] } }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe('VALIDATION_ERROR');
    expect(invalid.details.length).toBeGreaterThan(0);
    expect(invalid.details[0].path).toMatch(/^state\./);
  });
});

describe('executeWorkflow', () => {
  it('returns the default answer with its execution id, and a response block\'s answer as it was shaped', async () => {
    const plain = await deployed(makeState([trigger, { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return { got: <api.q> };' } }], [['start', 'fn']]), 'Plain');
    const run = await s.client.executeWorkflow(plain, { q: 'hello' });
    expect(run.status).toBe(200);
    expect(run.result).toMatchObject({ success: true, executionId: run.executionId, output: { result: { got: 'hello' } } });
    expect(run.replayed).toBe(false);

    const shaped = await deployed(echoState(), 'Shaped');
    const echoed = await s.client.executeWorkflow(shaped, { q: 'x' });
    expect(echoed).toMatchObject({ status: 200, body: { echoed: 'x' }, result: null });
    expect(echoed.executionId).toMatch(/^exec_/);
    // The run is in the logs under that id.
    const detail = await s.client.getExecution(echoed.executionId);
    expect(detail.workflowId).toBe(shaped);
  });

  it('replays an answer for the same Idempotency-Key instead of running again', async () => {
    const id = await deployed(echoState(), 'Once');
    const first = await s.client.executeWorkflow(id, { q: 'a' }, { idempotencyKey: 'order-17' });
    const second = await s.client.executeWorkflow(id, { q: 'a' }, { idempotencyKey: 'order-17' });
    expect(second).toMatchObject({ replayed: true, executionId: first.executionId, body: { echoed: 'a' } });
  });

  it('throws EXECUTION_FAILED with the execution id for a failed run, VALIDATION_ERROR for bad input', async () => {
    const id = await deployed(failing, 'Failing');
    const failed = await refusal(s.client.executeWorkflow(id, { q: 'sync' }));
    expect(failed).toMatchObject({ status: 500, code: 'EXECUTION_FAILED' });
    expect(failed.message).toContain('boom: sync');
    expect(failed.executionId).toMatch(/^exec_/);
    expect((await s.client.getExecution(failed.executionId!)).executionMetadata.trigger).toBe('api');

    const bad = await refusal(s.client.executeWorkflow(id, { q: 42 }));
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', executionId: undefined });
    expect(bad.details).toEqual([expect.objectContaining({ path: 'q' })]);
  });
});

describe('streamWorkflow', () => {
  it('yields each chunk as the model produces it, then the final record', async () => {
    const agent = {
      id: 'writer',
      type: 'agent',
      name: 'Writer',
      config: { provider: 'openai', model: 'client-stream', baseUrl: llm.openAiBaseUrl, userPrompt: '<api.q>', retries: 0 },
    };
    const id = await deployed(makeState([trigger, agent], [['start', 'writer']]), 'Streaming');
    const received: StreamChunk[] = [];
    const gates = [latch(), latch()];
    llm.replyForModel('client-stream', {
      kind: 'stream',
      tokens: ['One', ' two', ' three'],
      usage: { prompt: 10, completion: 3 },
      // Token i waits until the client holds chunk i-1: a client that buffered the stream would never finish.
      beforeToken: async (i) => {
        if (i > 0) await gates[i - 1].promise;
      },
    });
    const stream = s.client.streamWorkflow(id, { q: 'count' }, { selectedOutputs: ['Writer.content'] });
    for await (const chunk of stream) {
      received.push(chunk);
      gates[received.length - 1]?.open();
    }
    expect(received).toEqual([
      { blockId: 'writer', chunk: 'One' },
      { blockId: 'writer', chunk: ' two' },
      { blockId: 'writer', chunk: ' three' },
    ]);
    const done = await stream.done;
    expect(done).toMatchObject({ event: 'done', success: true, output: { content: 'One two three' } });
    expect(await stream.executionId).toMatch(/^exec_/);
  });

  it('rejects done with EXECUTION_FAILED when the run fails, and when only done is awaited', async () => {
    const id = await deployed(failing, 'Stream fail');
    const stream = s.client.streamWorkflow(id, { q: 'streamed' });
    const failure = await refusal(stream.done);
    expect(failure).toMatchObject({ code: 'EXECUTION_FAILED', executionId: await stream.executionId });
    expect(failure.message).toContain('boom: streamed');

    const refused = s.client.streamWorkflow('wf_missing', {});
    const notFound = await refusal(refused.done);
    expect(notFound).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('async runs', () => {
  it('queues a run and waitForJob returns it completed, or throws for a failed one', async () => {
    const id = await deployed(echoState(), 'Later');
    const queued = await s.client.executeWorkflowAsync(id, { q: 'queued' });
    expect(queued).toMatchObject({ status: 'queued', taskId: expect.stringMatching(/^job_/) });
    const job = await s.client.waitForJob(queued.taskId, { timeoutMs: 20_000 });
    expect(job).toMatchObject({ status: 'completed', metadata: { executionId: queued.executionId } });

    const failingId = await deployed(failing, 'Later fail');
    const doomed = await s.client.executeWorkflowAsync(failingId, { q: 'async' });
    const failure = await refusal(s.client.waitForJob(doomed.taskId, { timeoutMs: 20_000 }));
    expect(failure).toMatchObject({ code: 'EXECUTION_FAILED', executionId: doomed.executionId });
    expect(failure.message).toContain('boom: async');
  });
});

describe('approvals and cancelling', () => {
  const gated = makeState(
    [
      trigger,
      { id: 'gate', type: 'approval', name: 'Gate', config: { message: 'Go on with <api.q>?' } },
      { id: 'fn', type: 'function', name: 'After', config: { code: 'return { approved: <gate.approved>, q: <api.q> };' } },
    ],
    [
      ['start', 'gate'],
      ['gate', 'fn'],
    ],
  );

  it('a run paused at an approval is listed, resumed, and an async job waiting on it completes', async () => {
    const id = await deployed(gated, 'Gated');
    const queued = await s.client.executeWorkflowAsync(id, { q: 'ship' });
    const paused = await eventually(async () => {
      const runs = await s.client.listPausedRuns(s.t.workspaceId);
      return runs.find((run) => run.executionId === queued.executionId);
    }, 15_000, 'the run to pause');
    expect(paused).toMatchObject({ workflowId: id, blockId: 'gate', message: 'Go on with ship?' });
    expect(await s.client.getJob(queued.taskId)).toMatchObject({ status: 'paused' });
    const waited = s.client.waitForJob(queued.taskId, { timeoutMs: 20_000, intervalMs: 200 });
    expect(await s.client.resumeExecution(queued.executionId, { approved: true, data: { by: 'client' } })).toEqual({
      executionId: queued.executionId,
      status: 'resuming',
    });
    expect((await waited).output).toMatchObject({ result: { approved: true, q: 'ship' } });
    const again = await refusal(s.client.resumeExecution(queued.executionId, { approved: false }));
    expect(again).toMatchObject({ status: 409, code: 'EXECUTION_NOT_PAUSED' });
  });

  it('a sync call tells it paused; cancelling it ends the run and a job waiting on it throws EXECUTION_CANCELLED', async () => {
    const id = await deployed(gated, 'Gated sync');
    const answer = await s.client.executeWorkflow(id, { q: 'stop' });
    expect(answer.status).toBe(202);
    expect(answer.paused).toEqual({ executionId: answer.executionId, status: 'paused', links: { resume: `/api/v1/executions/${answer.executionId}/resume` } });
    expect(await s.client.cancelExecution(answer.executionId)).toEqual({ executionId: answer.executionId, status: 'cancelled' });

    const queued = await s.client.executeWorkflowAsync(id, { q: 'later' });
    await eventually(async () => (await s.client.getJob(queued.taskId)).status === 'paused', 15_000, 'the job to pause');
    const waited = refusal(s.client.waitForJob(queued.taskId, { timeoutMs: 20_000, intervalMs: 200 }));
    await s.client.cancelExecution(queued.executionId);
    expect(await waited).toMatchObject({ code: 'EXECUTION_CANCELLED', executionId: queued.executionId });
  });
});
