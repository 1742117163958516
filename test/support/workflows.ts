// Building and deploying workflows through the real API, for tests that then call them.
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { eventually } from './eventually.js';

type BlockSpec = { id: string; type: string; name?: string; config?: Record<string, unknown>; parentId?: string };

/** A state from a list of blocks and [source, target, handle?] edges. */
export function makeState(blocks: BlockSpec[], edges: Array<[string, string, string?]> = []) {
  return {
    blocks: Object.fromEntries(
      blocks.map((b, i) => [
        b.id,
        { id: b.id, type: b.type, name: b.name ?? b.id, position: { x: i * 200, y: 0 }, enabled: true, config: b.config ?? {}, ...(b.parentId ? { parentId: b.parentId } : {}) },
      ]),
    ),
    edges: edges.map(([source, target, sourceHandle], i) => ({ id: `e${i}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) })),
    loops: {},
    parallels: {},
  };
}

/** Creates and deploys a workflow: in the test app's workspace with its key, or where `as` says. */
export async function createAndDeploy(
  t: TestApp,
  state: unknown,
  name = 'Test workflow',
  as: { workspaceId?: string; apiKey?: string } = {},
): Promise<string> {
  const apiKey = as.apiKey;
  const created = await t.request('POST', '/api/v1/workflows', { apiKey, body: { workspaceId: as.workspaceId ?? t.workspaceId, name, state } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const deployed = await t.request('POST', `/api/v1/workflows/${created.body.data.id}/deploy`, { apiKey });
  expect(deployed.status).toBe(200);
  return created.body.data.id;
}

/** Parses an SSE body into its `data:` payloads (JSON where it parses, else the raw text) and comment lines. */
export function parseSse(text: string): { records: unknown[]; comments: string[] } {
  const records: unknown[] = [];
  const comments: string[] = [];
  for (const event of text.split('\n\n')) {
    for (const line of event.split('\n')) {
      if (line.startsWith(':')) comments.push(line);
      else if (line.startsWith('data: ')) {
        const payload = line.slice(6);
        try {
          records.push(JSON.parse(payload));
        } catch {
          records.push(payload);
        }
      }
    }
  }
  return { records, comments };
}

export { eventually };

/** The detail of an execution's log, once the run has completed (polled through the logs API, as a client would). */
export async function logDetailOf(t: TestApp, executionId: string, timeoutMs = 15_000) {
  const entry = await eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
    return res.body.data?.length === 1 ? res.body.data[0] : undefined;
  }, timeoutMs, 'the log');
  return (await t.request('GET', `/api/v1/logs/${entry.id}`)).body.data;
}
