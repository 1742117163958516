// The engine's size limits on what a run produces (docs/guarantees.md "Bounded output"): a block's filled-in config and
// output, a container's results, and the run's total — each checked as it is produced, failing the block that
// passes a limit with a message naming it, and never carrying the oversized value on into the trace.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { eraseConfigType } from '../../src/blocks/registry.js';
import type { Loop } from '../../src/workflow/index.js';
import { apiTrigger, block, chain, edge, registry, run, state } from './helpers.js';

const limits = { maxBlockOutputBytes: 10_000, maxRunOutputBytes: 25_000 };
const spanOf = (result: Awaited<ReturnType<typeof run>>['result'], blockId: string) => result.traceSpans.find((s) => s.blockId === blockId)!;

describe('output limits', () => {
  it('a config whose exact references add up past the block limit fails before the block runs; the span keeps the config as written', async () => {
    const config = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, '<start.q>']));
    const workflow = state({ blocks: [apiTrigger([{ name: 'q' }]), block('wide', 'echo', config, { name: 'Wide' })], edges: chain('start', 'wide') });
    const { result } = await run(workflow, { q: 'x'.repeat(1_000) }, { limits });
    expect(result.success).toBe(false);
    expect(result.error).toBe(`Block "Wide": its configuration with references filled in is larger than 10000 bytes, the limit on one block's output`);
    expect(spanOf(result, 'wide').input).toEqual(config);
  });

  it('a text filled in by references stops before it passes the block limit', async () => {
    const workflow = state({
      blocks: [apiTrigger([{ name: 'q' }]), block('text', 'echo', { text: Array(20).fill('<start.q>').join('') }, { name: 'Text' })],
      edges: chain('start', 'text'),
    });
    const { result } = await run(workflow, { q: 'x'.repeat(1_000) }, { limits });
    expect(result.error).toMatch(/^Block "Text": a text in its configuration with references filled in is larger than 10000 bytes/);
  });

  it("a loop whose results together pass the block limit fails; its output drops them, each iteration's span keeps its own", async () => {
    const loop: Loop = { id: 'box', nodes: ['body'], loopType: 'for', iterations: 5 };
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('box', 'loop', {}, { name: 'Box' }),
        block('body', 'function', { code: "return 'y'.repeat(3000)" }, { parentId: 'box' }),
      ],
      edges: [edge('start', 'box'), edge('box', 'body')],
      loops: [loop],
    });
    const { result } = await run(workflow, {}, { limits: { ...limits, maxRunOutputBytes: 100_000 } });
    expect(result.error).toBe(`Block "Box": its output is larger than 10000 bytes, the limit on one block's output`);
    expect(result.blockOutputs.box).toEqual({ results: [], error: result.error });
    expect(spanOf(result, 'box').children).toHaveLength(5);
  });

  it('outputs replayed after a pause count towards the run limit', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('before', 'echo', { note: 'ran before the pause' }, { name: 'Before' }),
        block('after', 'echo', { text: 'y'.repeat(9_000) }, { name: 'After' }),
      ],
      edges: chain('start', 'before', 'after'),
    });
    const recorded = { output: { text: 'z'.repeat(9_000) }, startedAt: new Date().toISOString(), endedAt: new Date().toISOString() };
    const replay = (blockId: string) => (blockId === 'before' ? recorded : undefined);
    const fresh = await run(workflow, {}, { limits: { ...limits, maxRunOutputBytes: 25_000 } });
    expect(fresh.result.success).toBe(true);
    const resumed = await run(workflow, {}, { limits: { ...limits, maxRunOutputBytes: 25_000 }, replay });
    expect(resumed.result.error).toMatch(/^Block "After": its output would take what the run has produced past 25000 bytes/);
  });

  it("a sub-workflow's trace counts towards the run limit only: its own run held each block to the block limit", async () => {
    // Stands in (as `echo`, a type the state may use) for the workflow block: a small output, and the child's spans.
    const nested = eraseConfigType({
      type: 'echo',
      configSchema: z.object({ chars: z.number() }),
      async run(ctx) {
        const span = { id: 's', blockId: 'child', name: 'Child', type: 'echo', status: 'success', input: {}, output: { text: 'c'.repeat(ctx.config.chars) } };
        return { output: { ok: true }, childSpans: [span] };
      },
    });
    const workflow = (chars: number) =>
      state({ blocks: [apiTrigger(), block('sub', 'echo', { chars }, { name: 'Sub' })], edges: chain('start', 'sub') });
    const options = { registry: { ...registry, echo: nested }, limits };
    expect((await run(workflow(20_000), {}, options)).result.success).toBe(true);
    const { result } = await run(workflow(30_000), {}, options);
    expect(result.error).toBe(`Block "Sub": its sub-workflow's trace would take what the run has produced past 25000 bytes, the limit on one run's output`);
    expect(spanOf(result, 'sub').children ?? []).toEqual([]);
  });
});
