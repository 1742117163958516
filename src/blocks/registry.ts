// Every runnable block type. Adding a block type means adding its module and one line here. Containers (loop,
// parallel) are not listed: the engine runs them, and their settings live in the state's loops / parallels.
import type { BlockCatalog } from '../workflow/index.js';
import { agentBlock } from './agent.js';
import { apiBlock } from './api.js';
import { apiTriggerBlock } from './api-trigger.js';
import { approvalBlock } from './approval.js';
import { chatTriggerBlock } from './chat-trigger.js';
import { conditionBlock } from './condition.js';
import { databaseBlock } from './database.js';
import { emailBlock } from './email.js';
import { functionBlock } from './function.js';
import { redisBlock } from './redis.js';
import { publishBlock } from './publish.js';
import { queueTriggerBlock } from './queue-trigger.js';
import { responseBlock } from './response.js';
import { saveTimeSchema } from './save-time-schema.js';
import { scheduleTriggerBlock } from './schedule-trigger.js';
import type { BlockDefinition } from './types.js';
import { variablesBlock } from './variables.js';
import { waitBlock } from './wait.js';
import { webhookTriggerBlock } from './webhook-trigger.js';
import { workflowBlock } from './workflow.js';

/**
 * Forgets a definition's config type so definitions can share one table. Sound because the engine only ever
 * hands a handler the config produced by that same definition's schema.
 */
export function eraseConfigType<Config>(definition: BlockDefinition<Config>): BlockDefinition {
  return definition as unknown as BlockDefinition;
}

const definitions: BlockDefinition[] = [
  eraseConfigType(apiTriggerBlock),
  eraseConfigType(webhookTriggerBlock),
  eraseConfigType(scheduleTriggerBlock),
  eraseConfigType(chatTriggerBlock),
  eraseConfigType(queueTriggerBlock),
  eraseConfigType(apiBlock),
  eraseConfigType(publishBlock),
  eraseConfigType(functionBlock),
  eraseConfigType(conditionBlock),
  eraseConfigType(responseBlock),
  eraseConfigType(variablesBlock),
  eraseConfigType(waitBlock),
  eraseConfigType(agentBlock),
  eraseConfigType(workflowBlock),
  eraseConfigType(approvalBlock),
  eraseConfigType(databaseBlock),
  eraseConfigType(redisBlock),
  eraseConfigType(emailBlock),
];

export const blockRegistry: Record<string, BlockDefinition> = Object.fromEntries(
  definitions.map((definition) => [definition.type, definition]),
);

/** What validateState needs to know of each block type, with save-time leniency for referenced values. */
export function catalogOf(registry: Record<string, BlockDefinition>): BlockCatalog {
  return Object.fromEntries(
    Object.values(registry).map((definition) => [
      definition.type,
      {
        configSchema: saveTimeSchema(definition.configSchema, definition.writtenConfigIssues?.bind(definition)),
        ...(definition.trigger ? { trigger: definition.trigger } : {}),
        ...(definition.keepsReference ? { keepsReference: definition.keepsReference } : {}),
      },
    ]),
  );
}

export const blockCatalog: BlockCatalog = catalogOf(blockRegistry);
