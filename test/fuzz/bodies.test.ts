// Every route that reads a body, given each hostile body of inputs.ts, each content type, and a body over its limit,
// always aimed at an existing resource so the body is really read. Each answer must have the fuzz properties
// (checks.ts); some cases have a precise answer: nesting deeper than the limit is 400 VALIDATION_ERROR, a body over
// the limit is 413 PAYLOAD_TOO_LARGE, and an error that merely says "timed out" is 500 EXECUTION_FAILED, never 408.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/json-nesting.js';
import { parseSse } from '../support/workflows.js';
import { assertEveryRunLogged, assertStillServing, fuzzRequest, RunLedger, sendChecked } from './support/checks.js';
import { startFuzzFixture, type FuzzFixture } from './support/fixture.js';
import { CONTENT_TYPES, RAW_BODIES } from './support/inputs.js';
import { aimedRequest, jsonOfSize } from './support/requests.js';
import { JSON_ROUTES, MANAGEMENT_LIMIT, picksOf, type FuzzRoute } from './support/routes.js';

let f: FuzzFixture;
const ledger = new RunLedger();
/** Generous: the machine is shared, and a property's many requests slow down with it (no timing is asserted). */
const SLOW_TEST_MS = 180_000;
beforeAll(async () => {
  f = await startFuzzFixture('bodies');
});
afterAll(async () => f?.close());

const label = (route: FuzzRoute) => `${route.method} ${route.pattern}`;
const AUTH_ROUTES = new Set(['/api/v1/auth/sign-in', '/api/v1/auth/sign-up']);

describe('hostile bodies on every route that reads one', () => {
  for (const route of JSON_ROUTES) {
    it(`${label(route)}: each hostile body`, async () => {
      for (const pick of picksOf(route)) {
        // The unmodified request first: it must be answered by the handler, not refused on the way there.
        const valid = await fuzzRequest(f, ledger, aimedRequest(f, route, { pick }));
        // Sign-in with an unknown password, first-run setup on a server that already has an owner, and a decision for a
        // run that is not waiting are refused by the handler itself: that is as far as a request to them can get.
        if (route.pattern === '/api/v1/auth/sign-in') expect(valid.status, valid.text).toBe(401);
        else if (route.pattern === '/api/v1/auth/setup') expect([403, 409], valid.text).toContain(valid.status);
        else if (route.pattern === '/api/v1/executions/:executionId/resume') expect((valid.json as { code?: string })?.code, valid.text).toBe('EXECUTION_NOT_PAUSED');
        else expect(valid.status, `${label(route)} valid request: ${valid.text}`).toBeLessThan(300);

        for (const [name, body] of Object.entries(RAW_BODIES)) {
          const res = await sendChecked(f, ledger, aimedRequest(f, route, { pick, body }));
          if (name.startsWith('nested 10,000')) {
            const overLimit = Buffer.byteLength(body) > route.bodyLimit!;
            const expected = overLimit ? [413, 'PAYLOAD_TOO_LARGE'] : [400, 'VALIDATION_ERROR'];
            expect([res.status, (res.json as { code?: string })?.code], `${label(route)} ${name}: ${res.text}`).toEqual(expected);
            if (!overLimit) expect((res.json as { error: string }).error).toContain(String(MAX_JSON_DEPTH));
          }
        }
      }
      await assertStillServing(f, label(route));
    });
  }
});

describe('bodies over the limit', () => {
  for (const route of JSON_ROUTES) {
    it(`${label(route)}: 413 PAYLOAD_TOO_LARGE, declared or chunked`, async () => {
      const body = jsonOfSize(route.bodyLimit! + 1);
      for (const chunked of [false, true]) {
        const res = await fuzzRequest(f, ledger, aimedRequest(f, route, { body, chunked }));
        expect([res.status, (res.json as { code?: string })?.code], `${label(route)} chunked=${chunked}`).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      }
      // Exactly at the limit is not refused for its size (the routes under the management limit share one middleware:
      // the first of them stands for all, as parsing 5 MB is the slowest thing here).
      if (route.bodyLimit === MANAGEMENT_LIMIT && route !== JSON_ROUTES.find((r) => r.bodyLimit === MANAGEMENT_LIMIT)) return;
      const atLimit = await fuzzRequest(f, ledger, aimedRequest(f, route, { body: jsonOfSize(route.bodyLimit!) }));
      expect(atLimit.status, `${label(route)} at the limit: ${atLimit.text}`).not.toBe(413);
    });
  }
});

describe('content types', () => {
  for (const route of JSON_ROUTES) {
    it(`${label(route)}: every content type`, async () => {
      for (const contentType of CONTENT_TYPES) {
        for (const pick of picksOf(route)) {
          const res = await sendChecked(f, ledger, aimedRequest(f, route, { pick, contentType: contentType ?? null }));
          // Sign-in and sign-up take JSON only (login CSRF): anything else is 415 before the body is read.
          if (AUTH_ROUTES.has(route.pattern) && !/^application\/json\b/i.test(contentType ?? '')) {
            expect([res.status, (res.json as { code?: string })?.code], `${label(route)} ${contentType}`).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
          }
        }
      }
      await assertStillServing(f, label(route));
    });
  }
});

describe('errors that say "timed out" are failures, not time-outs', () => {
  const isExecutionFailed = (res: { status: number; json: unknown }) => {
    const body = res.json as { code?: string; error?: string };
    return res.status === 500 && body.code === 'EXECUTION_FAILED' && body.error?.includes('timed out') === true;
  };

  it('execute, chat, webhook and manual runs of a failing workflow: 500 EXECUTION_FAILED, or a failed done record', async () => {
    const json = { 'content-type': 'application/json', ...f.auth.personalKey };
    const cases = [
      { method: 'POST', path: `/api/workflows/${f.failing.workflowId}/execute`, headers: json, body: '{}' },
      { method: 'POST', path: `/api/chat/${f.failing.chatId}`, headers: json, body: '{"message":"hi","stream":false}' },
      { method: 'POST', path: `/api/webhooks/trigger/${f.failing.hookPath}`, headers: { 'content-type': 'application/json' }, body: '{}' },
      { method: 'POST', path: `/api/v1/workflows/${f.failing.workflowId}/run?stream=false`, headers: json, body: '{}' },
    ];
    for (const req of cases) {
      const res = await fuzzRequest(f, ledger, req, { runMayFail: true });
      expect(isExecutionFailed(res), `${req.path}: ${res.status} ${res.text}`).toBe(true);
    }
    const streams = [
      { method: 'POST', path: `/api/workflows/${f.failing.workflowId}/execute`, headers: json, body: '{"stream":true}' },
      { method: 'POST', path: `/api/chat/${f.failing.chatId}`, headers: json, body: '{"message":"hi"}' },
      { method: 'POST', path: `/api/v1/workflows/${f.failing.workflowId}/run`, headers: json, body: '{}' },
    ];
    for (const req of streams) {
      const res = await fuzzRequest(f, ledger, req, { runMayFail: true });
      const done = parseSse(res.text).records.find((r) => (r as { event?: string }).event === 'done') as { success: boolean; error: string };
      expect([res.status, done.success, done.error.includes('timed out')], `${req.path}: ${res.text}`).toEqual([200, false, true]);
    }
  });

  it('an async run of it: the job fails with that message and its log says error', async () => {
    const res = await fuzzRequest(f, ledger, {
      method: 'POST',
      path: `/api/workflows/${f.failing.workflowId}/execute`,
      headers: { 'content-type': 'application/json', 'x-execution-mode': 'async', ...f.auth.personalKey },
      body: '{}',
    });
    expect(res.status).toBe(202);
    const { taskId } = res.json as { taskId: string };
    const { eventually } = await import('../support/eventually.js');
    const job = await eventually(async () => {
      const status = await f.client.send({ method: 'GET', path: `/api/jobs/${taskId}`, headers: f.auth.personalKey });
      const body = status.json as { status: string; error?: string };
      return ['completed', 'failed'].includes(body.status) ? body : undefined;
    }, 15_000, 'the async job');
    expect(job.status).toBe('failed');
    expect(job.error).toContain('timed out');
  });
});

describe('afterwards', () => {
  it('every run answered with an execution id has exactly one log, and none is left running', async () => {
    expect(ledger.executionIds.size).toBeGreaterThan(20);
    await assertEveryRunLogged(f, ledger);
  }, SLOW_TEST_MS);
});
