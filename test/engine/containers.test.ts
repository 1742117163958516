// Loops and parallels end to end: iteration data, ordering, scoping of inner outputs, nesting, bounds and spans.
import { describe, expect, it } from 'vitest';
import type { Loop, Parallel } from '../../src/workflow/index.js';
import { apiTrigger, block, edge, gauge, ranBlocks, run, state } from './helpers.js';

function loop(id: string, nodes: string[], settings: Partial<Loop>): Loop {
  return { id, nodes, loopType: 'for', ...settings };
}

function parallel(id: string, nodes: string[], settings: Partial<Parallel>): Parallel {
  return { id, nodes, parallelType: 'count', ...settings };
}

/** trigger → container(body: one function block) → after; the function's code decides what each iteration returns. */
function singleBodyWorkflow(container: { loop?: Partial<Loop>; parallel?: Partial<Parallel> }, code: string) {
  const kind = container.loop ? 'loop' : 'parallel';
  return state({
    blocks: [
      apiTrigger([{ name: 'items', type: 'json' }]),
      block('box', kind, {}, { name: 'Box' }),
      block('body', 'function', { code }, { parentId: 'box' }),
      block('after', 'echo', { results: '<box.results>', lastBody: '<body.result>' }),
    ],
    edges: [edge('start', 'box'), edge('box', 'body'), edge('box', 'after')],
    loops: container.loop ? [loop('box', ['body'], container.loop)] : [],
    parallels: container.parallel ? [parallel('box', ['body'], container.parallel)] : [],
  });
}

describe('loops', () => {
  it.each([
    {
      name: 'for loop counts with <loop.index>',
      loop: { loopType: 'for' as const, iterations: 3 },
      code: 'return <loop.index> * 10',
      input: {},
      results: [0, 10, 20],
    },
    {
      name: 'forEach over a referenced array',
      loop: { loopType: 'forEach' as const, forEachItems: '<start.items>' },
      code: 'return <loop.currentItem>.toUpperCase() + <loop.index>',
      input: { items: ['a', 'b', 'c'] },
      results: ['A0', 'B1', 'C2'],
    },
    {
      name: 'forEach over an object iterates its entries',
      loop: { loopType: 'forEach' as const, forEachItems: '<start.items>' },
      code: 'return <loop.currentItem>[0] + "=" + <loop.currentItem>[1]',
      input: { items: { x: 1, y: 2 } },
      results: ['x=1', 'y=2'],
    },
    {
      name: 'forEach over JSON text',
      loop: { loopType: 'forEach' as const, forEachItems: '[1, 2, 3]' },
      code: 'return <loop.currentItem> + 100',
      input: {},
      results: [101, 102, 103],
    },
    {
      name: 'forEach over a literal array',
      loop: { loopType: 'forEach' as const, forEachItems: [{ n: 5 }, { n: 6 }] },
      code: 'return <loop.currentItem>.n',
      input: {},
      results: [5, 6],
    },
  ])('$name', async ({ loop: settings, code, input, results }) => {
    const { result } = await run(singleBodyWorkflow({ loop: settings }, code), input);
    expect(result.success).toBe(true);
    expect(result.blockOutputs.box).toEqual({ results: results.map((value) => ({ result: value, stdout: '' })) });
    // Outside the loop, the inner block is seen as it was in the last iteration.
    expect(result.output).toEqual({ results: result.blockOutputs.box!.results, lastBody: results.at(-1) });
  });

  it('runs iterations one after another, in order', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('box', 'loop', {}), block('step', 'gauged', { ms: 5, value: '<loop.index>' }, { parentId: 'box' })],
      edges: [edge('start', 'box'), edge('box', 'step')],
      loops: [loop('box', ['step'], { iterations: 4 })],
    });
    gauge.peak = 0;
    const { result, events } = await run(workflow);
    expect(gauge.peak).toBe(1);
    expect(result.output).toEqual({ results: [0, 1, 2, 3].map((value) => ({ value })) });
    const stepPaths = events.flatMap((e) => (e.type === 'block_started' && e.blockId === 'step' ? [e.iterationPath] : []));
    expect(stepPaths).toEqual([0, 1, 2, 3].map((index) => [{ containerId: 'box', containerType: 'loop', index }]));
  });

  it('gives each iteration its own view of inner blocks, and the last inner block as the iteration result', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('box', 'loop', {}),
        block('first', 'function', { code: 'return <loop.currentItem> * 2' }, { parentId: 'box' }),
        block('second', 'echo', { doubled: '<first.result>', index: '<loop.index>' }, { parentId: 'box' }),
      ],
      edges: [edge('start', 'box'), edge('box', 'first'), edge('first', 'second')],
      loops: [loop('box', ['first', 'second'], { loopType: 'forEach', forEachItems: '[3, 4]' })],
    });
    const { result } = await run(workflow);
    expect(result.output).toEqual({ results: [{ doubled: 6, index: 0 }, { doubled: 8, index: 1 }] });
  });

  it('fails the loop with a clear error when it would exceed the iteration limit', async () => {
    const workflow = singleBodyWorkflow({ loop: { iterations: 50 } }, 'return 1');
    const { result, events } = await run(workflow, {}, { limits: { maxLoopIterations: 10 } });
    expect(result.success).toBe(false);
    expect(result.error).toBe('Loop "Box" would run 50 iterations, more than the limit of 10');
    expect(ranBlocks(events)).not.toContain('body');
  });

  it('follows the loop error edge when the loop fails', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('box', 'loop', {}, { name: 'Box' }),
        block('body', 'boom', { message: 'iteration broke' }, { parentId: 'box' }),
        block('rescue', 'echo', { why: '<box.error>' }),
      ],
      edges: [edge('start', 'box'), edge('box', 'body'), edge('box', 'rescue', 'error')],
      loops: [loop('box', ['body'], { iterations: 3 })],
    });
    const { result, events } = await run(workflow);
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ why: 'iteration broke' });
    // The first failing iteration stops the loop.
    expect(ranBlocks(events).filter((id) => id === 'body')).toHaveLength(1);
  });

  it('runs zero iterations over an empty list and continues', async () => {
    const { result } = await run(singleBodyWorkflow({ loop: { loopType: 'forEach', forEachItems: '<start.items>' } }, 'return 1'), { items: [] });
    expect(result).toMatchObject({ success: true, output: { results: [], lastBody: null } });
  });

  it('fails on items that are not a collection', async () => {
    const { result } = await run(singleBodyWorkflow({ loop: { loopType: 'forEach', forEachItems: '<start.items>' } }, 'return 1'), { items: 42 });
    expect(result.error).toBe('Loop "Box" items must be an array, an object, or JSON text of one; got number');
  });
});

describe('parallels', () => {
  it('returns branch results in index order whatever order they finish in', async () => {
    // Earlier branches sleep longer, so they finish last.
    const workflow = state({
      blocks: [apiTrigger([{ name: 'items', type: 'json' }]), block('box', 'parallel', {}), block('work', 'gauged', { ms: '<parallel.currentItem>', value: '<parallel.currentItem>' }, { parentId: 'box' })],
      edges: [edge('start', 'box'), edge('box', 'work')],
      parallels: [parallel('box', ['work'], { parallelType: 'collection', distribution: '<start.items>' })],
    });
    const { result, events } = await run(workflow, { items: [45, 30, 15] });
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ results: [{ value: 45 }, { value: 30 }, { value: 15 }] });
    const finishOrder = events.flatMap((e) => (e.type === 'block_finished' && e.blockId === 'work' ? [e.output.value] : []));
    expect(finishOrder).toEqual([15, 30, 45]);
  });

  it('runs branches concurrently up to maxParallelConcurrency', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('box', 'parallel', {}), block('work', 'gauged', { ms: 30, value: '<parallel.index>' }, { parentId: 'box' })],
      edges: [edge('start', 'box'), edge('box', 'work')],
      parallels: [parallel('box', ['work'], { count: 7 })],
    });
    gauge.peak = 0;
    const { result } = await run(workflow, {}, { limits: { maxParallelConcurrency: 3 } });
    expect(gauge.peak).toBe(3);
    expect(result.output).toEqual({ results: [0, 1, 2, 3, 4, 5, 6].map((value) => ({ value })) });
  });

  it('cancels sibling branches when one fails', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('box', 'parallel', {}, { name: 'Fan' }),
        block('check', 'function', { code: 'if (<parallel.index> === 1) throw new Error("branch 1 broke"); return 1' }, { parentId: 'box' }),
        block('pause', 'wait', { ms: 5_000 }, { parentId: 'box' }),
      ],
      edges: [edge('start', 'box'), edge('box', 'check'), edge('check', 'pause')],
      parallels: [parallel('box', ['check', 'pause'], { count: 3 })],
    });
    const started = Date.now();
    const { result } = await run(workflow);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.success).toBe(false);
    expect(result.error).toContain('branch 1 broke');
  });

  it('runs a loop nested inside a parallel with both scopes visible', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('fan', 'parallel', {}, { name: 'Fan' }),
        block('inner', 'loop', {}, { name: 'Inner', parentId: 'fan' }),
        block('cell', 'function', { code: 'return <parallel.currentItem> + ":" + <loop.index>' }, { parentId: 'inner' }),
        block('after', 'echo', { all: '<fan.results>' }),
      ],
      edges: [edge('start', 'fan'), edge('fan', 'inner'), edge('inner', 'cell'), edge('fan', 'after')],
      parallels: [parallel('fan', ['inner'], { parallelType: 'collection', distribution: '["x", "y"]' })],
      loops: [loop('inner', ['cell'], { iterations: 2 })],
    });
    const { result, events } = await run(workflow);
    expect(result.success).toBe(true);
    const cell = (value: string) => ({ result: value, stdout: '' });
    expect(result.output).toEqual({
      all: [{ results: [cell('x:0'), cell('x:1')] }, { results: [cell('y:0'), cell('y:1')] }],
    });
    const paths = events.flatMap((e) => (e.type === 'block_started' && e.blockId === 'cell' ? [e.iterationPath] : []));
    expect(paths).toContainEqual([
      { containerId: 'fan', containerType: 'parallel', index: 1 },
      { containerId: 'inner', containerType: 'loop', index: 0 },
    ]);
  });

  it('bounds the number of branches by maxLoopIterations', async () => {
    const workflow = singleBodyWorkflow({ parallel: { count: 20 } }, 'return 1');
    const { result } = await run(workflow, {}, { limits: { maxLoopIterations: 5 } });
    expect(result.error).toBe('Parallel "Box" would run 20 branches, more than the limit of 5');
  });
});

describe('trace spans of containers', () => {
  it('nests one child span per iteration holding that iteration’s block spans', async () => {
    const workflow = singleBodyWorkflow({ loop: { loopType: 'forEach', forEachItems: '["p", "q"]' } }, 'return <loop.currentItem>');
    const { result } = await run(workflow);
    const boxSpan = result.traceSpans.find((s) => s.blockId === 'box')!;
    expect(boxSpan).toMatchObject({ type: 'loop', status: 'success', output: { results: expect.any(Array) } });
    expect(boxSpan.children!.map((c) => ({ type: c.type, input: c.input, kids: c.children!.map((k) => k.blockId) }))).toEqual([
      { type: 'loop_iteration', input: { index: 0, currentItem: 'p' }, kids: ['body'] },
      { type: 'loop_iteration', input: { index: 1, currentItem: 'q' }, kids: ['body'] },
    ]);
    expect(boxSpan.children![1]!.children![0]!.output).toEqual({ result: 'q', stdout: '' });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(['start', 'box', 'after']);
  });
});
