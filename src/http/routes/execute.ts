// POST /api/workflows/{workflowId}/execute — the API trigger (docs/api.md 4). The route parses the
// request and shapes the answer; services/triggers/api.ts decides everything else.
import { Hono } from 'hono';
import { doneRecord, REPLAYED_HEADER, syncAnswer } from '../../runs/index.js';
import { enqueueApiCall, prepareApiCall, runApiCall } from '../../triggers/api.js';
import { requireApiKey } from '../auth.js';
import { readJsonBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';
import { id } from '../schemas.js';
import { streamRun } from '../sse.js';
import { parseWith } from '../validation.js';

export const executeRoutes = new Hono<AppEnv>().post('/:workflowId/execute', requireApiKey, async (c) => {
  const app = c.get('app');
  const call = await prepareApiCall(app, {
    principal: c.get('principal'),
    workflowId: parseWith(id, c.req.param('workflowId'), 'workflow id', 'workflowId'),
    async: c.req.header('x-execution-mode')?.toLowerCase() === 'async',
    readBody: () => readJsonBodyLimited(c, app.config.maxRequestBytes),
    idempotencyKey: c.req.header('idempotency-key'),
    origin: runOrigin(c),
  });
  if (call.mode === 'replay') return sendResponse(c, call.answer, { ...call.headers, [REPLAYED_HEADER]: 'true' });
  if (call.mode === 'async') return sendResponse(c, await enqueueApiCall(app, call), call.run.headers);
  if (call.mode === 'stream') {
    return streamRun(c, { headers: call.run.headers, keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
      const outcome = await runApiCall(app, call, { signal, onChunk: send });
      return doneRecord(outcome);
    });
  }
  const outcome = await runApiCall(app, call, { signal: c.req.raw.signal });
  return sendResponse(c, syncAnswer(outcome), call.run.headers);
});
