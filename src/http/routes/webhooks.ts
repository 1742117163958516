// Completion webhook subscriptions of a workflow (docs/api.md 7), under /api/v1/workflows/{workflowId}/webhooks.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { requireRole } from '../../services/access.js';
import { LOG_LEVELS, TRIGGER_TYPES } from '../../services/completion-webhooks/constants.js';
import { listDeliveries, redeliver } from '../../services/completion-webhooks/delivery-history.js';
import { sendTestEvent } from '../../services/completion-webhooks/test-event.js';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  toSubscriptionView,
  updateSubscription,
} from '../../services/completion-webhooks/subscriptions.js';
import { storableString } from '../../services/storable-text.js';
import { getWorkflowForPrincipal } from '../../services/workflows.js';
import { requireApiKey } from '../auth.js';
import { limitBody } from '../body.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id } from '../schemas.js';
import { parseId, readBody, readQuery } from '../validation.js';

const MAX_URL_LENGTH = 2048;

const url = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an absolute http(s) URL');
const secret = z.string().min(8, 'must be at least 8 characters').max(512).nullable();
const filter = <T extends readonly [string, ...string[]]>(values: T) =>
  z.array(z.enum(values)).min(1, `must name at least one of: ${values.join(', ')}`).max(values.length * 4);

const subscriptionFields = {
  url,
  secret: secret.optional(),
  includeFinalOutput: z.boolean().optional(),
  includeTraceSpans: z.boolean().optional(),
  includeRateLimits: z.boolean().optional(),
  includeUsageData: z.boolean().optional(),
  levelFilter: filter(LOG_LEVELS).optional(),
  triggerFilter: filter(TRIGGER_TYPES).optional(),
  active: z.boolean().optional(),
};

const subscriptionCreate = z.strictObject(subscriptionFields);
const subscriptionUpdate = z
  .strictObject({ ...subscriptionFields, url: url.optional() })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
const deliveryListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: storableString.max(200).optional(),
});

/** Authenticates unless an enclosing guard already did (the /workflows guard may cover these paths too). */
const authenticated = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('principal')) return next();
  return requireApiKey(c, next);
});

const smallBody = limitBody(64 * 1024);

function loadWorkflow(c: Context<AppEnv>) {
  const workflowId = parseId(c.req.param('workflowId'), 'workflow id', 'workflowId');
  return getWorkflowForPrincipal(c.get('app').db, c.get('principal'), workflowId);
}

const MANAGE_WEBHOOKS = 'manage webhook subscriptions';

/** The workflow of a subscription change: editors and up (webhook secrets and targets are theirs to set). */
async function loadWorkflowToChange(c: Context<AppEnv>) {
  const workflow = await loadWorkflow(c);
  await requireRole(c.get('app').db, c.get('principal'), workflow.workspaceId, 'editor', MANAGE_WEBHOOKS);
  return workflow;
}

async function loadSubscription(c: Context<AppEnv>, forChange = false) {
  const workflow = forChange ? await loadWorkflowToChange(c) : await loadWorkflow(c);
  const subscriptionId = parseId(c.req.param('subscriptionId'), 'subscription id', 'subscriptionId');
  return getSubscription(c.get('app').db, workflow.id, subscriptionId);
}

const base = '/{workflowId}/webhooks';

export const webhookRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({ method: 'get', path: base, middleware: authenticated, summary: 'List completion webhook subscriptions', response: 'SubscriptionList' }),
    async (c) => {
      const workflow = await loadWorkflow(c);
      return c.json({ data: await listSubscriptions(c.get('app').db, workflow.id) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: base,
      middleware: [authenticated, smallBody],
      summary: 'Create a subscription (secret is write-only)',
      body: subscriptionCreate,
      success: 201,
      response: 'SubscriptionResponse',
      conflict: 'The workflow has as many subscriptions as it may (LIMIT_EXCEEDED)',
    }),
    async (c) => {
      const workflow = await loadWorkflowToChange(c);
      const body = await readBody(c, subscriptionCreate);
      return c.json({ data: toSubscriptionView(await createSubscription(c.get('app'), workflow, body)) }, 201);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: `${base}/deliveries/{deliveryId}/redeliver`,
      middleware: authenticated,
      summary: 'Send a delivery again (new delivery id, same event)',
      success: 202,
      errors: [410, 503],
      response: 'DeliveryResponse',
    }),
    async (c) => {
      const workflow = await loadWorkflowToChange(c);
      const deliveryId = parseId(c.req.param('deliveryId'), 'delivery id', 'deliveryId');
      return c.json({ data: await redeliver(c.get('app'), { workflowId: workflow.id }, deliveryId) }, 202);
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: `${base}/{subscriptionId}`,
      middleware: authenticated,
      summary: 'Read a subscription',
      response: 'SubscriptionResponse',
    }),
    async (c) => c.json({ data: toSubscriptionView(await loadSubscription(c)) }),
  )
  .openapi(
    operation({
      method: 'patch',
      path: `${base}/{subscriptionId}`,
      middleware: [authenticated, smallBody],
      summary: 'Update a subscription',
      body: subscriptionUpdate,
      response: 'SubscriptionResponse',
    }),
    async (c) => {
      const row = await loadSubscription(c, true);
      const body = await readBody(c, subscriptionUpdate);
      return c.json({ data: toSubscriptionView(await updateSubscription(c.get('app'), row, body)) });
    },
  )
  .openapi(
    operation({ method: 'delete', path: `${base}/{subscriptionId}`, middleware: authenticated, summary: 'Delete a subscription', success: 204 }),
    async (c) => {
      const row = await loadSubscription(c, true);
      await deleteSubscription(c.get('app').db, row);
      return c.body(null, 204);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: `${base}/{subscriptionId}/test`,
      middleware: authenticated,
      summary: 'Send a signed test event',
      success: 202,
      response: 'DeliveryResponse',
    }),
    async (c) => {
      const row = await loadSubscription(c, true);
      return c.json({ data: await sendTestEvent(c.get('app'), row) }, 202);
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: `${base}/{subscriptionId}/deliveries`,
      middleware: authenticated,
      summary: 'Delivery history with attempts',
      query: deliveryListQuery,
      errors: [503],
      response: 'DeliveryPage',
    }),
    async (c) => {
      const row = await loadSubscription(c);
      const query = readQuery(c, deliveryListQuery);
      return c.json(await listDeliveries(c.get('app').db, row.id, query, c.get('app').files.storage));
    },
  )
  // Also reachable under its subscription, for clients that build the path from the history they listed.
  .openapi(
    operation({
      method: 'post',
      path: `${base}/{subscriptionId}/deliveries/{deliveryId}/redeliver`,
      middleware: authenticated,
      summary: 'Send a delivery of this subscription again (the same as the route without the subscription id)',
      success: 202,
      errors: [410, 503],
      response: 'DeliveryResponse',
    }),
    async (c) => {
      const row = await loadSubscription(c, true);
      const deliveryId = parseId(c.req.param('deliveryId'), 'delivery id', 'deliveryId');
      return c.json({ data: await redeliver(c.get('app'), { workflowId: row.workflowId, subscriptionId: row.id }, deliveryId) }, 202);
    },
  );
