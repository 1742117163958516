// How the editor presents each block type: palette entry, form fields, outputs and the config a new block starts
// with. It is part of the block catalogue but pure data (it imports only the workflow model), so the web app imports
// this module as it is. Each block definition points at its form (BlockDefinition.form), so renaming a config key
// without its field is a type error in the server's typecheck; test/blocks/forms.test.ts checks every default config
// and select option against the block's config schema.
import type { CredentialType } from '../connectors/credential-data.js';
import type { Loop, Parallel } from '../workflow/index.js';
// From limits.ts itself, not the index: the web app's workflow list imports this module, and the index brings zod.
import { MAX_APPROVAL_TIMEOUT_MS, MIN_APPROVAL_TIMEOUT_MS } from '../workflow/limits.js';

/**
 * How a field is edited. `workflow`: a select of the workspace's other workflows (the workflow block's `workflowId`);
 * `inputMap`: key/value rows saved as a record, field name → value (the workflow block's `input`, the publish block's
 * `headers`); `tools`: the agent block's tool entries (workflow, http, function and mcp), each with its own small
 * form; `credential`: a select of
 * the workspace's stored credentials of the field's `credentialTypes` (saved as the credential's id). `operation`: a select of the
 * workspace's OpenAPI connectors and their operations (the API block's `operation`); `operationParameters`: one field
 * per parameter of that operation, and its body (the API block's `parameters`).
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
  'credential',
  'operation',
  'operationParameters',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface FormField<Key extends string = string> {
  key: Key;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  placeholder?: string;
  help?: string;
  /** For a `credential` field: the credential types the block accepts (the picker offers only those). */
  credentialTypes?: readonly CredentialType[];
  /** Shown only when this returns true for the current config. */
  when?: (config: Record<string, unknown>) => boolean;
  /**
   * Shown only when the block's chosen credential (`credentialId`) is of one of these types, and while none is chosen
   * or its type is not known (so nothing set is hidden from view). The config itself keeps hidden fields' values.
   */
  forCredentialTypes?: readonly CredentialType[];
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

/** A connector block's credential field: a picker of the workspace's credentials of these types. */
const credentialField = (credentialTypes: CredentialType[], types: string) =>
  ({
    key: 'credentialId',
    label: 'Credential',
    kind: 'credential',
    credentialTypes,
    help: `A ${types} credential of this workspace (Credentials page).`,
  }) as const;

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
  description: 'Start for each message of a RabbitMQ queue, an MQTT topic or a NATS JetStream subject',
  trigger: true,
  fields: [
    { ...credentialField(['amqp', 'mqtt', 'nats'], 'amqp, mqtt or nats'), help: 'An amqp, mqtt or nats credential: the broker follows its type.' },
    { key: 'queue', label: 'Queue (RabbitMQ)', kind: 'text', help: 'The queue to consume (declared durable if it does not exist).', forCredentialTypes: ['amqp'] },
    { key: 'topic', label: 'Topic (MQTT)', kind: 'text', placeholder: 'sensors/+/temp', help: '+ and # allowed.', forCredentialTypes: ['mqtt'] },
    { key: 'subject', label: 'Subject (NATS)', kind: 'text', placeholder: 'orders.created', help: 'A JetStream stream must capture it.', forCredentialTypes: ['nats'] },
    { key: 'stream', label: 'Stream (NATS, optional)', kind: 'text', help: 'By default the stream that captures the subject.', forCredentialTypes: ['nats'] },
    { key: 'durable', label: 'Durable consumer (NATS, optional)', kind: 'text', help: 'By default sluice-<workflow>-<block>.', forCredentialTypes: ['nats'] },
    { key: 'concurrency', label: 'Runs at a time', kind: 'number', placeholder: '4', help: 'Per worker process (RabbitMQ, MQTT); across all of them (NATS).' },
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

/** The API block calls an operation of an OpenAPI connector rather than a URL of its own. */
const hasOperation = (config: Record<string, unknown>) => typeof config.operation === 'object' && config.operation !== null;

export const apiForm = form({
  type: 'api',
  label: 'API',
  baseName: 'API',
  group: 'Blocks',
  color: '#1f7ae0',
  icon: '⇄',
  description: 'Send an HTTP request',
  fields: [
    { key: 'operation', label: 'Operation (OpenAPI connector)', kind: 'operation', help: 'Optional: an operation of an imported OpenAPI document' },
    { key: 'parameters', label: 'Parameters', kind: 'operationParameters', when: (c) => hasOperation(c) },
    { key: 'url', label: 'URL', kind: 'text', placeholder: 'https://api.example.com/items/<start.id>', when: (c) => !hasOperation(c) },
    {
      key: 'url',
      label: 'Server URL (optional)',
      kind: 'text',
      placeholder: "the document's first server",
      help: "Replaces the document's server URL, e.g. for a staging host",
      when: (c) => hasOperation(c),
    },
    { key: 'method', label: 'Method', kind: 'select', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], when: (c) => !hasOperation(c) },
    { key: 'queryParams', label: 'Query parameters', kind: 'keyValue', when: (c) => !hasOperation(c) },
    { key: 'headers', label: 'Headers', kind: 'keyValue' },
    {
      key: 'credentialId',
      label: 'Credential (optional)',
      kind: 'credential',
      credentialTypes: ['http'],
      help: 'An http credential: its bearer token, basic auth, API key or OAuth2 token is added to the request.',
    },
    {
      key: 'body',
      label: 'Body (JSON)',
      kind: 'json',
      when: (c) => !hasOperation(c) && ['POST', 'PUT', 'PATCH'].includes(String(c.method ?? 'GET').toUpperCase()),
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
    { ...credentialField(['amqp', 'mqtt', 'nats'], 'amqp, mqtt or nats'), help: 'An amqp, mqtt or nats credential: the broker follows its type.' },
    { key: 'message', label: 'Message (text or JSON)', kind: 'json' },
    { key: 'queue', label: 'Queue (RabbitMQ)', kind: 'text', help: 'Through the default exchange; or leave empty and give an exchange.', forCredentialTypes: ['amqp'] },
    { key: 'exchange', label: 'Exchange (RabbitMQ)', kind: 'text', forCredentialTypes: ['amqp'] },
    { key: 'routingKey', label: 'Routing key (RabbitMQ)', kind: 'text', forCredentialTypes: ['amqp'] },
    { key: 'persistent', label: 'Persistent (RabbitMQ)', kind: 'select', options: ['true', 'false'], forCredentialTypes: ['amqp'] },
    { key: 'topic', label: 'Topic (MQTT)', kind: 'text', forCredentialTypes: ['mqtt'] },
    { key: 'qos', label: 'QoS (MQTT)', kind: 'select', options: ['0', '1'], help: 'With 1 the block waits for the broker’s PUBACK.', forCredentialTypes: ['mqtt'] },
    { key: 'retain', label: 'Retain (MQTT)', kind: 'select', options: ['false', 'true'], forCredentialTypes: ['mqtt'] },
    { key: 'subject', label: 'Subject (NATS)', kind: 'text', forCredentialTypes: ['nats'] },
    { key: 'jetstream', label: 'JetStream (NATS)', kind: 'select', options: ['false', 'true'], help: 'Waits for the stream’s ack (stream, seq).', forCredentialTypes: ['nats'] },
    {
      key: 'headers',
      label: 'Headers',
      kind: 'inputMap',
      placeholder: 'name',
      help: 'Sent with the message: AMQP headers, MQTT 5 user properties, NATS headers (references allowed).',
    },
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
    {
      key: 'memory',
      label: 'Memory (optional)',
      kind: 'json',
      placeholder: '{ "key": "<chat.conversationId>", "lastMessages": 20 }',
      help: 'Keeps the conversation per key across runs, e.g. { "key": "<chat.conversationId>", "lastMessages": 20 }: the last messages (at most 200) come before the prompt.',
    },
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

// Connector blocks: each names a stored credential (docs/api.md "Credentials") by its id.

export const databaseForm = form({
  type: 'database',
  label: 'Database',
  baseName: 'Database',
  group: 'Blocks',
  color: '#336791',
  icon: '⛁',
  description: 'Run one SQL statement on PostgreSQL or MySQL',
  fields: [
    credentialField(['postgres', 'mysql'], 'postgres or mysql'),
    {
      key: 'query',
      label: 'SQL',
      kind: 'textarea',
      placeholder: 'select * from orders where customer_id = $1',
      help: 'One statement. Placeholders $1, $2… (PostgreSQL) or ? (MySQL) take the parameters in order; references go in the parameters, never in the SQL.',
    },
    { key: 'params', label: 'Parameters (JSON array)', kind: 'json', placeholder: '["<start.customerId>"]' },
    { key: 'maxRows', label: 'Max rows', kind: 'number', placeholder: '1000', help: 'Rows kept in the output (at most 10,000); more set truncated.' },
    { key: 'timeoutMs', label: 'Time-out (ms)', kind: 'number', placeholder: '30000' },
  ],
  outputs: ['rows', 'rowCount', 'truncated', 'error'],
  defaultConfig: () => ({ credentialId: '', query: 'select 1 as one', params: [] }),
});

const REDIS_NEEDS_KEY = ['get', 'set', 'del', 'incr', 'hget', 'hset', 'lpush', 'rpop'];

export const redisForm = form({
  type: 'redis',
  label: 'Redis',
  baseName: 'Redis',
  group: 'Blocks',
  color: '#d82c20',
  icon: '◆',
  description: 'Run a Redis command',
  fields: [
    credentialField(['redis'], 'redis'),
    { key: 'operation', label: 'Operation', kind: 'select', options: ['get', 'set', 'del', 'incr', 'hget', 'hset', 'lpush', 'rpop', 'publish'] },
    { key: 'key', label: 'Key', kind: 'text', when: (c) => REDIS_NEEDS_KEY.includes(String(c.operation ?? 'get')) },
    { key: 'field', label: 'Hash field', kind: 'text', when: (c) => ['hget', 'hset'].includes(String(c.operation)) },
    { key: 'value', label: 'Value', kind: 'text', help: 'Text as it is; a reference to an object or list is stored as JSON.', when: (c) => ['set', 'hset', 'lpush'].includes(String(c.operation)) },
    { key: 'ttl', label: 'Expires after (seconds, optional)', kind: 'number', when: (c) => c.operation === 'set' },
    { key: 'channel', label: 'Channel', kind: 'text', when: (c) => c.operation === 'publish' },
    { key: 'message', label: 'Message', kind: 'textarea', when: (c) => c.operation === 'publish' },
  ],
  outputs: ['result', 'error'],
  defaultConfig: () => ({ credentialId: '', operation: 'get', key: '' }),
});

export const emailForm = form({
  type: 'email',
  label: 'Email',
  baseName: 'Email',
  group: 'Blocks',
  color: '#8a5a00',
  icon: '✉',
  description: 'Send an email over SMTP',
  fields: [
    credentialField(['smtp'], 'smtp'),
    { key: 'from', label: 'From', kind: 'text', placeholder: 'Sluice <bot@example.com>' },
    { key: 'to', label: 'To', kind: 'text', placeholder: 'ana@example.com, Bo <bo@example.com>' },
    { key: 'cc', label: 'Cc', kind: 'text' },
    { key: 'bcc', label: 'Bcc', kind: 'text' },
    { key: 'subject', label: 'Subject', kind: 'text' },
    { key: 'text', label: 'Text', kind: 'textarea' },
    { key: 'html', label: 'HTML (optional)', kind: 'textarea' },
    { key: 'attachments', label: 'Attachments', kind: 'text', placeholder: '<start.files>', help: 'A reference to uploaded files (a files input field).' },
  ],
  outputs: ['messageId', 'accepted', 'rejected', 'error'],
  defaultConfig: () => ({ credentialId: '', from: '', to: '', subject: '', text: '' }),
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
  databaseForm,
  redisForm,
  emailForm,
  responseForm,
  loopForm,
  parallelForm,
];
