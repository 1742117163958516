// The checked-in generated types are what openapi-typescript makes of the document a running server serves now: a
// route schema changed without `npm run client:generate` fails here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { generateTypes } from '../scripts/generate-types.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('generated client types', () => {
  it('match GET /api/openapi.json', async () => {
    const document = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as unknown;
    const checkedIn = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
    expect(await generateTypes(document), 'run `npm run client:generate` and commit the result').toBe(checkedIn);
  });
});
