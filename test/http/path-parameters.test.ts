// Path parameters the handlers pass to the database (found by test/fuzz/paths-and-queries.test.ts): an API key id,
// a member's user id or a variable name holding NUL (`%00`) reached PostgreSQL, which cannot store NUL in text, and
// the request failed with 500. They are now checked like every other id: 400 naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { id, isId } from '../../src/http/schemas.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let workspaceId: string;
beforeAll(async () => {
  t = await startTestApp();
  const created = await t.request('POST', '/api/v1/workspaces', { body: { name: 'Second' }, apiKey: t.personalKey });
  workspaceId = created.body.data.id;
});
afterAll(async () => t?.close());

describe('path parameters that are not ids', () => {
  const cases = [
    { path: '/api/v1/api-keys/%00', param: 'keyId' },
    { path: '/api/v1/api-keys/a%2Fb', param: 'keyId' },
    { path: '/api/v1/workspaces/<ws>/members/%00', param: 'userId' },
    { path: `/api/v1/workspaces/<ws>/members/${'u'.repeat(65)}`, param: 'userId' },
    { path: '/api/v1/workspaces/<ws>/env/%00', param: 'name' },
    { path: '/api/v1/workspaces/<ws>/env/not-a-name', param: 'name' },
  ];
  for (const { path, param } of cases) {
    it(`DELETE ${path.slice(0, 60)}: 400 VALIDATION_ERROR naming ${param}`, async () => {
      const res = await t.request('DELETE', path.replace('<ws>', workspaceId), { apiKey: t.personalKey });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: param, message: expect.any(String) }] });
    });
  }

  it('well-formed ids of nothing are still 404', async () => {
    for (const path of ['/api/v1/api-keys/key_nope', `/api/v1/workspaces/${workspaceId}/members/usr_nope`, `/api/v1/workspaces/${workspaceId}/env/NOPE`]) {
      const res = await t.request('DELETE', path, { apiKey: t.personalKey });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('the plain id test the routes use first', () => {
  it('accepts exactly what the id schema accepts', () => {
    const samples = ['', 'a', 'wf_AbC-09', 'x'.repeat(64), 'x'.repeat(65), 'a b', 'a/b', 'a\0', 'é', 'a.b', '-_', 'ab\n', undefined, 42];
    for (const value of samples) expect(isId(value), JSON.stringify(value)).toBe(id.safeParse(value).success);
  });
});
