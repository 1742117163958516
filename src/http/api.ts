// The API's route tree: one route module per resource, each route declared once with its request and answer
// (operation.ts), mounted where docs/api.md places it. OpenAPIHono carries the declarations up through every
// `.route()`, so the tree is both what the server routes (app.ts) and what the OpenAPI document describes (openapi.ts).
import { $, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireApiKey } from './auth.js';
import { limitBody } from './body.js';
import { docsRoutes } from './docs.js';
import type { AppEnv } from './env.js';
import { operation } from './operation.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { authSessionRoutes } from './routes/auth-session.js';
import { blockTypeRoutes } from './routes/block-types.js';
import { chatRoutes } from './routes/chat.js';
import { connectorRoutes } from './routes/connectors.js';
import { credentialRoutes } from './routes/credentials.js';
import { executeRoutes } from './routes/execute.js';
import { executionRoutes } from './routes/executions.js';
import { fileRoutes } from './routes/files.js';
import { inviteRoutes } from './routes/invites.js';
import { folderRoutes } from './routes/folders.js';
import { mcpRoutes } from './routes/mcp.js';
import { memoryRoutes } from './routes/memories.js';
import { jobRoutes } from './routes/jobs.js';
import { logRoutes } from './routes/logs.js';
import { manualRunRoutes } from './routes/manual-run.js';
import { meRoutes } from './routes/me.js';
import { metricsRoutes } from './routes/metrics.js';
import { usageRoutes } from './routes/usage.js';
import { webhookTriggerRoutes } from './routes/webhook-trigger.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workflowRoutes, workflowStatusRoutes } from './routes/workflows.js';
import { workspaceRoutes } from './routes/workspaces.js';

/** Management payloads (workflow states) are small; large uploads only go to the execute endpoint. */
const MANAGEMENT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * The routes of the API, probes and documents. `serveDocument` answers GET /api/openapi.json: it is passed in because
 * the document is built from this very tree (openapi.ts).
 */
export function apiRoutes(serveDocument: (c: Context<AppEnv>) => Response) {
  const managementBodyLimit = limitBody(MANAGEMENT_BODY_LIMIT_BYTES);

  // Each resource gets its own guarded sub-app, so an unknown path is a plain 404 rather than a 401.
  const guarded = (routes: OpenAPIHono<AppEnv>) =>
    $(new OpenAPIHono<AppEnv>().use(managementBodyLimit, requireApiKey)).route('/', routes);

  const v1 = new OpenAPIHono<AppEnv>()
    // Web app sign-in/out/sign-up and the current session: no key, their own small body limit.
    .route('/auth', authSessionRoutes)
    // Invite links: the token is the capability, so no key (routes/invites.ts).
    .route('/invites', inviteRoutes)
    .route('/me', guarded(meRoutes))
    .route('/block-types', guarded(blockTypeRoutes))
    .route('/workspaces', guarded(workspaceRoutes))
    .route('/workflows', guarded(workflowRoutes))
    // Authenticates on its own routes (docs/api.md 7: they sit under /workflows/{id}/webhooks).
    .route('/workflows', webhookRoutes)
    // The editor's Run button (README "Other triggers": the manual trigger); authenticates on its own route like the webhooks above.
    .route('/workflows', manualRunRoutes)
    // Agent conversation memories (docs/api.md "Agent memories"); authenticate on their own routes like the webhooks.
    .route('/workflows', memoryRoutes)
    .route('/folders', guarded(folderRoutes))
    .route('/credentials', guarded(credentialRoutes))
    .route('/connectors', guarded(connectorRoutes))
    .route('/mcp', guarded(mcpRoutes))
    .route('/api-keys', guarded(apiKeyRoutes))
    .route('/logs', guarded(logRoutes))
    .route('/executions', guarded(executionRoutes));

  // Unversioned routes (docs/api.md 1): each takes the API key on its own route, so the execute endpoint keeps its own
  // (larger, streaming) body limit instead of the management one.
  const unversioned = new OpenAPIHono<AppEnv>()
    .route('/workflows', workflowStatusRoutes)
    .route('/workflows', executeRoutes)
    .route('/users', usageRoutes)
    .route('/jobs', jobRoutes)
    // Inbound triggers (README "Other triggers"): webhooks authenticate by path and optional signature, chat by key or chatPublic.
    .route('/webhooks', webhookTriggerRoutes)
    .route('/chat', chatRoutes)
    // Signed download links: the signature is the capability, so no API key (routes/files.ts).
    .route('/files', fileRoutes);

  return (
    new OpenAPIHono<AppEnv>()
      // Probes, no key. /health: the process answers (no database call, so a database outage does not get healthy
      // processes restarted). /ready: it can serve (services/readiness.ts); 503 names the failing checks.
      .openapi(
        operation({ method: 'get', path: '/health', summary: 'Liveness: the process answers (no database call)', auth: 'none', response: 'Health' }),
        (c) => c.json({ status: 'ok' }),
      )
      .openapi(
        operation({
          method: 'get',
          path: '/ready',
          summary: 'Readiness: database, migrations and worker checks; 503 names the failing ones',
          auth: 'none',
          response: 'Readiness',
          more: { 503: { description: 'Not ready: the failing checks are named', schema: 'Readiness' } },
        }),
        async (c) => {
          const report = await c.get('app').readiness.check();
          c.header('Cache-Control', 'no-store');
          return c.json({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks }, report.ready ? 200 : 503);
        },
      )
      .openapi(
        operation({
          method: 'get',
          path: '/api/openapi.json',
          summary: 'This OpenAPI 3.1 document (the interactive reference is at /docs)',
          auth: 'none',
          content: { 'application/json': { schema: { type: 'object' } } },
        }),
        serveDocument,
      )
      // The interactive reference for that document (Scalar, served from node_modules; no key, no CDN).
      .route('/docs', docsRoutes)
      // Prometheus metrics (docs/metrics.md); a plain 404 when SLUICE_METRICS_ENABLED=false.
      .route('/metrics', metricsRoutes)
      .route('/api/v1', v1)
      .route('/api', unversioned)
  );
}
