// The checks every inbound run makes before it starts (docs/api.md 4.8), counted against the workspace owner: the
// per-minute rate limit of its bucket for request-driven runs (execute: sync or async; webhook and chat: sync), and
// the usage limit always. Manual runs are not rate limited; schedules are paced by their cron.
// Neither check reads the database per run: the rate limiter leases tokens, the usage meter keeps a fresh figure.
import { AppError } from '../errors.js';
import type { AppContext } from '../services/app-context.js';
import { planLimit, rateLimitExceeded, rateLimitHeaders } from '../services/limits.js';

export interface Admission {
  /** X-RateLimit-* headers to put on the response (empty when not rate limited). */
  headers: Record<string, string>;
}

export async function admitRun(
  app: AppContext,
  owner: { id: string; plan: string },
  options: { rateBucket: 'sync' | 'async' | null },
): Promise<Admission> {
  let headers: Record<string, string> = {};
  const bucket = options.rateBucket;
  if (bucket) {
    const decision = await app.rateLimiter.consume({
      bucket,
      userId: owner.id,
      limit: planLimit(app.config, bucket === 'async' ? 'ASYNC' : 'SYNC', owner.plan),
    });
    if (!decision.allowed) throw rateLimitExceeded(decision, `${bucket} executions`);
    headers = rateLimitHeaders(decision);
  }
  const usage = await app.usage.current(owner);
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
