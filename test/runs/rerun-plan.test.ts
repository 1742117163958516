// What a re-run replays (runs/rerun-plan.ts), with the real engine: a first run's trace is planned from and run again,
// counting the calls of a block that fails once. Nested containers and recorded branches are what the HTTP tests
// (reruns.test.ts) do not reach.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BlockDefinition } from '../../src/blocks/types.js';
import { runWorkflow, type ExecutionResult } from '../../src/engine/index.js';
import { downstreamOf, firstFailedBlock, planRerun } from '../../src/runs/rerun-plan.js';
import type { WorkflowState } from '../../src/workflow/index.js';
import { block, edge, registry as engineRegistry, services } from '../engine/helpers.js';

/** Counts its calls; the call numbered `failAt` (1-based, across the test) throws. */
const tally = { calls: 0, failAt: 0 };
const tick: BlockDefinition = {
  type: 'tick',
  configSchema: z.object({}).passthrough(),
  async run() {
    tally.calls++;
    if (tally.calls === tally.failAt) throw new Error(`call ${tally.calls} failed`);
    return { output: { call: tally.calls } };
  },
} as unknown as BlockDefinition;
const registry = { ...engineRegistry, tick };

function stateOf(parts: { blocks: ReturnType<typeof block>[]; edges: ReturnType<typeof edge>[]; loops?: WorkflowState['loops'] }): WorkflowState {
  return { blocks: Object.fromEntries(parts.blocks.map((b) => [b.id, b])), edges: parts.edges, loops: parts.loops ?? {}, parallels: {} };
}

async function run(state: WorkflowState, replay?: ReturnType<typeof planRerun>['replay']): Promise<ExecutionResult> {
  return runWorkflow({ executionId: 'exec_plan', workflowId: 'wf_plan', state, trigger: { type: 'api', input: {} }, env: {}, services, registry, replay });
}

describe('re-run plan', () => {
  it('nested loops: only the failed inner iteration (and those never reached) run again; finished outer iterations are replayed whole', async () => {
    const state = stateOf({
      blocks: [
        block('start', 'api_trigger', { inputFormat: [] }),
        block('outer', 'loop'),
        block('inner', 'loop', {}, { parentId: 'outer' }),
        block('work', 'tick', {}, { parentId: 'inner' }),
      ],
      edges: [edge('start', 'outer'), edge('outer', 'inner'), edge('inner', 'work')],
      loops: {
        outer: { id: 'outer', nodes: ['inner'], loopType: 'for', iterations: 2 },
        inner: { id: 'inner', nodes: ['work'], loopType: 'for', iterations: 2 },
      },
    });
    tally.calls = 0;
    tally.failAt = 3; // outer 1, inner 0
    const first = await run(state);
    expect(first.success).toBe(false);
    expect(tally.calls).toBe(3);
    expect(firstFailedBlock(first.traceSpans)).toBe('work');

    const plan = planRerun(state, first.traceSpans, 'work');
    tally.calls = 0;
    const again = await run(state, plan.replay);
    expect(again.success, again.error).toBe(true);
    // outer 1 / inner 0 again, and outer 1 / inner 1, which the first run never reached.
    expect(tally.calls).toBe(2);
    expect(again.blockOutputs.outer).toEqual({ results: [{ results: [{ call: 1 }, { call: 2 }] }, { results: [{ call: 1 }, { call: 2 }] }] });
  });

  it('a loop whose iterations all finished runs them all again from the block', async () => {
    const state = stateOf({
      blocks: [block('start', 'api_trigger', { inputFormat: [] }), block('each', 'loop'), block('work', 'tick', {}, { parentId: 'each' })],
      edges: [edge('start', 'each'), edge('each', 'work')],
      loops: { each: { id: 'each', nodes: ['work'], loopType: 'for', iterations: 3 } },
    });
    tally.calls = 0;
    tally.failAt = 0;
    const first = await run(state);
    tally.calls = 0;
    await run(state, planRerun(state, first.traceSpans, 'work').replay);
    expect(tally.calls).toBe(3);
  });

  it('a condition upstream keeps the branch it chose, even when its expression now says otherwise', async () => {
    const condition = (expression: string) =>
      block('check', 'condition', { conditions: [{ id: 'yes', title: 'if', expression }, { id: 'no', title: 'else', expression: '' }] });
    const build = (expression: string) =>
      stateOf({
        blocks: [block('start', 'api_trigger', { inputFormat: [] }), condition(expression), block('left', 'echo', { side: 'left' }), block('right', 'echo', { side: 'right' }), block('tail', 'echo', { last: true })],
        edges: [edge('start', 'check'), edge('check', 'left', 'condition-yes'), edge('check', 'right', 'condition-no'), edge('left', 'tail'), edge('right', 'tail')],
      });
    const first = await run(build('true'));
    expect(first.blockOutputs.left).toEqual({ side: 'left' });
    const changed = build('false');
    expect([...downstreamOf(changed, 'tail')]).toEqual(['tail']);
    const again = await run(changed, planRerun(changed, first.traceSpans, 'tail').replay);
    expect(again.traceSpans.map((span) => span.blockId)).toEqual(['start', 'check', 'left', 'tail']);
  });
});
