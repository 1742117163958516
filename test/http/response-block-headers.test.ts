// Response block headers through the execute endpoint (found by test/fuzz/endpoints.test.ts): a header name or value
// HTTP cannot carry used to make the answer throw after the run was logged as a success, so the caller got 500
// INTERNAL_ERROR for a run its log called fine. Now the block fails with a message naming the header, and framing
// headers a workflow forwards from an upstream response cannot corrupt the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited' });
});
afterAll(async () => t?.close());

const respondWith = (headers: unknown, body: unknown = { ok: true }) =>
  createAndDeploy(
    t,
    makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
        { id: 'out', type: 'response', name: 'Out', config: { status: 200, headers, body } },
      ],
      [['start', 'out']],
    ),
  );

async function levelOf(executionId: string) {
  return eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
    return res.body.data?.[0]?.level as string | undefined;
  }, 10_000, `the log of ${executionId}`);
}

describe('response block headers', () => {
  it('a caller-supplied value with a line break: 500 EXECUTION_FAILED naming the header, logged as an error', async () => {
    const wf = await respondWith([{ key: 'X-Echo', value: '<api.q>' }]);
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { q: 'a\r\nSet-Cookie: session=stolen' } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'EXECUTION_FAILED', error: expect.stringContaining('X-Echo') });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await levelOf(res.body.executionId)).toBe('error');

    const fine = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { q: 'plain' } });
    expect(fine.status).toBe(200);
    expect(fine.headers.get('x-echo')).toBe('plain');
  });

  it('a name that is not an HTTP token, a value beyond Latin-1: 500 EXECUTION_FAILED, not INTERNAL_ERROR', async () => {
    for (const headers of [{ 'bad name': 'x' }, { 'X-Emoji': '😀' }]) {
      const wf = await respondWith(headers);
      const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
      expect(res.status, JSON.stringify(headers)).toBe(500);
      expect(res.body.code).toBe('EXECUTION_FAILED');
    }
  });

  it('framing headers from the workflow are left out: the body arrives whole', async () => {
    const body = { text: 'longer than three bytes' };
    const wf = await respondWith({ 'Content-Length': '3', 'Transfer-Encoding': 'gzip', Connection: 'upgrade', 'X-Kept': 'yes' }, body);
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
    expect(res.headers.get('x-kept')).toBe('yes');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
  });
});
