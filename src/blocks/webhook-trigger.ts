// The webhook trigger: starts a run from `POST /api/webhooks/trigger/{path}`. The HTTP layer verifies the
// optional HMAC secret and hands over the request as {body, headers, query}.
import { z } from 'zod';
import { isPlainRecord } from './values.js';
import { webhookTriggerForm } from './forms.js';
import { triggerBlock } from './define-block.js';

export const webhookTriggerConfigSchema = z.object({
  path: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/, 'must be URL path segments of letters, digits and . _ ~ -'),
  secret: z.string().optional(),
});
export type WebhookTriggerConfig = z.infer<typeof webhookTriggerConfigSchema>;

export const webhookTriggerBlock = triggerBlock<WebhookTriggerConfig>('webhook', webhookTriggerForm, webhookTriggerConfigSchema, async (ctx) => {
  const input = ctx.trigger.input;
  return {
    output: {
      body: input.body ?? null,
      headers: isPlainRecord(input.headers) ? input.headers : {},
      query: isPlainRecord(input.query) ? input.query : {},
    },
  };
});
