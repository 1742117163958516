// Webhook subscriptions of a workflow (docs/api.md 7). The secret is write-only: it is
// stored encrypted and responses only say whether there is one.
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookSubscriptions } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { TriggerType } from '../../workflow/index.js';
import type { AppContext } from '../app-context.js';
import { LOG_LEVELS, TRIGGER_TYPES, type LogLevel } from './constants.js';
import { checkWebhookUrl } from './target.js';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/** Enough for fan-out to a few systems per workflow; bounds the work one execution can cause. */
export const MAX_SUBSCRIPTIONS_PER_WORKFLOW = 20;

export interface SubscriptionFields {
  url: string;
  /** null removes the secret (unsigned deliveries). */
  secret?: string | null;
  includeFinalOutput?: boolean;
  includeTraceSpans?: boolean;
  includeRateLimits?: boolean;
  includeUsageData?: boolean;
  levelFilter?: LogLevel[];
  triggerFilter?: TriggerType[];
  active?: boolean;
}

export interface SubscriptionView {
  id: string;
  workflowId: string;
  url: string;
  hasSecret: boolean;
  includeFinalOutput: boolean;
  includeTraceSpans: boolean;
  includeRateLimits: boolean;
  includeUsageData: boolean;
  levelFilter: string[];
  triggerFilter: string[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    workflowId: row.workflowId,
    url: row.url,
    hasSecret: row.secretEncrypted !== null,
    includeFinalOutput: row.includeFinalOutput,
    includeTraceSpans: row.includeTraceSpans,
    includeRateLimits: row.includeRateLimits,
    includeUsageData: row.includeUsageData,
    levelFilter: row.levelFilter,
    triggerFilter: row.triggerFilter,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Filters are stored in the canonical order without repeats, so equal filters look equal. */
const canonical = <T extends string>(values: T[], order: readonly T[]) => order.filter((v) => values.includes(v));

export async function listSubscriptions(db: Db, workflowId: string): Promise<SubscriptionView[]> {
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.workflowId, workflowId))
    .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id));
  return rows.map(toSubscriptionView);
}

/** A subscription of that workflow; another workflow's is indistinguishable from none. */
export async function getSubscription(db: Db, workflowId: string, subscriptionId: string): Promise<SubscriptionRow> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, subscriptionId), eq(webhookSubscriptions.workflowId, workflowId)))
    .limit(1);
  if (!row) throw notFound('Webhook subscription');
  return row;
}

export async function createSubscription(
  app: AppContext,
  workflow: { id: string; workspaceId: string },
  input: SubscriptionFields,
): Promise<SubscriptionRow> {
  await checkWebhookUrl(input.url, app.config.allowPrivateNetwork);
  const [{ total }] = await app.db
    .select({ total: count() })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.workflowId, workflow.id));
  if (total >= MAX_SUBSCRIPTIONS_PER_WORKFLOW) {
    throw new AppError('LIMIT_EXCEEDED', 409, `A workflow can have at most ${MAX_SUBSCRIPTIONS_PER_WORKFLOW} webhook subscriptions`);
  }
  const [row] = await app.db
    .insert(webhookSubscriptions)
    .values({
      id: newId('sub'),
      workflowId: workflow.id,
      workspaceId: workflow.workspaceId,
      url: input.url,
      secretEncrypted: input.secret ? app.cipher.encrypt(input.secret) : null,
      // Defaults (docs/api.md 7): no extras, every level and trigger, active.
      includeFinalOutput: input.includeFinalOutput ?? false,
      includeTraceSpans: input.includeTraceSpans ?? false,
      includeRateLimits: input.includeRateLimits ?? false,
      includeUsageData: input.includeUsageData ?? false,
      levelFilter: canonical(input.levelFilter ?? [...LOG_LEVELS], LOG_LEVELS),
      triggerFilter: canonical(input.triggerFilter ?? [...TRIGGER_TYPES], TRIGGER_TYPES),
      active: input.active ?? true,
    })
    .returning();
  return row;
}

export async function updateSubscription(
  app: AppContext,
  row: SubscriptionRow,
  patch: Partial<SubscriptionFields>,
): Promise<SubscriptionRow> {
  const changes: Partial<typeof webhookSubscriptions.$inferInsert> = { updatedAt: new Date() };
  if (patch.url !== undefined) {
    await checkWebhookUrl(patch.url, app.config.allowPrivateNetwork);
    changes.url = patch.url;
  }
  if (patch.secret !== undefined) changes.secretEncrypted = patch.secret ? app.cipher.encrypt(patch.secret) : null;
  if (patch.includeFinalOutput !== undefined) changes.includeFinalOutput = patch.includeFinalOutput;
  if (patch.includeTraceSpans !== undefined) changes.includeTraceSpans = patch.includeTraceSpans;
  if (patch.includeRateLimits !== undefined) changes.includeRateLimits = patch.includeRateLimits;
  if (patch.includeUsageData !== undefined) changes.includeUsageData = patch.includeUsageData;
  if (patch.levelFilter !== undefined) changes.levelFilter = canonical(patch.levelFilter, LOG_LEVELS);
  if (patch.triggerFilter !== undefined) changes.triggerFilter = canonical(patch.triggerFilter, TRIGGER_TYPES);
  if (patch.active !== undefined) changes.active = patch.active;
  const [updated] = await app.db
    .update(webhookSubscriptions)
    .set(changes)
    .where(eq(webhookSubscriptions.id, row.id))
    .returning();
  if (!updated) throw notFound('Webhook subscription');
  return updated;
}

/** Deleting a subscription deletes its delivery history too; pending attempts stop. */
export async function deleteSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, row.id));
}
