// GET /api/users/me/usage-limits (docs/api.md 4.8): the caller's own execution rate limits and usage.
import { OpenAPIHono } from '@hono/zod-openapi';
import { getUsage, peekRateLimit, planLimit, type RateState } from '../../services/limits.js';
import { isSessionPrincipal } from '../../services/sessions.js';
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';

const view = (state: RateState) => ({
  isLimited: state.limit !== null && state.remaining === 0,
  limit: state.limit,
  remaining: state.remaining,
  resetAt: state.resetAt.toISOString(),
});

const usageLimits = operation({
  method: 'get',
  path: '/me/usage-limits',
  middleware: requireApiKey,
  summary: 'Execution rate limits and usage of the caller',
  response: 'UsageLimits',
});

export const usageRoutes = new OpenAPIHono<AppEnv>().openapi(usageLimits, async (c) => {
  const { db, config } = c.get('app');
  const principal = c.get('principal');
  const user = { id: principal.userId, plan: principal.plan };
  const [sync, async, usage] = await Promise.all([
    peekRateLimit(db, { bucket: 'sync', userId: user.id, limit: planLimit(config, 'SYNC', user.plan) }),
    peekRateLimit(db, { bucket: 'async', userId: user.id, limit: planLimit(config, 'ASYNC', user.plan) }),
    getUsage(db, config, user),
  ]);
  return c.json({
    success: true,
    rateLimit: { sync: view(sync), async: view(async), authType: isSessionPrincipal(principal) ? 'session' : 'api' },
    usage: { currentPeriodCost: usage.currentPeriodCost, limit: usage.limit, plan: usage.plan },
  });
});
