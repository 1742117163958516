// POST /api/webhooks/trigger/{path} — inbound webhooks (README "Other triggers", triggers/webhook.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import { prepareWebhookCall, queueWebhookCall, runWebhookCall } from '../../triggers/webhook.js';
import { readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { clientGoneSignal } from '../node-bindings.js';
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
  conflict:
    'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), the run was cancelled (EXECUTION_CANCELLED), or the workflow is debounced and a response block answers its webhook (DEBOUNCED)',
  errors: [401],
  more: {
    202: {
      description:
        'The run was queued — a call over the throttle, or any call of a debounced workflow, when no response block answers it (docs/api.md 4.11) — or paused at an approval block',
      schema: 'ExecuteAcceptedOrPaused',
    },
    500: { description: 'The run failed', schema: 'ExecuteFailure' },
  },
});

// The path may contain slashes, which `app.openapi()` cannot route (it maps {path} to :path): the declaration goes to
// the document, the handler to Hono's own pattern.
const routes = new OpenAPIHono<AppEnv>();
routes.openAPIRegistry.registerPath(trigger);

export const webhookTriggerRoutes = routes.post('/trigger/:path{.+}', async (c) => {
  const app = c.get('app');
  const call = await prepareWebhookCall(app, {
    path: c.req.param('path'),
    url: c.req.url,
    headers: c.req.raw.headers,
    readBody: () => readBodyLimited(c, app.config.maxRequestBytes),
    origin: runOrigin(c),
  });
  if (call.mode === 'queued') return sendResponse(c, await queueWebhookCall(app, call), call.run.headers);
  return sendResponse(c, await runWebhookCall(app, call.run, clientGoneSignal(c)), call.run.headers);
});
