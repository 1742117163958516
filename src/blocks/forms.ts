// How the editor presents each block type: palette entry, form fields, outputs and the config a new block starts
// with. It is part of the block catalogue but pure data (it imports only the workflow model), so the web app imports
// this module as it is. Each block definition points at its form (BlockDefinition.form), so renaming a config key
// without its field is a type error in the server's typecheck; test/blocks/forms.test.ts checks every default config
// and select option against the block's config schema.
import type { Loop, Parallel } from '../workflow/index.js';
// From limits.ts itself, not the index: the web app's workflow list imports this module, and the index brings zod.
import { MAX_APPROVAL_TIMEOUT_MS, MIN_APPROVAL_TIMEOUT_MS } from '../workflow/limits.js';

/**
 * How a field is edited. `workflow`: a select of the workspace's other workflows (the workflow block's `workflowId`);
 * `inputMap`: key/value rows saved as a record, field name → value (the workflow block's `input`); `tools`: the agent
 * block's tool entries (workflow, http, function and mcp), each with its own small form.
 */
export const FIELD_KINDS = [
  'text',
  'textarea',
  'code',
  'number',
  'select',
  'json',
  'keyValue',
  'conditions',
  'inputFormat',
  'assignments',
  'workflow',
  'inputMap',
  'tools',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface FormField<Key extends string = string> {
  key: Key;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  placeholder?: string;
  help?: string;
  /** Shown only when this returns true for the current config. */
  when?: (config: Record<string, unknown>) => boolean;
}

export interface BlockForm<Key extends string = string> {
  type: string;
  label: string;
  /** Base of generated names: "API 1", "Condition 2"… */
  baseName: string;
  group: 'Triggers' | 'Blocks' | 'Containers';
  color: string;
  icon: string;
  description: string;
  trigger?: boolean;
  container?: boolean;
  /** No outgoing edges make sense (response ends the run). */
  terminal?: boolean;
  fields: readonly FormField<Key>[];
  outputs: readonly string[];
  defaultConfig: () => Record<string, unknown>;
}

/** Keeps the field keys as literal types, so a definition's `form` can be checked against its config's keys. */
function form<const Key extends string>(spec: BlockForm<Key>): BlockForm<Key> {
  return spec;
}

const shortId = () => Math.random().toString(36).slice(2, 8);

export const apiTriggerForm = form({
  type: 'api_trigger',
  label: 'API trigger',
  baseName: 'Start',
  group: 'Triggers',
  color: '#2451d6',
  icon: '⇥',
  description: 'Start from POST /api/workflows/{id}/execute',
  trigger: true,
  fields: [{ key: 'inputFormat', label: 'Input Format', kind: 'inputFormat' }],
  outputs: ['input'],
  defaultConfig: () => ({ inputFormat: [] }),
});

export const webhookTriggerForm = form({
  type: 'webhook_trigger',
  label: 'Webhook trigger',
  baseName: 'Webhook',
  group: 'Triggers',
  color: '#7b3fc4',
  icon: '⚓',
  description: 'Start from POST /api/webhooks/trigger/{path}',
  trigger: true,
  fields: [
    { key: 'path', label: 'Path', kind: 'text', placeholder: 'orders/created' },
    { key: 'secret', label: 'Secret (optional HMAC check)', kind: 'text' },
  ],
  outputs: ['body', 'headers', 'query'],
  defaultConfig: () => ({ path: `hook-${shortId()}` }),
});

export const scheduleTriggerForm = form({
  type: 'schedule_trigger',
  label: 'Schedule trigger',
  baseName: 'Schedule',
  group: 'Triggers',
  color: '#0f8a6a',
  icon: '◔',
  description: 'Start on a cron schedule',
  trigger: true,
  fields: [
    { key: 'cron', label: 'Cron', kind: 'text', placeholder: '0 * * * *', help: '5 fields, or 6 with seconds first' },
    { key: 'timezone', label: 'Time zone', kind: 'text', placeholder: 'UTC' },
  ],
  outputs: ['firedAt'],
  defaultConfig: () => ({ cron: '0 * * * *', timezone: 'UTC' }),
});

export const queueTriggerForm = form({
  type: 'queue_trigger',
  label: 'Queue trigger',
  baseName: 'Queue',
  group: 'Triggers',
  color: '#9a3412',
  icon: '⇶',
  description: 'Start for each message of a RabbitMQ queue, MQTT topic or NATS subject',
  trigger: true,
  fields: [
    { key: 'credentialId', label: 'Credential (amqp, mqtt or nats)', kind: 'text', help: 'The broker follows the credential’s type.' },
    { key: 'queue', label: 'Queue (RabbitMQ)', kind: 'text' },
    { key: 'topic', label: 'Topic (MQTT)', kind: 'text' },
    { key: 'subject', label: 'Subject (NATS)', kind: 'text' },
    { key: 'concurrency', label: 'Runs at a time', kind: 'number', placeholder: '4' },
    {
      key: 'redeliverOnError',
      label: 'Redeliver a message whose run fails',
      kind: 'select',
      options: ['false', 'true'],
      help: 'Otherwise a failed run’s message is acknowledged; its log says the run failed.',
    },
  ],
  outputs: ['body', 'headers', 'properties'],
  defaultConfig: () => ({ credentialId: '' }),
});

export const chatTriggerForm = form({
  type: 'chat_trigger',
  label: 'Chat trigger',
  baseName: 'Chat',
  group: 'Triggers',
  color: '#b45a09',
  icon: '✉',
  description: 'Start from POST /api/chat/{id}',
  trigger: true,
  fields: [],
  outputs: ['message', 'conversationId'],
  defaultConfig: () => ({}),
});

export const apiForm = form({
  type: 'api',
  label: 'API',
  baseName: 'API',
  group: 'Blocks',
  color: '#1f7ae0',
  icon: '⇄',
  description: 'Send an HTTP request',
  fields: [
    { key: 'url', label: 'URL', kind: 'text', placeholder: 'https://api.example.com/items/<start.id>' },
    { key: 'method', label: 'Method', kind: 'select', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    { key: 'queryParams', label: 'Query parameters', kind: 'keyValue' },
    { key: 'headers', label: 'Headers', kind: 'keyValue' },
    {
      key: 'body',
      label: 'Body (JSON)',
      kind: 'json',
      when: (c) => ['POST', 'PUT', 'PATCH'].includes(String(c.method ?? 'GET').toUpperCase()),
    },
    { key: 'timeoutMs', label: 'Time-out (ms)', kind: 'number', placeholder: '30000' },
    { key: 'retries', label: 'Retries', kind: 'number', placeholder: '3' },
  ],
  outputs: ['data', 'status', 'headers', 'error'],
  defaultConfig: () => ({ url: '', method: 'GET', queryParams: [], headers: [] }),
});

export const publishForm = form({
  type: 'publish',
  label: 'Publish',
  baseName: 'Publish',
  group: 'Blocks',
  color: '#c2410c',
  icon: '➚',
  description: 'Publish a message to RabbitMQ, MQTT or NATS',
  fields: [
    { key: 'credentialId', label: 'Credential (amqp, mqtt or nats)', kind: 'text', help: 'The broker follows the credential’s type.' },
    { key: 'message', label: 'Message (text or JSON)', kind: 'json' },
    { key: 'queue', label: 'Queue (RabbitMQ)', kind: 'text', help: 'Through the default exchange; or leave empty and give an exchange.' },
    { key: 'exchange', label: 'Exchange (RabbitMQ)', kind: 'text' },
    { key: 'routingKey', label: 'Routing key (RabbitMQ)', kind: 'text' },
    { key: 'persistent', label: 'Persistent (RabbitMQ)', kind: 'select', options: ['true', 'false'] },
    { key: 'topic', label: 'Topic (MQTT)', kind: 'text' },
    { key: 'qos', label: 'QoS (MQTT)', kind: 'select', options: ['0', '1'], help: 'With 1 the block waits for the broker’s PUBACK.' },
    { key: 'retain', label: 'Retain (MQTT)', kind: 'select', options: ['false', 'true'] },
    { key: 'subject', label: 'Subject (NATS)', kind: 'text' },
    { key: 'jetstream', label: 'JetStream (NATS)', kind: 'select', options: ['false', 'true'], help: 'Waits for the stream’s ack (stream, seq).' },
  ],
  outputs: ['accepted', 'broker', 'queue', 'exchange', 'routingKey', 'topic', 'qos', 'subject', 'stream', 'seq', 'error'],
  defaultConfig: () => ({ credentialId: '', message: '' }),
});

export const functionForm = form({
  type: 'function',
  label: 'Function',
  baseName: 'Function',
  group: 'Blocks',
  color: '#5b6472',
  icon: 'ƒ',
  description: 'Run JavaScript in a sandbox',
  fields: [{ key: 'code', label: 'Code (async function body; return the result)', kind: 'code' }],
  outputs: ['result', 'stdout'],
  defaultConfig: () => ({ code: 'return { ok: true };' }),
});

export const conditionForm = form({
  type: 'condition',
  label: 'Condition',
  baseName: 'Condition',
  group: 'Blocks',
  color: '#c27c0e',
  icon: '◇',
  description: 'Branch on expressions',
  fields: [{ key: 'conditions', label: 'Branches', kind: 'conditions' }],
  outputs: ['selectedOption', 'conditionResult'],
  defaultConfig: () => ({
    conditions: [
      { id: shortId(), title: 'if', expression: '' },
      { id: shortId(), title: 'else', expression: '' },
    ],
  }),
});

export const agentForm = form({
  type: 'agent',
  label: 'Agent',
  baseName: 'Agent',
  group: 'Blocks',
  color: '#a02d8e',
  icon: '✦',
  description: 'Call a language model',
  fields: [
    { key: 'provider', label: 'Provider', kind: 'select', options: ['openai', 'anthropic'] },
    { key: 'model', label: 'Model', kind: 'text', placeholder: 'gpt-4o-mini' },
    { key: 'systemPrompt', label: 'System prompt', kind: 'textarea' },
    { key: 'userPrompt', label: 'User prompt', kind: 'textarea' },
    { key: 'temperature', label: 'Temperature', kind: 'number' },
    { key: 'maxTokens', label: 'Max tokens', kind: 'number' },
    { key: 'responseFormat', label: 'Response format (JSON Schema, optional)', kind: 'json' },
    { key: 'apiKey', label: 'API key (optional; {{ENV}} recommended)', kind: 'text' },
    { key: 'baseUrl', label: 'Base URL (optional)', kind: 'text' },
    { key: 'tools', label: 'Tools', kind: 'tools', help: 'What the model may call: workflows of this workspace, HTTP requests, functions and MCP servers.' },
    { key: 'maxSteps', label: 'Max steps', kind: 'number', placeholder: '10', help: 'Most model calls per run of the block (at most 50).' },
    { key: 'maxCostUsd', label: 'Max cost (USD)', kind: 'number', placeholder: 'none', help: 'The loop stops once its model calls have cost this much.' },
  ],
  outputs: ['content', 'model', 'tokens', 'cost'],
  defaultConfig: () => ({ provider: 'openai', model: 'gpt-4o-mini', systemPrompt: '', userPrompt: 'Say hello' }),
});

export const variablesForm = form({
  type: 'variables',
  label: 'Variables',
  baseName: 'Variables',
  group: 'Blocks',
  color: '#3d7d3a',
  icon: '𝑥',
  description: 'Set workflow variables',
  fields: [{ key: 'assignments', label: 'Assignments', kind: 'assignments' }],
  outputs: [],
  defaultConfig: () => ({ assignments: [] }),
});

export const waitForm = form({
  type: 'wait',
  label: 'Wait',
  baseName: 'Wait',
  group: 'Blocks',
  color: '#6b7280',
  icon: '‖',
  description: 'Pause this branch',
  fields: [{ key: 'ms', label: 'Milliseconds', kind: 'number' }],
  outputs: ['waitedMs'],
  defaultConfig: () => ({ ms: 1000 }),
});

export const approvalForm = form({
  type: 'approval',
  label: 'Approval',
  baseName: 'Approval',
  group: 'Blocks',
  color: '#b7791f',
  icon: '✔',
  description: 'Wait until someone approves or rejects',
  fields: [
    { key: 'message', label: 'Message', kind: 'textarea', help: 'Shown on the Approvals page to whoever decides (references allowed).' },
    {
      key: 'timeoutMs',
      label: 'Time-out (ms, optional)',
      kind: 'number',
      placeholder: 'none: wait until someone decides',
      help: `${MIN_APPROVAL_TIMEOUT_MS} ms to ${MAX_APPROVAL_TIMEOUT_MS} ms (30 days); then the default decision applies.`,
    },
    { key: 'defaultDecision', label: 'Default decision (at the time-out)', kind: 'select', options: ['reject', 'approve'] },
  ],
  outputs: ['approved', 'data', 'decidedBy', 'decidedAt'],
  defaultConfig: () => ({ message: 'Approve this run?', defaultDecision: 'reject' }),
});

export const workflowForm = form({
  type: 'workflow',
  label: 'Workflow',
  baseName: 'Workflow',
  group: 'Blocks',
  color: '#35618f',
  icon: '⇉',
  description: 'Run another workflow of this workspace',
  fields: [
    {
      key: 'workflowId',
      label: 'Workflow',
      kind: 'workflow',
      help: 'Runs its active deployment (its draft in a manual run), started at its API trigger.',
    },
    { key: 'input', label: 'Input (Input Format field → value)', kind: 'inputMap' },
  ],
  outputs: ['result', 'executionId'],
  defaultConfig: () => ({ workflowId: '', input: {} }),
});

export const responseForm = form({
  type: 'response',
  label: 'Response',
  baseName: 'Response',
  group: 'Blocks',
  color: '#0e7c86',
  icon: '↩',
  description: 'Answer the API caller',
  terminal: true,
  fields: [
    { key: 'status', label: 'Status', kind: 'number', placeholder: '200' },
    { key: 'headers', label: 'Headers', kind: 'keyValue' },
    { key: 'body', label: 'Body (JSON)', kind: 'json' },
  ],
  outputs: ['status', 'headers', 'body'],
  defaultConfig: () => ({ status: 200, headers: [], body: { ok: true } }),
});

// Containers are run by the engine, not by a block definition: their settings are the workflow model's Loop and
// Parallel (the state's `loops` / `parallels`), and the `satisfies` ties the fields to those keys. Both repeat their
// inside either a number of times or once per item of a list, so they share one form shape.
function containerForm<const Key extends string>(spec: {
  type: string;
  label: string;
  color: string;
  icon: string;
  description: string;
  /** The select between the two modes; its options are [by number, by items]. */
  mode: { key: Key; label: string; options: readonly [string, string] };
  times: { key: Key; label: string };
  items: { key: Key };
  defaultConfig: () => Record<string, unknown>;
}): BlockForm<Key> {
  const { mode, times, items } = spec;
  const [, byItems] = mode.options;
  return {
    type: spec.type,
    label: spec.label,
    baseName: spec.label,
    group: 'Containers',
    color: spec.color,
    icon: spec.icon,
    description: spec.description,
    container: true,
    fields: [
      { key: mode.key, label: mode.label, kind: 'select', options: mode.options },
      { key: times.key, label: times.label, kind: 'number', when: (c) => c[mode.key] !== byItems },
      {
        key: items.key,
        label: 'Items (reference or JSON array)',
        kind: 'text',
        placeholder: '<start.items>',
        when: (c) => c[mode.key] === byItems,
      },
    ],
    outputs: ['results'],
    defaultConfig: spec.defaultConfig,
  };
}

export const loopForm = containerForm({
  type: 'loop',
  label: 'Loop',
  color: '#2f6f9f',
  icon: '↻',
  description: 'Repeat the blocks inside',
  mode: { key: 'loopType', label: 'Loop type', options: ['for', 'forEach'] },
  times: { key: 'iterations', label: 'Iterations' },
  items: { key: 'forEachItems' },
  defaultConfig: () => ({ loopType: 'for', iterations: 3 }),
}) satisfies BlockForm<keyof Loop & string>;

export const parallelForm = containerForm({
  type: 'parallel',
  label: 'Parallel',
  color: '#6a4fb3',
  icon: '∥',
  description: 'Run the blocks inside side by side',
  mode: { key: 'parallelType', label: 'Parallel type', options: ['count', 'collection'] },
  times: { key: 'count', label: 'Count' },
  items: { key: 'distribution' },
  defaultConfig: () => ({ parallelType: 'count', count: 2 }),
}) satisfies BlockForm<keyof Parallel & string>;

/** Every block type the editor offers, in palette order. */
export const BLOCK_FORMS: readonly BlockForm[] = [
  apiTriggerForm,
  webhookTriggerForm,
  scheduleTriggerForm,
  chatTriggerForm,
  queueTriggerForm,
  apiForm,
  publishForm,
  functionForm,
  conditionForm,
  agentForm,
  variablesForm,
  waitForm,
  approvalForm,
  workflowForm,
  responseForm,
  loopForm,
  parallelForm,
];
