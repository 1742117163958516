// The HTTP application: middleware composed explicitly, one route module per resource.
import { Hono } from 'hono';
import type { AppContext } from '../services/app-context.js';
import { requireApiKey } from './auth.js';
import type { AppEnv } from './env.js';
import { closeWhenBodyUnfinished, limitBody } from './body.js';
import { handleError, handleNotFound } from './errors.js';
import { observeRequests } from './observe.js';
import { serveWebApp } from './static.js';
import { openApiDocument } from './openapi.js';
import { docsRoutes } from './docs.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { blockTypeRoutes } from './routes/block-types.js';
import { chatRoutes } from './routes/chat.js';
import { authSessionRoutes } from './routes/auth-session.js';
import { fileRoutes } from './routes/files.js';
import { folderRoutes } from './routes/folders.js';
import { jobRoutes } from './routes/jobs.js';
import { logRoutes } from './routes/logs.js';
import { manualRunRoutes } from './routes/manual-run.js';
import { meRoutes } from './routes/me.js';
import { metricsRoutes } from './routes/metrics.js';
import { executeRoutes } from './routes/execute.js';
import { executionRoutes } from './routes/executions.js';
import { usageRoutes } from './routes/usage.js';
import { webhookTriggerRoutes } from './routes/webhook-trigger.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workflowRoutes, workflowStatusRoutes } from './routes/workflows.js';
import { workspaceRoutes } from './routes/workspaces.js';

/** Management payloads (workflow states) are small; large uploads only go to the execute endpoint. */
const MANAGEMENT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export function createApp(app: AppContext) {
  const managementBodyLimit = limitBody(MANAGEMENT_BODY_LIMIT_BYTES);

  // Each resource gets its own guarded sub-app, so an unknown path is a plain 404 rather than a 401.
  const guarded = (routes: Hono<AppEnv>) =>
    new Hono<AppEnv>().use(managementBodyLimit, requireApiKey).route('/', routes);

  const v1 = new Hono<AppEnv>()
    // Web app sign-in/out/sign-up and the current session: no key, their own small body limit.
    .route('/auth', authSessionRoutes)
    .route('/me', guarded(meRoutes))
    .route('/block-types', guarded(blockTypeRoutes))
    .route('/workspaces', guarded(workspaceRoutes))
    .route('/workflows', guarded(workflowRoutes))
    // Authenticates on its own routes (docs/api.md 7: they sit under /workflows/{id}/webhooks).
    .route('/workflows', webhookRoutes)
    // The editor's Run button (README "Other triggers": the manual trigger); authenticates on its own route like the webhooks above.
    .route('/workflows', manualRunRoutes)
    .route('/folders', guarded(folderRoutes))
    .route('/api-keys', guarded(apiKeyRoutes))
    .route('/logs', guarded(logRoutes))
    .route('/executions', guarded(executionRoutes));

  // Unversioned routes (docs/api.md 1): each takes the API key on its own route, so the execute endpoint keeps its own
  // (larger, streaming) body limit instead of the management one.
  const unversioned = new Hono<AppEnv>()
    .route('/workflows', workflowStatusRoutes)
    .route('/workflows', executeRoutes)
    .route('/users', usageRoutes)
    .route('/jobs', jobRoutes)
    // Inbound triggers (README "Other triggers"): webhooks authenticate by path and optional signature, chat by key or chatPublic.
    .route('/webhooks', webhookTriggerRoutes)
    .route('/chat', chatRoutes)
    // Signed download links: the signature is the capability, so no API key (routes/files.ts).
    .route('/files', fileRoutes);

  return new Hono<AppEnv>()
    // Sets `app`, the request id and logger, the server span; counts the request (observe.ts).
    .use(observeRequests(app))
    // A request answered while its body is still arriving ends its connection (body.ts).
    .use(closeWhenBodyUnfinished)
    // Probes, no key. /health: the process answers (no database call, so a database outage does not get healthy
    // processes restarted). /ready: it can serve (services/readiness.ts); 503 names the failing checks.
    .get('/health', (c) => c.json({ status: 'ok' }))
    .get('/ready', async (c) => {
      const report = await app.readiness.check();
      c.header('Cache-Control', 'no-store');
      return c.json({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks }, report.ready ? 200 : 503);
    })
    .get('/api/openapi.json', (c) => c.json(openApiDocument(app.config.baseUrl) as Record<string, unknown>))
    // The interactive reference for that document (Scalar, served from node_modules; no key, no CDN).
    .route('/docs', docsRoutes)
    // Prometheus metrics (docs/metrics.md); a plain 404 when SLUICE_METRICS_ENABLED=false.
    .route('/metrics', metricsRoutes)
    .route('/api/v1', v1)
    .route('/api', unversioned)
    // The web app at `/` (built into web/dist), last so it never shadows an API route; /api, /health, /ready and /docs
    // stay the server's own.
    .use(serveWebApp())
    .notFound(handleNotFound)
    .onError(handleError);
}
