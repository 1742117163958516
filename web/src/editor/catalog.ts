// What the editor knows of each block type: its palette entry, default config, form fields and outputs.
// It mirrors the config schemas in src/blocks/*.ts (the server validates; this only drives the forms).
import type { Block, WorkflowState } from '../types.js';
import { normalizeBlockName as normalizeName } from '../../../src/workflow/names.js';

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'code'
  | 'number'
  | 'select'
  | 'json'
  | 'keyValue'
  | 'conditions'
  | 'inputFormat'
  | 'assignments'
  /** A select of the workspace's other workflows (the workflow block's `workflowId`). */
  | 'workflow'
  /** Key/value rows saved as a record: field name → value (the workflow block's `input`). */
  | 'inputMap';

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  options?: string[];
  placeholder?: string;
  help?: string;
  /** Shown only when this returns true for the current config. */
  when?: (config: Record<string, unknown>) => boolean;
}

export interface BlockTypeSpec {
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
  fields: FieldSpec[];
  outputs: string[];
  defaultConfig: () => Record<string, unknown>;
}

const shortId = () => Math.random().toString(36).slice(2, 8);

/** Bounds of an approval block's time-out, as src/blocks/approval.ts has them. */
export const APPROVAL_TIMEOUT = { min: 1_000, max: 2_592_000_000 } as const;

export const BLOCK_TYPES: BlockTypeSpec[] = [
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
    ],
    outputs: ['content', 'model', 'tokens', 'cost'],
    defaultConfig: () => ({ provider: 'openai', model: 'gpt-4o-mini', systemPrompt: '', userPrompt: 'Say hello' }),
  },
  {
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
  },
  {
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
  },
  {
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
        help: `${APPROVAL_TIMEOUT.min} ms to ${APPROVAL_TIMEOUT.max} ms (30 days); then the default decision applies.`,
      },
      {
        key: 'defaultDecision',
        label: 'Default decision (at the time-out)',
        kind: 'select',
        options: ['reject', 'approve'],
      },
    ],
    outputs: ['approved', 'data', 'decidedBy', 'decidedAt'],
    defaultConfig: () => ({ message: 'Approve this run?', defaultDecision: 'reject' }),
  },
  {
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
  },
  {
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
  },
  {
    type: 'loop',
    label: 'Loop',
    baseName: 'Loop',
    group: 'Containers',
    color: '#2f6f9f',
    icon: '↻',
    description: 'Repeat the blocks inside',
    container: true,
    fields: [
      { key: 'loopType', label: 'Loop type', kind: 'select', options: ['for', 'forEach'] },
      { key: 'iterations', label: 'Iterations', kind: 'number', when: (c) => c.loopType !== 'forEach' },
      {
        key: 'forEachItems',
        label: 'Items (reference or JSON array)',
        kind: 'text',
        placeholder: '<start.items>',
        when: (c) => c.loopType === 'forEach',
      },
    ],
    outputs: ['results'],
    defaultConfig: () => ({ loopType: 'for', iterations: 3 }),
  },
  {
    type: 'parallel',
    label: 'Parallel',
    baseName: 'Parallel',
    group: 'Containers',
    color: '#6a4fb3',
    icon: '∥',
    description: 'Run the blocks inside side by side',
    container: true,
    fields: [
      { key: 'parallelType', label: 'Parallel type', kind: 'select', options: ['count', 'collection'] },
      { key: 'count', label: 'Count', kind: 'number', when: (c) => c.parallelType !== 'collection' },
      {
        key: 'distribution',
        label: 'Items (reference or JSON array)',
        kind: 'text',
        placeholder: '<start.items>',
        when: (c) => c.parallelType === 'collection',
      },
    ],
    outputs: ['results'],
    defaultConfig: () => ({ parallelType: 'count', count: 2 }),
  },
];

export const BLOCK_TYPE_BY_NAME: Record<string, BlockTypeSpec> = Object.fromEntries(BLOCK_TYPES.map((t) => [t.type, t]));

export function specOf(type: string): BlockTypeSpec {
  return (
    BLOCK_TYPE_BY_NAME[type] ?? {
      type,
      label: type,
      baseName: type,
      group: 'Blocks',
      color: '#888',
      icon: '?',
      description: 'Unknown block type',
      fields: [],
      outputs: [],
      defaultConfig: () => ({}),
    }
  );
}

/** How references find blocks by name: the server's own rule (src/workflow/names.ts). */
export { normalizeBlockName as normalizeName } from '../../../src/workflow/names.js';

/** "API 1", "API 2"… the first base name not yet taken (names compare lowercased without spaces). */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map(normalizeName));
  if (!used.has(normalizeName(base)) && base === 'Start') return base;
  for (let n = 1; ; n++) {
    const candidate = `${base} ${n}`;
    if (!used.has(normalizeName(candidate))) return candidate;
  }
}

export function newBlockId(): string {
  return `b_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** A new workflow starts with its API trigger, the way most are called. */
export function starterState(): WorkflowState {
  const id = newBlockId();
  const start: Block = {
    id,
    type: 'api_trigger',
    name: 'Start',
    position: { x: 80, y: 200 },
    enabled: true,
    config: { inputFormat: [] },
  };
  return { blocks: { [id]: start }, edges: [], loops: {}, parallels: {} };
}

/** Bounds and defaults of a block policy, as src/workflow/policy.ts has them (the server checks). */
export const POLICY = {
  maxAttempts: 10,
  defaultAttempts: 3,
  backoffMs: 1_000,
  backoffFactor: 2,
  maxBackoffMs: 600_000,
  maxBackoffFactor: 10,
  maxTimeoutMs: 3_600_000,
} as const;

/** Containers take a time limit and onError, but are never retried as a whole. */
export const canRetry = (type: string) => !specOf(type).container;

/** Container settings live in state.loops / state.parallels; the editor keeps them in the block's config. */
export const CONTAINER_SETTING_KEYS: Record<string, string[]> = {
  loop: ['loopType', 'iterations', 'forEachItems'],
  parallel: ['parallelType', 'count', 'distribution'],
};
