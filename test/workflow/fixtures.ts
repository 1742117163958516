// Builders for workflow documents in tests: terse to write, and raw JSON-like values as a client would send.
import { z } from 'zod';
import { validateState, type BlockCatalog, type Problem } from '../../src/workflow/index.js';

export const catalog: BlockCatalog = {
  api_trigger: {
    trigger: 'api',
    configSchema: z.object({
      inputFormat: z
        .array(z.object({ name: z.string(), type: z.enum(['string', 'number', 'boolean', 'json', 'files']) }))
        .optional(),
    }),
  },
  webhook_trigger: { trigger: 'webhook' },
  schedule_trigger: { trigger: 'schedule' },
  chat_trigger: { trigger: 'chat' },
  api: { configSchema: z.object({ url: z.string().min(1), method: z.enum(['GET', 'POST']).optional(), body: z.unknown().optional() }) },
  function: { configSchema: z.object({ code: z.string() }) },
  condition: {
    configSchema: z.object({
      conditions: z.array(z.object({ id: z.string(), title: z.string(), expression: z.string().optional() })),
    }),
  },
  response: {},
  variables: {},
  wait: {},
};

export interface RawBlock {
  id: string;
  type: string;
  name?: string;
  parentId?: string;
  config?: Record<string, unknown>;
  [key: string]: unknown;
}

export function block(id: string, type: string, extra: Partial<RawBlock> = {}): RawBlock {
  return { id, type, name: id, position: { x: 0, y: 0 }, enabled: true, config: {}, ...extra };
}

let edgeCounter = 0;
export function edge(source: string, target: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  edgeCounter += 1;
  return { id: `e${edgeCounter}-${source}-${target}`, source, target, ...extra };
}

export interface DocParts {
  blocks?: RawBlock[];
  edges?: Array<Record<string, unknown>>;
  loops?: Array<Record<string, unknown>>;
  parallels?: Array<Record<string, unknown>>;
}

export function doc(parts: DocParts): Record<string, unknown> {
  const byId = <T extends { id?: unknown }>(items: T[] = []) => Object.fromEntries(items.map((item) => [String(item.id), item]));
  return {
    blocks: byId(parts.blocks),
    edges: parts.edges ?? [],
    loops: byId(parts.loops),
    parallels: byId(parts.parallels),
  };
}

/** Problems of a document; an empty list when it is valid. */
export function problemsOf(input: unknown): Problem[] {
  const result = validateState(input, catalog);
  return result.ok ? [] : result.problems;
}

/** A starter document that is valid: trigger → api → response. */
export function validDoc(): DocParts {
  return {
    blocks: [
      block('start', 'api_trigger', { name: 'Start' }),
      block('fetch', 'api', { name: 'Fetch User', config: { url: 'https://example.com/users/<api.input.id>' } }),
      block('reply', 'response', { name: 'Reply', config: { body: '<Fetch User.data>' } }),
    ],
    edges: [edge('start', 'fetch'), edge('fetch', 'reply')],
  };
}
