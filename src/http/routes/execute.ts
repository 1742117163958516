// POST /api/workflows/{workflowId}/execute — the API trigger (docs/api.md 4). The route parses the
// request and shapes the answer; triggers/api.ts decides everything else.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { doneRecord, REPLAYED_HEADER, syncAnswer } from '../../runs/index.js';
import { enqueueApiCall, prepareApiCall, runApiCall } from '../../triggers/api.js';
import { requireApiKey } from '../auth.js';
import { readJsonBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { clientGoneSignal } from '../node-bindings.js';
import { operation } from '../operation.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';
import { streamRun } from '../sse.js';
import { parseId } from '../validation.js';

/**
 * What the body may hold: the declared Input Format fields, checked by the run's trigger (triggers/api.ts),
 * plus the control keys. The route reads the body as bytes (files, size limit), so this describes it.
 */
const executeBody = z
  .object({
    stream: z.boolean().optional().describe('true switches the response to Server-Sent Events'),
    selectedOutputs: z.array(z.string()).optional().describe('blockName.attribute items to stream'),
    streamEvents: z.boolean().optional().describe("with stream: true, also send agents' steps and tool calls as StreamEvent records"),
  })
  .catchall(z.unknown())
  .describe('The declared Input Format fields, plus the control keys');

const execute = operation({
  method: 'post',
  path: '/{workflowId}/execute',
  middleware: requireApiKey,
  summary: 'Run the active deployment (JSON, SSE with stream: true, async with X-Execution-Mode: async)',
  body: executeBody,
  run: 'execute',
  response: 'ExecuteResult',
  events:
    'with stream: true, a StreamChunk (#/components/schemas/StreamChunk) per streamed piece of the selectedOutputs ' +
    '(with streamEvents: true, StreamEvent records between them), then a StreamDone',
  conflict:
    'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), a call with this Idempotency-Key is still running or was ' +
    'made with another body (IDEMPOTENCY_CONFLICT), the run was cancelled (EXECUTION_CANCELLED), or the workflow is a ' +
    'singleton with mode skip and a run for the key is in flight (ALREADY_RUNNING, with runningExecutionId)',
  more: {
    202: { description: 'Queued (X-Execution-Mode: async), or paused at an approval block', schema: 'ExecuteAcceptedOrPaused' },
    500: { description: 'The run failed', schema: 'ExecuteFailure' },
  },
});

export const executeRoutes = new OpenAPIHono<AppEnv>().openapi(execute, async (c) => {
  const app = c.get('app');
  const call = await prepareApiCall(app, {
    principal: c.get('principal'),
    workflowId: parseId(c.req.param('workflowId'), 'workflow id', 'workflowId'),
    async: c.req.header('x-execution-mode')?.toLowerCase() === 'async',
    readBody: () => readJsonBodyLimited(c, app.config.maxRequestBytes),
    idempotencyKey: c.req.header('idempotency-key'),
    priority: c.req.header('x-execution-priority'),
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
  const outcome = await runApiCall(app, call, { signal: clientGoneSignal(c) });
  return sendResponse(c, syncAnswer(outcome), call.run.headers);
});
