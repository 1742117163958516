// A BlockRunContext for calling one block handler directly, with its config parsed by its own schema as the
// engine would.
import { createConnectionCache } from '../../src/connectors/connection-cache.js';
import type { BlockDefinition, BlockProgress, BlockRunContext } from '../../src/blocks/types.js';
import type { BlockReference, TriggerType } from '../../src/workflow/index.js';

export interface FakeContextOptions {
  trigger?: { type: TriggerType; input: Record<string, unknown> };
  references?: Record<string, unknown>;
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface FakeContext<Config> {
  ctx: BlockRunContext<Config>;
  variables: Map<string, unknown>;
  chunks: string[];
  progress: BlockProgress[];
}

export function fakeContext<Config>(
  definition: BlockDefinition<Config>,
  rawConfig: unknown,
  options: FakeContextOptions = {},
): FakeContext<Config> {
  const variables = new Map<string, unknown>();
  const chunks: string[] = [];
  const progress_: BlockProgress[] = [];
  const lookup = (ref: BlockReference) => options.references?.[`${ref.name}.${ref.path.join('.')}`] ?? null;
  const ctx: BlockRunContext<Config> = {
    executionId: 'exec_1',
    workflowId: 'wf_1',
    blockId: 'b1',
    blockName: 'Block 1',
    config: definition.configSchema.parse(rawConfig),
    signal: options.signal ?? new AbortController().signal,
    emitChunk: (text) => chunks.push(text),
    emitProgress: (progress) => progress_.push(progress),
    lookupReference: lookup,
    resolve(value) {
      // Only what the blocks under test need: a whole `{{NAME}}` env reference.
      if (typeof value === 'string') {
        const env = /^\{\{(\w+)\}\}$/.exec(value);
        if (env) {
          const found = options.env?.[env[1]!];
          if (found === undefined) throw new Error(`Environment variable ${env[1]} is not defined`);
          return found;
        }
      }
      return value;
    },
    setVariable: (name, value) => variables.set(name, value),
    trigger: options.trigger ?? { type: 'api', input: {} },
    services: {
      allowPrivateNetwork: false,
      // Generous: nothing here tests time-outs, and a loaded CI machine can take a while to start a sandbox thread.
      sandbox: { memoryLimitBytes: 32 * 1024 * 1024, timeoutMs: 10_000 },
      providerEnv: () => undefined,
      connections: createConnectionCache(),
    },
  };
  return { ctx, variables, chunks, progress: progress_ };
}
