// The checks every inbound trigger makes before a run starts (SPEC §4 limits): the owner's usage limit always,
// and the per-minute sync rate limit for request-driven triggers (webhook, chat). Manual runs are not rate
// limited (SPEC §4), and schedules are paced by their cron, not by callers.
import { AppError } from '../../errors.js';
import type { AppContext } from '../app-context.js';
import { consumeRateLimit, getUsage, planLimit, rateLimitExceeded, rateLimitHeaders } from '../limits.js';

export interface Admission {
  /** X-RateLimit-* headers to put on the response (empty when not rate limited). */
  headers: Record<string, string>;
}

export async function admitRun(
  app: AppContext,
  owner: { id: string; plan: string },
  options: { rateLimited: boolean },
): Promise<Admission> {
  let headers: Record<string, string> = {};
  if (options.rateLimited) {
    const decision = await consumeRateLimit(app.db, {
      bucket: 'sync',
      userId: owner.id,
      limit: planLimit(app.config, 'SYNC', owner.plan),
    });
    if (!decision.allowed) throw rateLimitExceeded(decision, 'sync executions');
    headers = rateLimitHeaders(decision);
  }
  const usage = await getUsage(app.db, app.config, owner);
  if (usage.isExceeded) {
    throw new AppError(
      'USAGE_LIMIT_EXCEEDED',
      402,
      `Usage limit reached: $${usage.currentPeriodCost.toFixed(4)} of $${usage.limit} this period on the ${usage.plan} plan`,
      undefined,
      headers,
    );
  }
  return { headers };
}
