// The trigger blocks of a deployment that register something outside the run itself (an inbound path, a cron
// schedule). Their configs are parsed strictly here: a save may defer a value holding a reference to run time,
// but a path or a cron must be literal to be registered, so such a value is refused at deploy.
import type { z } from 'zod';
import { queueTriggerConfigSchema, type QueueTriggerConfig } from '../blocks/queue-trigger.js';
import { scheduleTriggerConfigSchema, type ScheduleTriggerConfig } from '../blocks/schedule-trigger.js';
import { webhookTriggerConfigSchema, type WebhookTriggerConfig } from '../blocks/webhook-trigger.js';
import { badRequest, type ErrorDetail } from '../errors.js';
import type { Block, WorkflowState } from '../workflow/index.js';

interface Parsed<Config> {
  blockId: string;
  config: Config;
}

function enabledBlocks(state: WorkflowState, type: string): Block[] {
  return Object.values(state.blocks).filter((block) => block.type === type && block.enabled !== false);
}

function parseAll<Config>(blocks: Block[], schema: z.ZodType<Config>): Parsed<Config>[] {
  const problems: ErrorDetail[] = [];
  const parsed: Parsed<Config>[] = [];
  for (const block of blocks) {
    const result = schema.safeParse(block.config);
    if (result.success) parsed.push({ blockId: block.id, config: result.data });
    else {
      for (const issue of result.error.issues) {
        problems.push({ path: ['state', 'blocks', block.id, 'config', ...issue.path.map(String)].join('.'), message: issue.message });
      }
    }
  }
  if (problems.length > 0) throw badRequest('A trigger of this workflow cannot be registered', problems);
  return parsed;
}

export function webhookTriggers(state: WorkflowState): Parsed<WebhookTriggerConfig>[] {
  const parsed = parseAll(enabledBlocks(state, 'webhook_trigger'), webhookTriggerConfigSchema);
  const seen = new Map<string, string>();
  for (const { blockId, config } of parsed) {
    const other = seen.get(config.path);
    if (other) {
      throw badRequest('Two webhook triggers of this workflow use the same path', [
        { path: `state.blocks.${blockId}.config.path`, message: `"${config.path}" is also the path of block ${other}` },
      ]);
    }
    seen.set(config.path, blockId);
  }
  return parsed;
}

export function scheduleTriggers(state: WorkflowState): Parsed<ScheduleTriggerConfig>[] {
  return parseAll(enabledBlocks(state, 'schedule_trigger'), scheduleTriggerConfigSchema);
}

/**
 * Queue triggers, checked at deploy: a worker must be able to consume them, so each names a credential and a queue,
 * topic or subject (which one its credential's type needs is queue-trigger-fields.ts's check).
 */
export function queueTriggers(state: WorkflowState): Parsed<QueueTriggerConfig>[] {
  const parsed = parseAll(enabledBlocks(state, 'queue_trigger'), queueTriggerConfigSchema);
  const problems: ErrorDetail[] = [];
  for (const { blockId, config } of parsed) {
    if (!config.credentialId.trim()) problems.push({ path: `state.blocks.${blockId}.config.credentialId`, message: 'is required' });
    if (!config.queue && !config.topic && !config.subject) {
      problems.push({
        path: `state.blocks.${blockId}.config`,
        message: 'needs a queue (RabbitMQ), a topic (MQTT) or a subject (NATS), following its credential',
      });
    }
  }
  if (problems.length > 0) throw badRequest('A trigger of this workflow cannot be registered', problems);
  return parsed;
}
