// POST /api/webhooks/trigger/{path} — inbound webhooks (README "Other triggers", triggers/webhook.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import { prepareWebhookCall, runWebhookCall } from '../../triggers/webhook.js';
import { readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';

const trigger = operation({
  method: 'post',
  path: '/trigger/{path}',
  summary: 'Inbound webhook trigger (any content type; optional X-Sluice-Signature). The path may contain slashes.',
  auth: 'none',
  rawBody: true,
  run: 'webhook',
  response: 'WebhookAccepted',
  conflict: 'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), or the run was cancelled (EXECUTION_CANCELLED)',
  errors: [401],
  more: {
    202: { description: 'The run paused at an approval block', schema: 'ExecutionPaused' },
    500: { description: 'The run failed', schema: 'ExecuteFailure' },
  },
});

// The path may contain slashes, which `app.openapi()` cannot route (it maps {path} to :path): the declaration goes to
// the document, the handler to Hono's own pattern.
const routes = new OpenAPIHono<AppEnv>();
routes.openAPIRegistry.registerPath(trigger);

export const webhookTriggerRoutes = routes.post('/trigger/:path{.+}', async (c) => {
  const app = c.get('app');
  const run = await prepareWebhookCall(app, {
    path: c.req.param('path'),
    url: c.req.url,
    headers: c.req.raw.headers,
    readBody: () => readBodyLimited(c, app.config.maxRequestBytes),
    origin: runOrigin(c),
  });
  return sendResponse(c, await runWebhookCall(app, run, c.req.raw.signal), run.headers);
});
