// The logs API (docs/api.md 6): read-only, rate limited per key owner's plan, and every 200 body
// carries the `limits` object of the workspace's owner.
import { $, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { AppError, type ErrorDetail } from '../../errors.js';
import { assertWorkspaceAccess } from '../../services/access.js';
import {
  limitsObject,
  planLimit,
  rateLimitExceeded,
  rateLimitHeaders,
  workspaceOwner,
} from '../../services/limits.js';
import { getExecutionDetail, getLogDetail, listLogs, LOGS_QUERY_PARAMETERS, logsQuerySchema } from '../../services/logs/index.js';
import { isSessionPrincipal } from '../../services/sessions.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { parseId, parseWith } from '../validation.js';

/**
 * Counts every authenticated logs request — a 4xx included, so probing is not free — and puts the
 * X-RateLimit-* headers on whatever response follows, 429 and errors included.
 */
const logsRateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const { rateLimiter, config } = c.get('app');
  const principal = c.get('principal');
  // docs/api.md 6.5 limits API clients per key owner; the web app's logs page (a signed-in person) is not one.
  if (isSessionPrincipal(principal)) return next();
  const decision = await rateLimiter.consume({
    bucket: 'logs',
    userId: principal.userId,
    limit: planLimit(config, 'LOGS', principal.plan),
  });
  if (!decision.allowed) throw rateLimitExceeded(decision, 'logs API requests');
  await next();
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.header(name, value);
});

/**
 * The raw query string, refused when a parameter is unknown (a misspelt filter would silently widen the result)
 * or given twice (which value wins would be a guess). Lists are comma-separated (docs/api.md 6.1).
 */
function singleValuedQuery(c: Context<AppEnv>): Record<string, string> {
  const problems: ErrorDetail[] = [];
  const values: Record<string, string> = {};
  for (const [name, list] of Object.entries(c.req.queries())) {
    if (!LOGS_QUERY_PARAMETERS.includes(name)) problems.push({ path: name, message: 'is not a parameter of this endpoint' });
    else if (list.length > 1) problems.push({ path: name, message: 'must be given once (use a comma-separated list)' });
    else values[name] = list[0] ?? '';
  }
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'Invalid query parameters', problems);
  return values;
}

async function ownerLimits(c: Context<AppEnv>, workspaceId: string) {
  const { db, config } = c.get('app');
  return limitsObject(db, config, await workspaceOwner(db, workspaceId));
}

export const logRoutes = $(new OpenAPIHono<AppEnv>().use(logsRateLimit))
  .openapi(
    operation({
      method: 'get',
      path: '/',
      summary: 'Query execution logs (cursor-paginated, rate-limited)',
      query: logsQuerySchema,
      rateLimited: true,
      // The read replica (DATABASE_READ_URL) or file storage (offloaded values) unavailable.
      errors: [503],
      response: 'LogPage',
    }),
    async (c) => {
      const query = parseWith(logsQuerySchema, singleValuedQuery(c), 'query parameters');
      const { db, logsDb, config, files, logger } = c.get('app');
      await assertWorkspaceAccess(db, c.get('principal'), query.workspaceId);
      const primary = logsDb === db ? undefined : db;
      const [page, limits] = await Promise.all([listLogs(logsDb, config, query, files.storage, primary, logger), ownerLimits(c, query.workspaceId)]);
      return c.json({ data: page.data, nextCursor: page.nextCursor, limits });
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: '/executions/{executionId}',
      summary: 'Execution detail with the state that ran',
      rateLimited: true,
      errors: [503],
      response: 'ExecutionDetail',
    }),
    async (c) => {
      const executionId = parseId(c.req.param('executionId'), 'execution id', 'executionId');
      const { db, logsDb } = c.get('app');
      const detail = await getExecutionDetail(logsDb, c.get('principal'), executionId, db);
      return c.json({ ...detail.value, limits: await ownerLimits(c, detail.workspaceId) });
    },
  )
  .openapi(operation({ method: 'get', path: '/{logId}', summary: 'Log detail', rateLimited: true, errors: [503], response: 'LogDetail' }), async (c) => {
    const logId = parseId(c.req.param('logId'), 'log id', 'id');
    const { db, logsDb, files, logger } = c.get('app');
    const detail = await getLogDetail(logsDb, c.get('principal'), logId, files.storage, db, logger);
    return c.json({ data: { ...detail.value, limits: await ownerLimits(c, detail.workspaceId) } });
  });
