// Reading a JSON request body costs time linear in its size, whatever its shape (issue 21, item 1). The scan for long
// string values (src/services/files/json-bytes.ts) used to search for the closing quote again after every backslash:
// a 3 MB body of `\n` escapes held the event loop for 25 s, and every other request of the server waited with it.
// The same reading path serves the API trigger, the manual run and public chats (no key needed).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
let workflowId: string;
beforeAll(async () => {
  t = await startTestApp();
  // `q` must be a number: the body is read and parsed whole, then refused, so what is timed is the reading alone
  // (not the run and its multi-MB log, whose cost has nothing to do with escapes).
  workflowId = await createAndDeploy(
    t,
    makeState(
      [
        { id: 'start', type: 'api_trigger', config: { inputFormat: [{ name: 'q', type: 'number' }] } },
        { id: 'respond', type: 'response', config: { status: 200, body: { ok: true } } },
      ],
      [['start', 'respond']],
    ),
  );
  // The first call of a process compiles the route's code and warms the database; that one-off is not about bodies.
  await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: { q: 1 } });
});
afterAll(async () => t?.close());

/**
 * The longest time the event loop was held while `work` ran, in ms. The test app serves in this process, so this is
 * also the longest any other client of the server (a /health probe, another run) would have waited.
 */
async function longestStallDuring<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  try {
    const result = await work();
    return { result, stallMs: delays.max / 1e6 };
  } finally {
    delays.disable();
  }
}

/**
 * A generous behaviour bound: a linear read of 4 MB holds the loop for tens of ms on a quiet machine (a few hundred
 * when two cores are shared by many test workers); the quadratic one held it for 40 s and more.
 */
const MAX_STALL_MS = 2_000;
const BODY_BYTES = 4 * 1024 * 1024;

/** A string literal of `escape` repeated to fill a ~4 MB body: every one of them used to restart the quote search. */
const escapeRun = (escape: string) => `{"q":"${escape.repeat(Math.floor(BODY_BYTES / escape.length))}"}`;

describe('a 4 MB escape-heavy JSON body through the execute endpoint', () => {
  it.each([
    ['newline escapes (\\n)', escapeRun('\\n')],
    ['unicode escapes (\\u00e9)', escapeRun('\\u00e9')],
    ['escaped backslashes (\\\\)', escapeRun('\\\\')],
  ])('of %s is read without holding the event loop, and answered', async (_, rawBody) => {
    const { result: res, stallMs } = await longestStallDuring(() =>
      t.request('POST', `/api/workflows/${workflowId}/execute`, { rawBody, headers: { 'content-type': 'application/json' } }),
    );
    // The Input Format's verdict on the parsed value: the body was read and understood, not cut short.
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'q', message: 'must be a number, got a string' }] });
    expect(stallMs).toBeLessThan(MAX_STALL_MS);
  }, 300_000);
});

it('a 4 MB escape-heavy message to a public chat (no key needed) is read without holding the event loop', async () => {
  const chatWorkflow = await createAndDeploy(
    t,
    makeState(
      [
        { id: 'chat', type: 'chat_trigger', name: 'Chat' },
        { id: 'reply', type: 'function', name: 'Reply', config: { code: 'return 1;' } },
      ],
      [['chat', 'reply']],
    ),
  );
  expect((await t.request('PATCH', `/api/v1/workflows/${chatWorkflow}`, { body: { chatPublic: true } })).status).toBe(200);
  const rawBody = `{"message":"${'\\n'.repeat(BODY_BYTES / 2)}"}`;
  const { result: res, stallMs } = await longestStallDuring(() =>
    t.request('POST', `/api/chat/${chatWorkflow}`, { rawBody, apiKey: null, headers: { 'content-type': 'application/json' } }),
  );
  // Parsed whole, then refused by the chat's own limit on a message's length.
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'message' }] });
  expect(stallMs).toBeLessThan(MAX_STALL_MS);
}, 300_000);
