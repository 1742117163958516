// POST /api/webhooks/trigger/{path} — inbound webhooks (README "Other triggers", services/triggers/webhook.ts).
import { Hono } from 'hono';
import { prepareWebhookCall, runWebhookCall } from '../../triggers/webhook.js';
import { readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendResponse } from '../execution-response.js';
import { runOrigin } from '../observe.js';

export const webhookTriggerRoutes = new Hono<AppEnv>().post('/trigger/:path{.+}', async (c) => {
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
