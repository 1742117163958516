// Rate limits and usage, kept in the database so every server process shares them (docs/api.md 4.8, 6.5).
// Rate limits are fixed one-minute windows: one row per (bucket, window), incremented atomically.
import { and, eq, lt } from 'drizzle-orm';
import { PLANS, type Config, type LimitKind, type Plan } from '../config.js';
import type { Db } from '../db/client.js';
import { rateLimitWindows, usagePeriods, users, workspaces } from '../db/schema.js';
import { AppError } from '../errors.js';

export const RATE_WINDOW_MS = 60_000;
export type RateBucket = 'sync' | 'async' | 'logs';

export interface RateState {
  /** null = unlimited for this plan. */
  limit: number | null;
  remaining: number | null;
  resetAt: Date;
}

export interface RateDecision extends RateState {
  allowed: boolean;
  retryAfterSeconds: number;
}

export function asPlan(plan: string): Plan {
  return (PLANS as readonly string[]).includes(plan) ? (plan as Plan) : 'free';
}

export function planLimit(config: Config, kind: LimitKind, plan: string): number | null {
  return config.limits[kind][asPlan(plan)];
}

function windowOf(nowMs: number) {
  const start = Math.floor(nowMs / RATE_WINDOW_MS) * RATE_WINDOW_MS;
  return { start: new Date(start), resetAt: new Date(start + RATE_WINDOW_MS) };
}

const bucketKey = (bucket: RateBucket, userId: string) => `${bucket}:${userId}`;

/**
 * The window as it stands, without counting (for the `limits` object and usage-limits endpoint); requests are
 * counted by rate-limiter.ts.
 */
export async function peekRateLimit(
  db: Db,
  input: { bucket: RateBucket; userId: string; limit: number | null; now?: number },
): Promise<RateState> {
  const { start, resetAt } = windowOf(input.now ?? Date.now());
  if (input.limit === null) return { limit: null, remaining: null, resetAt };
  const [row] = await db
    .select({ count: rateLimitWindows.count })
    .from(rateLimitWindows)
    .where(and(eq(rateLimitWindows.bucket, bucketKey(input.bucket, input.userId)), eq(rateLimitWindows.windowStart, start)))
    .limit(1);
  return { limit: input.limit, remaining: Math.max(0, input.limit - (row?.count ?? 0)), resetAt };
}

/** Forgets windows that ended long ago; called now and then by the worker. */
export async function pruneRateWindows(db: Db, now = Date.now()): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, new Date(now - 10 * RATE_WINDOW_MS)));
}

export function rateLimitHeaders(state: RateState): Record<string, string> {
  if (state.limit === null) return {};
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining ?? 0),
    'X-RateLimit-Reset': state.resetAt.toISOString(),
  };
}

export function rateLimitExceeded(decision: RateDecision, what: string): AppError {
  return new AppError(
    'RATE_LIMIT_EXCEEDED',
    429,
    `Rate limit exceeded: at most ${decision.limit} ${what} per minute; retry after ${decision.retryAfterSeconds} s`,
    undefined,
    { ...rateLimitHeaders(decision), 'Retry-After': String(decision.retryAfterSeconds) },
  );
}

/** The month currentPeriod answered last and the epoch ms it spans: the few calls of every run nearly all fall in it. */
let knownPeriod = { from: 0, until: 0, period: '' };

/** `YYYY-MM-01` of the calendar month (UTC) that contains `now` (epoch ms). */
export function currentPeriod(now = Date.now()): string {
  if (now >= knownPeriod.from && now < knownPeriod.until) return knownPeriod.period;
  const date = new Date(now);
  knownPeriod = {
    from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    until: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
    period: `${date.toISOString().slice(0, 7)}-01`,
  };
  return knownPeriod.period;
}

export interface UsageState {
  currentPeriodCost: number;
  /** null = unlimited. */
  limit: number | null;
  plan: Plan;
  isExceeded: boolean;
}

export async function getUsage(db: Db, config: Config, user: { id: string; plan: string }): Promise<UsageState> {
  const [row] = await db
    .select({ cost: usagePeriods.costUsd })
    .from(usagePeriods)
    .where(and(eq(usagePeriods.userId, user.id), eq(usagePeriods.period, currentPeriod())))
    .limit(1);
  const plan = asPlan(user.plan);
  const limit = config.limits.USAGE_USD[plan];
  const currentPeriodCost = row?.cost ?? 0;
  return { currentPeriodCost, limit, plan, isExceeded: limit !== null && currentPeriodCost >= limit };
}

export async function workspaceOwner(db: Db, workspaceId: string): Promise<{ id: string; plan: string }> {
  const [row] = await db
    .select({ id: users.id, plan: users.plan })
    .from(workspaces)
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 404, 'Workspace not found');
  return row;
}

/** The limits object (docs/api.md 6.4), for the given owner (logs API bodies, webhook payloads). */
export async function limitsObject(db: Db, config: Config, owner: { id: string; plan: string }) {
  const [sync, async, usage] = await Promise.all([
    peekRateLimit(db, { bucket: 'sync', userId: owner.id, limit: planLimit(config, 'SYNC', owner.plan) }),
    peekRateLimit(db, { bucket: 'async', userId: owner.id, limit: planLimit(config, 'ASYNC', owner.plan) }),
    getUsage(db, config, owner),
  ]);
  const view = (s: RateState) => ({ limit: s.limit, remaining: s.remaining, resetAt: s.resetAt.toISOString() });
  return {
    workflowExecutionRateLimit: { sync: view(sync), async: view(async) },
    usage: {
      currentPeriodCost: usage.currentPeriodCost,
      limit: usage.limit,
      plan: usage.plan,
      isExceeded: usage.isExceeded,
    },
  };
}

