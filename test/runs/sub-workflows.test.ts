// Sub-workflows (README "Sub-workflows"): a workflow block runs another workflow of the workspace as a run of its own,
// logged with parentExecutionId, charged once per run tree; cycles and foreign workflows are refused at deploy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../llm/fake-llm-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState, parseSse } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  // Tests poll the logs API; its per-minute limit is not what they are about.
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

const child = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'name', type: 'string', required: true }] } },
      { id: 'greet', type: 'function', name: 'Greet', config: { code: 'return `hello ${<api.name>}`;' } },
    ],
    [['start', 'greet']],
  );

const parent = (childId: string, input: Record<string, unknown> = { name: '<api.who>' }) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'who', type: 'string' }] } },
      { id: 'sub', type: 'workflow', name: 'Sub', config: { workflowId: childId, input } },
      { id: 'out', type: 'response', name: 'Out', config: { body: { said: '<sub.result.result>', child: '<sub.executionId>' } } },
    ],
    [
      ['start', 'sub'],
      ['sub', 'out'],
    ],
  );

async function logOf(executionId: string) {
  return eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&details=full`);
    return res.body.data?.[0];
  }, 10_000, `the log of ${executionId}`);
}

describe('sub-workflows', () => {
  it('runs the child’s active deployment with the mapped input and returns its output; both runs are logged and linked', async () => {
    const childId = await createAndDeploy(t, child(), 'Child');
    const parentId = await createAndDeploy(t, parent(childId), 'Parent');
    const res = await t.request('POST', `/api/workflows/${parentId}/execute`, { body: { who: 'Ada' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.said).toBe('hello Ada');
    const childExecution: string = res.body.child;
    expect(childExecution).toMatch(/^exec_/);

    const parentExecution = res.headers.get('x-execution-id')!;
    const childLog = await logOf(childExecution);
    expect(childLog).toMatchObject({ workflowId: childId, level: 'info' });
    const detail = (await t.request('GET', `/api/v1/logs/${childLog.id}`)).body.data;
    expect(detail.parentExecutionId).toBe(parentExecution);
    // Filterable: the children of a run.
    const children = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&parentExecutionId=${parentExecution}`);
    expect(children.body.data.map((l: { executionId: string }) => l.executionId)).toEqual([childExecution]);

    // The child's trace sits under the workflow block's span; the run tree pays the base charge once.
    const parentDetail = (await t.request('GET', `/api/v1/logs/${(await logOf(parentExecution)).id}`)).body.data;
    const subSpan = parentDetail.executionData.traceSpans.find((s: { blockId: string }) => s.blockId === 'sub');
    expect(subSpan.children.map((s: { blockId: string }) => s.blockId)).toEqual(['start', 'greet']);
    expect(parentDetail.cost.total).toBeGreaterThan(0);
    expect(detail.cost.total).toBe(0);
  });

  it('fails the block when the input does not match the child’s Input Format, or the child is not deployed', async () => {
    const childId = await createAndDeploy(t, child(), 'Strict child');
    const noName = await createAndDeploy(t, parent(childId, {}), 'Missing input');
    const res = await t.request('POST', `/api/workflows/${noName}/execute`, { body: {} });
    expect(res.status).toBe(500);
    expect(res.body.error).toContain('name is required');

    const draft = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'draft child', state: child() } });
    const toDraft = await createAndDeploy(t, parent(draft.body.data.id), 'To draft');
    const notDeployed = await t.request('POST', `/api/workflows/${toDraft}/execute`, { body: { who: 'x' } });
    expect(notDeployed.status).toBe(500);
    expect(notDeployed.body.error).toContain('not deployed');
  });

  it('refuses at deploy a chain that comes back to itself, and a workflow of another workspace', async () => {
    const a = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'A', state: child() } });
    const aId: string = a.body.data.id;
    const bId = await createAndDeploy(t, parent(aId), 'B runs A');
    // A now runs B, which runs A.
    await t.request('PATCH', `/api/v1/workflows/${aId}`, { body: { state: parent(bId) } });
    const cycle = await t.request('POST', `/api/v1/workflows/${aId}/deploy`);
    expect(cycle.status).toBe(400);
    expect(cycle.body.details[0].message).toContain('cycle');

    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Elsewhere' } });
    const foreign = await t.request('POST', '/api/v1/workflows', {
      apiKey: t.personalKey,
      body: { workspaceId: other.body.data.id, name: 'foreign', state: child() },
    });
    const caller = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'caller', state: parent(foreign.body.data.id) } });
    const refused = await t.request('POST', `/api/v1/workflows/${caller.body.data.id}/deploy`);
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].message).toContain('not a workflow of this workspace');
  });

  it('streams the child’s agent tokens as the workflow block’s chunks when selected', async () => {
    const llm = await startFakeLlmServer();
    try {
      llm.reply({ kind: 'stream', tokens: ['Hel', 'lo', '!'] });
      const agentChild = makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'ask', type: 'agent', name: 'Ask', config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.openAiBaseUrl, userPrompt: 'hi' } },
        ],
        [['start', 'ask']],
      );
      const childId = await createAndDeploy(t, agentChild, 'Agent child');
      const parentId = await createAndDeploy(
        t,
        makeState(
          [
            { id: 'start', type: 'api_trigger', name: 'API' },
            { id: 'sub', type: 'workflow', name: 'Sub', config: { workflowId: childId } },
          ],
          [['start', 'sub']],
        ),
        'Streaming parent',
      );
      const res = await t.request('POST', `/api/workflows/${parentId}/execute`, { body: { stream: true, selectedOutputs: ['Sub.content'] } });
      const chunks = parseSse(res.text).records.filter((r): r is { blockId: string; chunk: string } => typeof r === 'object' && r !== null && 'chunk' in r);
      expect(chunks).toEqual([
        { blockId: 'sub', chunk: 'Hel' },
        { blockId: 'sub', chunk: 'lo' },
        { blockId: 'sub', chunk: '!' },
      ]);
    } finally {
      await llm.close();
    }
  });

  it('a manual run of a draft runs the child’s draft', async () => {
    const draftChild = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'child draft', state: child() } });
    const draftParent = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'parent draft', state: parent(draftChild.body.data.id, { name: 'draft' }) },
    });
    const res = await t.request('POST', `/api/v1/workflows/${draftParent.body.data.id}/run?stream=false`, { body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.output.body.said).toBe('hello draft');
  });
});
