// The HTTP application: middleware composed explicitly, one route module per resource.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../errors.js';
import { ping } from '../db/client.js';
import type { AppContext } from '../services/app-context.js';
import { requireApiKey } from './auth.js';
import type { AppEnv } from './env.js';
import { errorResponse, handleError, handleNotFound } from './errors.js';
import { serveWebApp } from './static.js';
import { openApiDocument } from './openapi.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { chatRoutes } from './routes/chat.js';
import { authSessionRoutes } from './routes/auth-session.js';
import { fileRoutes } from './routes/files.js';
import { folderRoutes } from './routes/folders.js';
import { jobRoutes } from './routes/jobs.js';
import { logRoutes } from './routes/logs.js';
import { manualRunRoutes } from './routes/manual-run.js';
import { meRoutes } from './routes/me.js';
import { executeRoutes } from './routes/execute.js';
import { usageRoutes } from './routes/usage.js';
import { webhookTriggerRoutes } from './routes/webhook-trigger.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workflowRoutes, workflowStatusRoutes } from './routes/workflows.js';
import { workspaceRoutes } from './routes/workspaces.js';

/** Management payloads (workflow states) are small; large uploads only go to the execute endpoint. */
const MANAGEMENT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export function createApp(app: AppContext) {
  const managementBodyLimit = bodyLimit({
    maxSize: MANAGEMENT_BODY_LIMIT_BYTES,
    onError: (c) => errorResponse(c, new AppError('PAYLOAD_TOO_LARGE', 413, 'The request body is larger than 5 MB')),
  });

  // Each resource gets its own guarded sub-app, so an unknown path is a plain 404 rather than a 401.
  const guarded = (routes: Hono<AppEnv>) =>
    new Hono<AppEnv>().use(managementBodyLimit, requireApiKey).route('/', routes);

  const v1 = new Hono<AppEnv>()
    // Web app sign-in/out/sign-up and the current session: no key, their own small body limit.
    .route('/auth', authSessionRoutes)
    .route('/me', guarded(meRoutes))
    .route('/workspaces', guarded(workspaceRoutes))
    .route('/workflows', guarded(workflowRoutes))
    // Authenticates on its own routes (SPEC §6 paths sit under /workflows/{id}/webhooks).
    .route('/workflows', webhookRoutes)
    // The editor's Run button (SPEC §8 manual trigger); authenticates on its own route like the webhooks above.
    .route('/workflows', manualRunRoutes)
    .route('/folders', guarded(folderRoutes))
    .route('/api-keys', guarded(apiKeyRoutes))
    .route('/logs', guarded(logRoutes));

  // Unversioned routes (SPEC §4): each takes the API key on its own route, so the execute endpoint keeps its own
  // (larger, streaming) body limit instead of the management one.
  const unversioned = new Hono<AppEnv>()
    .route('/workflows', workflowStatusRoutes)
    .route('/workflows', executeRoutes)
    .route('/users', usageRoutes)
    .route('/jobs', jobRoutes)
    // Inbound triggers (SPEC §8): webhooks authenticate by path and optional signature, chat by key or chatPublic.
    .route('/webhooks', webhookTriggerRoutes)
    .route('/chat', chatRoutes)
    // Signed download links: the signature is the capability, so no API key (routes/files.ts).
    .route('/files', fileRoutes);

  return new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('app', app);
      await next();
    })
    .get('/health', async (c) => {
      await ping(app.db);
      return c.json({ status: 'ok' });
    })
    .get('/api/openapi.json', (c) => c.json(openApiDocument(app.config.baseUrl) as Record<string, unknown>))
    .route('/api/v1', v1)
    .route('/api', unversioned)
    // The web app at `/` (built into web/dist), last so it never shadows an API route; /api and /health stay JSON.
    .use(serveWebApp())
    .notFound(handleNotFound)
    .onError(handleError);
}
