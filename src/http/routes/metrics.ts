// GET /metrics — Prometheus text format (docs/metrics.md). Open like /health unless SLUICE_METRICS_TOKEN is set; then
// the scraper sends `Authorization: Bearer <token>` (Prometheus: `authorization: {credentials: …}`).
import { timingSafeEqual } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import type { AppEnv } from '../env.js';
import { handleNotFound } from '../errors.js';
import { operation } from '../operation.js';

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const scrape = operation({
  method: 'get',
  path: '/',
  summary: 'Prometheus metrics (404 when SLUICE_METRICS_ENABLED=false; bearer token when SLUICE_METRICS_TOKEN is set)',
  auth: 'metrics',
  content: { 'text/plain': { schema: { type: 'string' } } },
  errors: [404],
});

export const metricsRoutes = new OpenAPIHono<AppEnv>().openapi(scrape, async (c) => {
  const app = c.get('app');
  if (!app.config.observability.metricsEnabled) return handleNotFound(c);
  const token = app.config.observability.metricsToken;
  if (token !== undefined && !tokenMatches(c.req.header('authorization'), token)) {
    throw new AppError('UNAUTHORIZED', 401, 'Missing or wrong metrics token: send Authorization: Bearer <SLUICE_METRICS_TOKEN>', undefined, {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  }
  const { contentType, body } = await app.metrics.scrape();
  return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
});
