// The editor's Run under the draft's throttle (docs/workflows.md "Flow control"): a Run over the rate is refused like
// a sync call, and the Run panel says why — the server's message with its code — rather than a bare failure.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;

beforeAll(() => {
  page = app.page;
});

describe("the editor's Run over the throttle", { timeout: 150_000 }, () => {
  it('shows 429 THROTTLED with its message in the Run panel', withFailureShot('failure-editor-run-throttled', journey));
});

async function journey() {
  await signedIn();
  const workspaceId = ((await keyApi('/api/v1/workspaces')).body.data as Array<{ id: string }>)[0].id;
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Throttled draft',
      state: {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } },
          answer: { id: 'answer', type: 'response', name: 'Answer', position: { x: 260, y: 0 }, enabled: true, config: { body: { ok: true } } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'answer' }],
        loops: {},
        parallels: {},
        flowControl: { throttle: { limit: 1, periodMs: 3_600_000 } },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await page.goto(`${app.url}/workflows/${(created.body.data as { id: string }).id}`);
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=success]').waitFor();
  await page.getByTestId('run-button').click();
  await page.locator('[data-testid=run-panel][data-status=error]').waitFor();
  const text = await page.getByTestId('run-panel').textContent();
  expect(text).toContain('Throttled: 1 run per 3600000 ms for this key have started; try again in');
  expect(text).toContain('(THROTTLED)');
}
