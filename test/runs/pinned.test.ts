// Pinned data (docs/workflows.md "Pinned data", issue 24 item 7): a manual run of the draft uses a pinned block's
// output instead of running it — the upstream it would call sees nothing — while a deployed run of the same workflow
// ignores the pin and calls the upstream. Counted with a real local upstream; driven through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';

let t: TestApp;
let upstream: FakeUpstream;

beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
  upstream = await startUpstream((_req, res, recorded) => json(res, 200, { live: true, path: new URL(recorded.url, 'http://u').pathname }));
});
afterAll(async () => {
  await upstream?.close();
  await t?.close();
});

const calls = (path: string) => upstream.requests.filter((r) => new URL(r.url, 'http://u').pathname === path).length;

/** API → POST /orders → a function that reports what the order block answered. */
const orderState = () =>
  makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [] } },
      { id: 'order', type: 'api', name: 'Create order', config: { url: `${upstream.url}/orders`, method: 'POST', retries: 0 } },
      { id: 'out', type: 'function', name: 'Out', config: { code: 'return { got: <createorder.data> };' } },
    ],
    [
      ['start', 'order'],
      ['order', 'out'],
    ],
  );

const pinnedOrder = { status: 200, data: { pinned: true }, headers: {} };

async function saveDraft(workflowId: string, state: unknown) {
  return t.request('PATCH', `/api/v1/workflows/${workflowId}`, { body: { state } });
}

describe('pinned data', () => {
  it('a manual run uses the pin (no upstream call); a deployed run of the same workflow ignores it and calls the upstream', async () => {
    const wf = await createAndDeploy(t, orderState());
    const saved = await saveDraft(wf, { ...orderState(), pinned: { order: pinnedOrder } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.state.pinned).toEqual({ order: pinnedOrder });
    // Pinning is not a change to deploy.
    const status = await t.request('GET', `/api/workflows/${wf}/status`);
    expect(status.body.needsRedeployment, status.text).toBe(false);

    const before = calls('/orders');
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`, { body: {} });
    expect(manual.status, manual.text).toBe(200);
    expect(manual.body.output).toMatchObject({ result: { got: { pinned: true } } });
    expect(calls('/orders')).toBe(before);

    // Deploying the pinned draft deploys no pin: the deployed run calls the upstream.
    expect((await t.request('POST', `/api/v1/workflows/${wf}/deploy`)).status).toBe(200);
    const deployed = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(deployed.status, deployed.text).toBe(200);
    expect(deployed.body.output).toMatchObject({ result: { got: { live: true, path: '/orders' } } });
    expect(calls('/orders')).toBe(before + 1);

    // Unpinned, the manual run calls it too.
    expect((await saveDraft(wf, orderState())).status).toBe(200);
    const live = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`, { body: {} });
    expect(live.body.output).toMatchObject({ result: { got: { live: true, path: '/orders' } } });
    expect(calls('/orders')).toBe(before + 2);
  });

  it('a re-run of a manual run from a later block keeps using the pin', async () => {
    const wf = await createAndDeploy(t, orderState());
    expect((await saveDraft(wf, { ...orderState(), pinned: { order: pinnedOrder } })).status).toBe(200);
    const before = calls('/orders');
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`, { body: {} });
    expect(manual.status, manual.text).toBe(200);
    const again = await t.request('POST', `/api/v1/executions/${manual.body.executionId}/rerun`, { body: { fromBlock: 'order' } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.output).toMatchObject({ result: { got: { pinned: true } } });
    expect(calls('/orders')).toBe(before);
    expect(await logDetailOf(t, again.body.executionId)).toMatchObject({ trigger: 'manual', rerunOf: manual.body.executionId, rerunFromBlock: 'order' });
  });

  it('"Run from here": a re-run on the draft runs the block as it is now, replaying what came before it', async () => {
    const wf = await createAndDeploy(t, orderState());
    const manual = await t.request('POST', `/api/v1/workflows/${wf}/run?stream=false`, { body: {} });
    expect(manual.status, manual.text).toBe(200);
    const before = calls('/orders');
    const edited = orderState();
    edited.blocks.out.config = { code: 'return { edited: true, got: <createorder.data> };' };
    expect((await saveDraft(wf, edited)).status).toBe(200);

    const original = await t.request('POST', `/api/v1/executions/${manual.body.executionId}/rerun`, { body: { fromBlock: 'out' } });
    expect(original.body.output.result).toEqual({ got: { live: true, path: '/orders' } }); // the draft that ran
    const draft = await t.request('POST', `/api/v1/executions/${manual.body.executionId}/rerun`, { body: { fromBlock: 'out', deployment: 'draft' } });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.output.result).toEqual({ edited: true, got: { live: true, path: '/orders' } });
    expect(calls('/orders')).toBe(before);

    const unknown = await t.request('POST', `/api/v1/executions/${manual.body.executionId}/rerun`, { body: { fromBlock: 'Nope', deployment: 'draft' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Block "Nope" does not exist in the draft');
    const queued = await t.request('POST', `/api/v1/executions/${manual.body.executionId}/rerun`, { body: { deployment: 'draft', mode: 'async' } });
    expect(queued.status).toBe(400);
    expect(queued.body.details).toContainEqual({ path: 'mode', message: 'must be "sync" with deployment "draft"' });
  });

  it('refuses a pin on a block that does not exist, or one that is not an output, naming it', async () => {
    const wf = await createAndDeploy(t, orderState());
    const missing = await saveDraft(wf, { ...orderState(), pinned: { gone: { x: 1 } } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toContainEqual({
      path: 'state.pinned.gone',
      message: 'pins the output of block "gone", which does not exist; unpin it or add the block',
    });
    const notObject = await saveDraft(wf, { ...orderState(), pinned: { order: 'text' } });
    expect(notObject.status).toBe(400);
    expect(notObject.body.details).toContainEqual({ path: 'state.pinned.order', message: 'must be an object (a block output)' });
  });

  it('leaves pins out of an export', async () => {
    const wf = await createAndDeploy(t, orderState());
    expect((await saveDraft(wf, { ...orderState(), pinned: { order: pinnedOrder } })).status).toBe(200);
    const exported = await t.request('GET', `/api/v1/workflows/${wf}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.data.state.pinned).toBeUndefined();
  });
});
