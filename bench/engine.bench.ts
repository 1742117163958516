// Engine overhead per block: a 100-block chain of blocks that do (almost) nothing, run many times.
// Run: node --import tsx bench/engine.bench.ts
// Reported beside its floor (the same handlers called directly in a loop), so the ratio shows what the engine adds:
// scheduling, reference resolution, config validation, events and trace spans. Target ≤ 20 µs/block.
import { cpus } from 'node:os';
import { z } from 'zod';
import { createConnectionCache } from '../src/connectors/connection-cache.js';
import { blockRegistry, eraseConfigType } from '../src/blocks/registry.js';
import type { BlockDefinition, BlockRunContext } from '../src/blocks/types.js';
import { runWorkflow, type EngineEvent } from '../src/engine/index.js';
import type { Block, Edge, WorkflowState } from '../src/workflow/index.js';

const CHAIN_LENGTH = 100;
const WARMUP_RUNS = 500;
const MEASURED_RUNS = 2_000;

const noopBlock = eraseConfigType({
  type: 'noop',
  configSchema: z.object({}),
  async run() {
    return { output: {} };
  },
});
const registry: Record<string, BlockDefinition> = { ...blockRegistry, noop: noopBlock };

function chainState(type: 'noop' | 'variables'): WorkflowState {
  const blocks: Record<string, Block> = {};
  const edges: Edge[] = [];
  for (let i = 0; i < CHAIN_LENGTH; i++) {
    const id = `b${i}`;
    const config =
      type === 'variables' ? { assignments: [{ name: 'n', value: i === 0 ? 0 : `<b${i - 1}.n>` }] } : {};
    blocks[id] = { id, type, name: `Block ${i}`, position: { x: 0, y: 0 }, enabled: true, config };
    if (i > 0) edges.push({ id: `e${i}`, source: `b${i - 1}`, target: id });
  }
  return { blocks, edges, loops: {}, parallels: {} };
}

const services = {
  allowPrivateNetwork: false,
  sandbox: { memoryLimitBytes: 32 * 1024 * 1024, timeoutMs: 1_000 },
  providerEnv: () => undefined,
  connections: createConnectionCache(),
};

async function timeEngine(state: WorkflowState): Promise<number> {
  let events = 0;
  const onEvent = (_event: EngineEvent) => {
    events++;
  };
  const once = () =>
    runWorkflow({
      executionId: 'exec_bench',
      workflowId: 'wf_bench',
      state,
      trigger: { type: 'api', input: {} },
      env: {},
      services,
      registry,
      onEvent,
    });
  for (let i = 0; i < WARMUP_RUNS; i++) await once();
  const started = process.hrtime.bigint();
  for (let i = 0; i < MEASURED_RUNS; i++) {
    const result = await once();
    if (!result.success) throw new Error(`bench run failed: ${result.error}`);
  }
  const elapsedNs = Number(process.hrtime.bigint() - started);
  if (events === 0) throw new Error('no events observed');
  return elapsedNs / 1_000 / (MEASURED_RUNS * CHAIN_LENGTH);
}

/** The floor: each handler called directly with an already-parsed config, no engine around it. */
async function timeDirect(type: 'noop' | 'variables'): Promise<number> {
  const definition = registry[type]!;
  const state = chainState(type);
  const configs = Object.values(state.blocks).map((block) => definition.configSchema.parse(block.config));
  const signal = new AbortController().signal;
  const contexts = configs.map(
    (config) => ({ config, setVariable: () => {}, signal }) as unknown as BlockRunContext<Record<string, unknown>>,
  );
  const once = async () => {
    for (const ctx of contexts) await definition.run(ctx);
  };
  for (let i = 0; i < WARMUP_RUNS; i++) await once();
  const started = process.hrtime.bigint();
  for (let i = 0; i < MEASURED_RUNS; i++) await once();
  return Number(process.hrtime.bigint() - started) / 1_000 / (MEASURED_RUNS * CHAIN_LENGTH);
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, Node ${process.version}`;
console.log(`engine overhead per block — ${CHAIN_LENGTH}-block chain, ${MEASURED_RUNS} runs — ${machine}`);
for (const type of ['noop', 'variables'] as const) {
  const engine = await timeEngine(chainState(type));
  const direct = await timeDirect(type);
  console.log(
    `${type.padEnd(10)} engine ${engine.toFixed(2)} µs/block | direct handler ${direct.toFixed(2)} µs/block | ` +
      `overhead ${(engine - direct).toFixed(2)} µs/block (${(engine / direct).toFixed(1)}×) | target ≤ 20 µs/block`,
  );
}
