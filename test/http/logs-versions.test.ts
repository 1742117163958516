// Deployment versions on logs, all through the HTTP API: runs of two deployments, a roll-back and a manual run of
// the draft; every log says which version ran (null for the draft), and `deploymentVersion=` filters by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { makeState } from '../support/workflows.js';

let t: TestApp;
let workflowId = '';
let otherWorkflowId = '';
/** Execution ids by the version that ran them; `draft` for the manual run. */
const runs: Record<'v1' | 'v2' | 'draft' | 'other', string[]> = { v1: [], v2: [], draft: [], other: [] };

const stateSaying = (word: string) =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      // No function block: runs here need no sandbox thread, so a loaded machine cannot time them out.
      { id: 'say', type: 'variables', name: 'Say', config: { assignments: [{ name: 'word', value: word }] } },
    ],
    [['start', 'say']],
  );

async function execute(id: string): Promise<string> {
  const res = await t.request('POST', `/api/workflows/${id}/execute`, { body: {} });
  expect(res.status, res.text).toBe(200);
  return res.body.executionId;
}

async function deploy(id: string): Promise<number> {
  const res = await t.request('POST', `/api/v1/workflows/${id}/deploy`);
  expect(res.status, res.text).toBe(200);
  return res.body.version;
}

const list = (query: string) => t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&${query}`);
const executionIds = (body: { data: Array<{ executionId: string }> }) => body.data.map((l) => l.executionId).sort();

beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Versioned', state: stateSaying('one') } });
  expect(created.status).toBe(201);
  workflowId = created.body.data.id;
  const other = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'Other', state: stateSaying('other') } });
  otherWorkflowId = other.body.data.id;

  expect(await deploy(workflowId)).toBe(1);
  runs.v1.push(await execute(workflowId), await execute(workflowId));
  expect((await t.request('PATCH', `/api/v1/workflows/${workflowId}`, { body: { state: stateSaying('two') } })).status).toBe(200);
  expect(await deploy(workflowId)).toBe(2);
  runs.v2.push(await execute(workflowId));
  const manual = await t.request('POST', `/api/v1/workflows/${workflowId}/run?stream=false`);
  expect(manual.status, manual.text).toBe(200);
  runs.draft.push(manual.body.executionId);
  // Rolling back makes version 1 run again: its later runs are logged under 1, not under a new number.
  expect((await t.request('POST', `/api/v1/workflows/${workflowId}/deployments/1/activate`)).status).toBe(200);
  runs.v1.push(await execute(workflowId));
  expect(await deploy(otherWorkflowId)).toBe(1);
  runs.other.push(await execute(otherWorkflowId));

  const total = Object.values(runs).flat().length;
  // Ascending reads only show runs that started more than a moment ago (the visibility horizon); wait for all.
  await eventually(async () => ((await list('limit=1000&order=asc')).body.data.length === total ? true : undefined), 10_000, 'every run visible');
}, 60_000);
afterAll(async () => t?.close());

describe('deploymentVersion on logs', () => {
  it('is on every log entry: the version that ran, null for the manual run of the draft', async () => {
    const res = await list(`workflowIds=${workflowId}`);
    expect(res.status).toBe(200);
    const byExecution = Object.fromEntries(res.body.data.map((l: { executionId: string; deploymentVersion: unknown }) => [l.executionId, l.deploymentVersion]));
    expect(byExecution).toEqual({
      ...Object.fromEntries(runs.v1.map((id) => [id, 1])),
      ...Object.fromEntries(runs.v2.map((id) => [id, 2])),
      [runs.draft[0]!]: null,
    });
  });

  it('is in the log detail and in the execution detail’s metadata', async () => {
    const [v2] = runs.v2;
    const execution = await t.request('GET', `/api/v1/logs/executions/${v2}`);
    expect(execution.status).toBe(200);
    expect(execution.body.executionMetadata.deploymentVersion).toBe(2);
    // The execution detail shows the state of version 2, which the version number names.
    expect(execution.body.workflowState.blocks.say.config.assignments).toEqual([{ name: 'word', value: 'two' }]);

    const [entry] = (await list(`executionId=${runs.draft[0]}`)).body.data;
    const detail = await t.request('GET', `/api/v1/logs/${entry.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ executionId: runs.draft[0], trigger: 'manual', deploymentVersion: null });
  });

  it('filters by version, alone and with other filters, in both orders', async () => {
    const cases: Array<[string, string[]]> = [
      [`deploymentVersion=1&workflowIds=${workflowId}`, runs.v1],
      [`deploymentVersion=2`, runs.v2],
      // Version numbers count per workflow: version 1 of every workflow.
      [`deploymentVersion=1`, [...runs.v1, ...runs.other]],
      [`deploymentVersion=null`, runs.draft],
      [`deploymentVersion=2&triggers=manual`, []],
      [`deploymentVersion=3`, []],
      [`deploymentVersion=%201%20&workflowIds=${otherWorkflowId}`, runs.other],
    ];
    for (const [query, expected] of cases) {
      for (const order of ['desc', 'asc']) {
        const res = await list(`${query}&order=${order}`);
        expect(res.status, `${query}: ${res.text}`).toBe(200);
        expect(executionIds(res.body), query).toEqual([...expected].sort());
      }
    }
  });

  it('keeps a filtered walk in one version across pages', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await list(`deploymentVersion=1&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((l: { executionId: string; deploymentVersion: number }) => {
        expect(l.deploymentVersion).toBe(1);
        return l.executionId;
      }));
      if (!res.body.nextCursor) break;
      cursor = res.body.nextCursor;
    }
    expect(seen.sort()).toEqual([...runs.v1, ...runs.other].sort());
  });

  it.each(['0', '-1', '1.5', 'v1', '', 'NULL', 'none', '1,2', '99999999'])('refuses deploymentVersion=%s with 400 naming it', async (value) => {
    const res = await list(`deploymentVersion=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('deploymentVersion');
    expect(res.body.details.find((d: { path: string }) => d.path === 'deploymentVersion').message).toMatch(/deployment version .* or null/);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await t.request('GET', '/api/openapi.json', { apiKey: null });
    expect(doc.status).toBe(200);
    const parameters = doc.body.paths['/api/v1/logs'].get.parameters as Array<{ name: string; in: string }>;
    expect(parameters).toContainEqual(expect.objectContaining({ name: 'deploymentVersion', in: 'query' }));
  });
});
