// POST /api/v1/workflows/{workflowId}/run — the editor's Run button (README "Other triggers",
// triggers/manual.ts). Answers with Server-Sent Events of every block's progress, or JSON (see wantsJson).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { doneRecord } from '../../runs/index.js';
import { manualAnswer, manualRunBody, prepareManualRun, runManual, type ManualRunBody } from '../../triggers/manual.js';
import { requireApiKey } from '../auth.js';
import { parseJsonRequestBody, readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { clientGoneSignal } from '../node-bindings.js';
import { operation } from '../operation.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';
import { streamRun } from '../sse.js';
import { parseId, parseWith } from '../validation.js';

/** Authenticates unless an enclosing guard already did (the /workflows guard covers these paths too). */
const authenticated = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('principal')) return next();
  return requireApiKey(c, next);
});

/** The body is optional: an empty one runs with the Input Format values. */
async function readManualBody(c: Context<AppEnv>): Promise<ManualRunBody> {
  const bytes = await readBodyLimited(c, c.get('app').config.maxRequestBytes);
  if (!bytes.toString('utf8').trim()) return {};
  return parseWith(manualRunBody, parseJsonRequestBody(bytes), 'request body');
}

/**
 * SSE is the default (the editor follows progress); `?stream=false`, or an Accept header that asks for JSON and not
 * for an event stream, gets one JSON answer at the end instead.
 */
function wantsJson(c: Context): boolean {
  if (c.req.query('stream') === 'false') return true;
  const accept = c.req.header('accept')?.toLowerCase() ?? '';
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

/** Read one parameter at a time (wantsJson); the schema describes it. */
const manualRunQuery = z.object({
  stream: z.enum(['true', 'false']).optional().describe('false answers one JSON body at the end instead of SSE progress'),
});

const manualRun = operation({
  method: 'post',
  path: '/{workflowId}/run',
  middleware: authenticated,
  summary: 'Manual run of the draft with the Input Format values (SSE progress unless ?stream=false)',
  body: manualRunBody,
  query: manualRunQuery,
  run: 'manual',
  response: 'ExecuteResult',
  events: 'a RunProgress (#/components/schemas/RunProgress) per engine event, then a StreamDone with the executionId',
  conflict: "A run of the draft's singleton key is in flight (ALREADY_RUNNING: flow control's skip)",
  more: { 500: { description: 'The run failed (?stream=false)', schema: 'ExecuteFailure' } },
});

export const manualRunRoutes = new OpenAPIHono<AppEnv>().openapi(manualRun, async (c) => {
  const app = c.get('app');
  const run = await prepareManualRun(app, {
    principal: c.get('principal'),
    workflowId: parseId(c.req.param('workflowId'), 'workflow id', 'workflowId'),
    readBody: () => readManualBody(c),
    origin: runOrigin(c),
  });
  if (wantsJson(c)) {
    return sendResponse(c, manualAnswer(await runManual(app, run, { signal: clientGoneSignal(c) })), run.headers);
  }
  return streamRun(c, { headers: run.headers, keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
    const outcome = await runManual(app, run, { signal, onProgress: send });
    return doneRecord(outcome, { executionId: outcome.executionId });
  });
});
