// Property-based fuzzing of every endpoint's input (DESIGN.md reliability): whatever a client sends — arbitrary JSON,
// wrong types, odd ids, hostile query strings — the answer is never a 5xx and every error has the SPEC body shape.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
let workflowId: string;
beforeAll(async () => {
  t = await startTestApp();
  workflowId = await createAndDeploy(
    t,
    makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'n', type: 'number' }, { name: 'f', type: 'files' }] } },
        { id: 'out', type: 'response', name: 'Out', config: { body: { n: '<api.n>' } } },
      ],
      [['start', 'out']],
    ),
  );
});
afterAll(async () => t?.close());

const idLike = fc.oneof(
  fc.constantFrom('wf_x', 'log_x', '..', '%2e%2e', 'a'.repeat(300), '0', '-1', 'null', "'; drop table users; --"),
  fc.string({ maxLength: 40 }),
);
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom('name', 'workspaceId', 'state', 'folderId', 'stream', 'selectedOutputs', 'n', 'f', 'variables', 'email', 'role', 'description', 'parentId'), fc.jsonValue({ maxDepth: 3 })),
);

function routes(id: string) {
  return [
    ['POST', '/api/v1/workflows'],
    ['PATCH', `/api/v1/workflows/${id}`],
    ['POST', `/api/v1/workflows/${id}/deploy`],
    ['POST', `/api/v1/workflows/${id}/deployments/${id}/activate`],
    ['POST', '/api/v1/folders'],
    ['PATCH', `/api/v1/folders/${id}`],
    ['POST', '/api/v1/workspaces'],
    ['POST', `/api/v1/workspaces/${id}/members`],
    ['PUT', `/api/v1/workspaces/${id}/env`],
    ['POST', '/api/v1/api-keys'],
    ['POST', `/api/workflows/${workflowId}/execute`],
    ['POST', `/api/workflows/${id}/execute`],
    ['GET', `/api/workflows/${id}/status`],
    ['GET', `/api/v1/workflows?workspaceId=${encodeURIComponent(id)}`],
    ['GET', `/api/v1/folders?workspaceId=${encodeURIComponent(id)}`],
  ] as const;
}

function assertWellFormed(status: number, text: string, label: string) {
  expect(status, `${label} → ${status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  if (status >= 400) {
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(typeof body.error, label).toBe('string');
    expect(typeof body.code, label).toBe('string');
    expect(text, label).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  }
}

describe('fuzzing every endpoint', () => {
  it('never answers arbitrary JSON with a 5xx or a malformed error', async () => {
    await fc.assert(
      fc.asyncProperty(idLike, jsonBody, fc.nat({ max: 14 }), async (id, body, which) => {
        const [method, path] = routes(encodeURIComponent(id))[which];
        const res = await t.request(method, path, method === 'GET' ? {} : { body });
        assertWellFormed(res.status, res.text, `${method} ${path} ${JSON.stringify(body).slice(0, 200)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('never answers raw non-JSON bytes with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.nat({ max: 14 }), async (raw, which) => {
        const [method, path] = routes('wf_nope')[which];
        if (method === 'GET') return;
        const res = await t.request(method, path, { rawBody: raw, headers: { 'content-type': 'application/json' } });
        assertWellFormed(res.status, res.text, `${method} ${path} raw ${JSON.stringify(raw)}`);
      }),
      { numRuns: 150 },
    );
  });

  it('never answers arbitrary workflow states with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (state) => {
        const res = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'fuzz', state } });
        assertWellFormed(res.status, res.text, `state ${JSON.stringify(state).slice(0, 200)}`);
      }),
      { numRuns: 150 },
    );
  });
});
