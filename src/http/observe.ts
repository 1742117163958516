// The first middleware of every request: its id (X-Request-Id, on every response, errors included), a logger that
// puts the id on each line (made on demand: requestLogger), its server span when tracing is on (a child of the caller's W3C traceparent), and, once
// answered, its count and duration in the metrics — labelled with the matched route template, never the raw path,
// so no id ever becomes a label value.
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.js';
import { parseTraceparent } from '../observability/tracing.js';
import type { Logger } from '../logger.js';
import type { AppContext } from '../services/app-context.js';
import type { RunOrigin } from '../runs/index.js';
import type { AppEnv } from './env.js';
import { setResponseHeader } from './node-bindings.js';

/** What a request that starts a run hands it: its id (kept on the log) and its span (the run span's parent). */
export function runOrigin(c: Context<AppEnv>): RunOrigin {
  return { requestId: c.get('requestId'), trace: c.get('span')?.context };
}

/**
 * The app's logger with this request's id on every line. Made when a line is to be written, not per request: a pino
 * child per request showed in profiles of the execute path, and most requests log nothing. Before the first
 * middleware ran (no app yet) there is none.
 */
export function requestLogger(c: Context<AppEnv>): Logger | undefined {
  const app = c.get('app') as AppContext | undefined;
  if (!app) return undefined;
  const requestId = c.get('requestId');
  return requestId === undefined ? app.logger : app.logger.child({ requestId });
}

/**
 * The route template that answered (`/api/workflows/:workflowId/execute`). A request no route took is answered by
 * the app-wide middleware (`/*`: the web app, or the JSON 404).
 */
function routeOf(c: Context<AppEnv>): string {
  return routePath(c) || '/*';
}

export function observeRequests(app: AppContext): MiddlewareHandler<AppEnv> {
  const { metrics, tracing, logger } = app;
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('app', app);
    c.set('requestId', requestId);
    const span = tracing.enabled
      ? tracing.startSpan(c.req.method, {
          kind: 'server',
          parent: parseTraceparent(c.req.header('traceparent')),
          attributes: { 'http.request.method': c.req.method, 'sluice.request.id': requestId },
        })
      : undefined;
    if (span) c.set('span', span);

    await next();

    const status = c.res.status;
    // After the route's own headers, so a header a workflow's answer names X-Request-Id cannot replace it.
    setResponseHeader(c, REQUEST_ID_HEADER, requestId);
    // Streaming answers are measured to their headers; the run behind them has its own duration.
    const seconds = (performance.now() - started) / 1000;
    const debug = logger.isLevelEnabled('debug');
    if (!metrics.enabled && !span && !debug) return;
    const route = routeOf(c);
    metrics.httpRequest(c.req.method, route, status, seconds);
    if (span) {
      span.updateName(`${c.req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      span.end(status >= 500 ? { error: `HTTP ${status}` } : undefined);
    }
    if (debug) requestLogger(c)?.debug({ method: c.req.method, route, status, durationMs: Math.round(seconds * 1000) }, 'request');
  };
}
