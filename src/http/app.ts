// The HTTP application: middleware composed explicitly around the API's route tree (api.ts).
import { Hono } from 'hono';
import type { AppContext } from '../services/app-context.js';
import { apiRoutes } from './api.js';
import { closeWhenBodyUnfinished } from './body.js';
import type { AppEnv } from './env.js';
import { handleError, handleNotFound } from './errors.js';
import { observeRequests } from './observe.js';
import { serveOpenApiDocument } from './openapi.js';
import { serveWebApp } from './static.js';

export function createApp(app: AppContext) {
  return new Hono<AppEnv>()
    // Sets `app`, the request id and logger, the server span; counts the request (observe.ts).
    .use(observeRequests(app))
    // A request answered while its body is still arriving ends its connection (body.ts).
    .use(closeWhenBodyUnfinished)
    .route('/', apiRoutes(serveOpenApiDocument))
    // The web app at `/` (built into web/dist), last so it never shadows an API route; /api, /health, /ready and /docs
    // stay the server's own.
    .use(serveWebApp())
    .notFound(handleNotFound)
    .onError(handleError);
}
