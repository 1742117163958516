// Builders for end-to-end engine tests: real states (validated like a save would), the real registry plus a few
// test-only block types, and a run helper that records every event.
import { z } from 'zod';
import { createConnectionCache } from '../../src/connectors/connection-cache.js';
import { blockRegistry, catalogOf, eraseConfigType } from '../../src/blocks/registry.js';
import type { BlockDefinition, BlockServices } from '../../src/blocks/types.js';
import { runWorkflow, type EngineEvent, type ExecutionResult, type RunWorkflowOptions } from '../../src/engine/index.js';
import { validateState, type Block, type Edge, type Loop, type Parallel, type WorkflowState } from '../../src/workflow/index.js';

export const services: BlockServices = {
  allowPrivateNetwork: true,
  sandbox: { memoryLimitBytes: 32 * 1024 * 1024, timeoutMs: 2_000 },
  providerEnv: () => undefined,
  connections: createConnectionCache(),
};

/** Records concurrency so tests can see how many blocks of a kind ran at once. */
export const gauge = { current: 0, peak: 0 };

const anyConfig = z.record(z.string(), z.unknown());

/** Test-only block types: echo its config, throw, sleep (ignoring or honouring abort), stream chunks. */
export const testBlocks: Record<string, BlockDefinition> = {
  echo: eraseConfigType({
    type: 'echo',
    configSchema: anyConfig,
    async run(ctx) {
      return { output: { ...ctx.config } };
    },
  }),
  boom: eraseConfigType({
    type: 'boom',
    configSchema: z.object({ message: z.string().default('boom') }),
    async run(ctx) {
      throw new Error(ctx.config.message);
    },
  }),
  gauged: eraseConfigType({
    type: 'gauged',
    configSchema: z.object({ ms: z.number().default(20), value: z.unknown().optional() }),
    async run(ctx) {
      gauge.current++;
      gauge.peak = Math.max(gauge.peak, gauge.current);
      try {
        await new Promise((resolve) => setTimeout(resolve, ctx.config.ms));
      } finally {
        gauge.current--;
      }
      return { output: { value: ctx.config.value ?? null } };
    },
  }),
  stubborn: eraseConfigType({
    type: 'stubborn',
    configSchema: z.object({ ms: z.number() }),
    // Ignores its signal on purpose: the engine must still end the run on time.
    async run(ctx) {
      await new Promise((resolve) => setTimeout(resolve, ctx.config.ms));
      return { output: { done: true } };
    },
  }),
  streamer: eraseConfigType({
    type: 'streamer',
    configSchema: z.object({ parts: z.array(z.string()) }),
    async run(ctx) {
      for (const part of ctx.config.parts) ctx.emitChunk(part);
      return { output: { content: ctx.config.parts.join('') } };
    },
  }),
};

/** Calls of the `flaky` block by its `key`, so a test can see how many attempts ran. */
export const calls = new Map<string, number>();

/** Test-only block types for block policies: fail, hang or pay on the first calls, then succeed. */
export const policyBlocks: Record<string, BlockDefinition> = {
  flaky: eraseConfigType({
    type: 'flaky',
    configSchema: z.object({
      key: z.string(),
      /** The first `fail` calls throw. */
      fail: z.number().default(0),
      /** Then the next `hang` calls never return, ignoring their signal: only a time limit ends them. */
      hang: z.number().default(0),
    }),
    async run(ctx) {
      const call = (calls.get(ctx.config.key) ?? 0) + 1;
      calls.set(ctx.config.key, call);
      if (call <= ctx.config.fail) throw new Error(`failure ${call}`);
      if (call <= ctx.config.fail + ctx.config.hang) await new Promise(() => {});
      return { output: { call } };
    },
  }),
  paid: eraseConfigType({
    type: 'paid',
    configSchema: z.object({ key: z.string(), fail: z.number() }),
    // Like an agent whose answer did not fit its format: the call was paid for, and the output says it failed.
    async run(ctx) {
      const call = (calls.get(ctx.config.key) ?? 0) + 1;
      calls.set(ctx.config.key, call);
      const usage = { model: 'test-model', tokens: { prompt: 10, completion: 5, total: 15 }, cost: { input: 0.01, output: 0.02, total: 0.03 } };
      return { output: call <= ctx.config.fail ? { ...usage, error: `unusable answer ${call}` } : { ...usage, content: 'fine' } };
    },
  }),
};

export const registry: Record<string, BlockDefinition> = { ...blockRegistry, ...testBlocks, ...policyBlocks };
const catalog = catalogOf(registry);

export interface BlockOptions {
  name?: string;
  enabled?: boolean;
  parentId?: string;
  policy?: Block['policy'];
}

export function block(id: string, type: string, config: Record<string, unknown> = {}, options: BlockOptions = {}): Block {
  return {
    id,
    type,
    name: options.name ?? id,
    position: { x: 0, y: 0 },
    enabled: options.enabled ?? true,
    ...(options.parentId ? { parentId: options.parentId } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    config,
  };
}

let edgeCounter = 0;
export function edge(source: string, target: string, sourceHandle?: string): Edge {
  return { id: `e${++edgeCounter}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) };
}

export interface StateParts {
  blocks: Block[];
  edges?: Edge[];
  loops?: Loop[];
  parallels?: Parallel[];
}

/** Validates like a save would, so every test state is one a user could actually deploy. */
export function state(parts: StateParts): WorkflowState {
  const input = {
    blocks: Object.fromEntries(parts.blocks.map((b) => [b.id, b])),
    edges: parts.edges ?? [],
    loops: Object.fromEntries((parts.loops ?? []).map((l) => [l.id, l])),
    parallels: Object.fromEntries((parts.parallels ?? []).map((p) => [p.id, p])),
  };
  const validated = validateState(input, catalog);
  if (!validated.ok) throw new Error(`invalid test state: ${JSON.stringify(validated.problems)}`);
  return validated.state;
}

/** A chain a → b → c … from a list of blocks. */
export function chain(...ids: string[]): Edge[] {
  return ids.slice(1).map((id, index) => edge(ids[index]!, id));
}

export function apiTrigger(fields: Array<{ name: string; type?: string; value?: unknown }> = []): Block {
  return block('start', 'api_trigger', { inputFormat: fields.map((f) => ({ type: 'string', ...f })) }, { name: 'Start' });
}

export interface RunOutcome {
  result: ExecutionResult;
  events: EngineEvent[];
}

export async function run(
  workflow: WorkflowState,
  input: Record<string, unknown> = {},
  options: Partial<RunWorkflowOptions> = {},
): Promise<RunOutcome> {
  const events: EngineEvent[] = [];
  const result = await runWorkflow({
    executionId: 'exec_test',
    workflowId: 'wf_test',
    state: workflow,
    trigger: { type: 'api', input },
    env: {},
    services,
    registry,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { result, events };
}

/** Ids of the blocks that ran (block_started), in start order. */
export function ranBlocks(events: EngineEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'block_started' ? [event.blockId] : []));
}
