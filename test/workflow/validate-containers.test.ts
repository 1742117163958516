import { describe, expect, it } from 'vitest';
import { block, doc, edge, problemsOf, type DocParts } from './fixtures.js';

/** start → Each Item (forEach over the trigger's items) { step } → reply */
function loopDoc(): DocParts {
  return {
    blocks: [
      block('start', 'api_trigger', { name: 'Start' }),
      block('each', 'loop', { name: 'Each Item' }),
      block('step', 'function', { name: 'Step', parentId: 'each', config: { code: 'return 1' } }),
      block('reply', 'response', { name: 'Reply', config: { body: '<Each Item.results>' } }),
    ],
    edges: [edge('start', 'each'), edge('each', 'step'), edge('each', 'reply')],
    loops: [{ id: 'each', nodes: ['step'], loopType: 'forEach', forEachItems: '<api.input.items>' }],
  };
}

describe('validateState: containers', () => {
  it('accepts a loop with edges to, from and into its body', () => {
    expect(problemsOf(doc(loopDoc()))).toEqual([]);
  });

  it('accepts a parallel nested in a loop', () => {
    const parts = loopDoc();
    parts.blocks!.push(
      block('fan', 'parallel', { name: 'Fan', parentId: 'each' }),
      block('inner', 'wait', { name: 'Inner', parentId: 'fan' }),
    );
    parts.loops![0].nodes = ['step', 'fan'];
    parts.parallels = [{ id: 'fan', nodes: ['inner'], parallelType: 'count', count: 3 }];
    parts.edges!.push(edge('step', 'fan'), edge('fan', 'inner'));
    expect(problemsOf(doc(parts))).toEqual([]);
  });

  it('ties container settings and container blocks together in both directions', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('l1', 'loop'), block('w', 'wait', { name: 'W' }), block('p1', 'parallel')],
        loops: [
          { id: 'orphan', nodes: [], loopType: 'for', iterations: 1 },
          { id: 'w', nodes: [], loopType: 'for', iterations: 1 },
        ],
        parallels: [{ id: 'other', nodes: [], parallelType: 'count', count: 2 }],
      }),
    );
    expect(problems).toEqual([
      { path: 'loops.orphan', message: 'loop "orphan" has no block with that id' },
      { path: 'loops.w', message: 'loop settings "w" belong to a wait block, not a loop block' },
      { path: 'parallels.other', message: 'parallel "other" has no block with that id' },
      { path: 'blocks.l1', message: 'loop block "l1" has no settings under loops.l1' },
      { path: 'blocks.p1', message: 'parallel block "p1" has no settings under parallels.p1' },
    ]);
  });

  it('rejects settings whose key differs from their id', () => {
    const parts = loopDoc();
    parts.loops![0].id = 'elsewhere';
    const input = doc(parts);
    (input.loops as Record<string, unknown>).each = parts.loops![0];
    delete (input.loops as Record<string, unknown>).elsewhere;
    expect(problemsOf(input)).toEqual([{ path: 'loops.each.id', message: 'loop id "elsewhere" does not match its key "each"' }]);
  });

  it('checks that nodes and parentId agree', () => {
    const parts = loopDoc();
    parts.blocks!.push(
      block('stray', 'wait', { name: 'Stray' }),
      block('hidden', 'wait', { name: 'Hidden', parentId: 'each' }),
    );
    parts.loops![0].nodes = ['step', 'ghost', 'stray', 'step'];
    expect(problemsOf(doc(parts))).toEqual([
      { path: 'loops.each.nodes.1', message: '"ghost" names no block' },
      { path: 'loops.each.nodes.2', message: 'block "stray" is listed in loop "each" but it has no parentId' },
      { path: 'loops.each.nodes.3', message: 'block "step" is listed twice' },
      { path: 'blocks.hidden.parentId', message: 'block "Hidden" is not listed in the nodes of loop "Each Item"' },
    ]);
  });

  it('requires parentId to name a container', () => {
    const problems = problemsOf(
      doc({ blocks: [block('a', 'wait', { name: 'A' }), block('b', 'wait', { parentId: 'a' }), block('c', 'wait', { parentId: 'nowhere' })] }),
    );
    expect(problems).toEqual([
      { path: 'blocks.b.parentId', message: 'parent "A" is a wait block, not a loop or parallel' },
      { path: 'blocks.c.parentId', message: 'parent "nowhere" names no block' },
    ]);
  });

  it('rejects edges that cross a container boundary', () => {
    const parts = loopDoc();
    parts.blocks!.push(
      block('l2', 'loop', { name: 'Second' }),
      block('deep', 'wait', { name: 'Deep', parentId: 'l2' }),
    );
    parts.loops!.push({ id: 'l2', nodes: ['deep'], loopType: 'for', iterations: 2 });
    parts.edges = [
      { id: 'in', source: 'start', target: 'step' },
      { id: 'out', source: 'step', target: 'reply' },
      { id: 'across', source: 'step', target: 'deep' },
      { id: 'back', source: 'step', target: 'each' },
      { id: 'ok', source: 'each', target: 'l2' },
    ];
    const problems = problemsOf(doc(parts));
    expect(problems).toEqual([
      { path: 'edges.0', message: 'edge from "Start" to "Step" crosses a loop or parallel boundary; connect to the container block instead' },
      { path: 'edges.1', message: 'edge from "Step" to "Reply" crosses a loop or parallel boundary; connect to the container block instead' },
      { path: 'edges.2', message: 'edge from "Step" to "Deep" crosses a loop or parallel boundary; connect to the container block instead' },
      { path: 'edges.3', message: 'edge from "Step" to "Each Item" crosses a loop or parallel boundary; connect to the container block instead' },
    ]);
  });

  it('rejects container nesting cycles once per cycle', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('l1', 'loop', { name: 'One', parentId: 'l2' }), block('l2', 'loop', { name: 'Two', parentId: 'l1' })],
        loops: [
          { id: 'l1', nodes: ['l2'], loopType: 'for', iterations: 1 },
          { id: 'l2', nodes: ['l1'], loopType: 'for', iterations: 1 },
        ],
      }),
    );
    expect(problems).toEqual([{ path: 'blocks.l1.parentId', message: 'containers are nested in a cycle: One → Two → One' }]);
  });

  it('rejects a container that is its own parent', () => {
    const problems = problemsOf(
      doc({ blocks: [block('l', 'loop', { name: 'Self', parentId: 'l' })], loops: [{ id: 'l', nodes: ['l'], loopType: 'for', iterations: 1 }] }),
    );
    expect(problems).toEqual([{ path: 'blocks.l.parentId', message: 'containers are nested in a cycle: Self → Self' }]);
  });

  it('requires the settings each loop and parallel kind needs', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('a', 'loop'), block('b', 'loop'), block('c', 'parallel'), block('d', 'parallel'), block('e', 'loop')],
        loops: [
          { id: 'a', nodes: [], loopType: 'for' },
          { id: 'b', nodes: [], loopType: 'forEach' },
          { id: 'e', nodes: [], loopType: 'forEach', forEachItems: '  ' },
        ],
        parallels: [
          { id: 'c', nodes: [], parallelType: 'count' },
          { id: 'd', nodes: [], parallelType: 'collection' },
        ],
      }),
    );
    expect(problems).toEqual([
      { path: 'loops.a.iterations', message: 'a for loop needs iterations' },
      { path: 'loops.b.forEachItems', message: 'a forEach loop needs forEachItems' },
      { path: 'loops.e.forEachItems', message: 'a forEach loop needs forEachItems' },
      { path: 'parallels.c.count', message: 'a count parallel needs count' },
      { path: 'parallels.d.distribution', message: 'a collection parallel needs distribution' },
    ]);
  });

  it('accepts item sources given as JSON text, arrays, objects or references, and rejects other text', () => {
    const sources: unknown[] = ['[1, 2, 3]', '{"a": 1}', [1, 2], { a: 1 }, '<api.input.items>', '[<api.input.a>, 2]', '{{ITEM_LIST}}'];
    for (const forEachItems of sources) {
      const parts = loopDoc();
      parts.loops![0].forEachItems = forEachItems;
      expect(problemsOf(doc(parts))).toEqual([]);
    }
    const parts = loopDoc();
    parts.loops![0].forEachItems = 'apples, pears';
    parts.blocks!.push(block('p', 'parallel'));
    parts.parallels = [{ id: 'p', nodes: [], parallelType: 'collection', distribution: '42' }];
    expect(problemsOf(doc(parts))).toEqual([
      { path: 'loops.each.forEachItems', message: 'must be a reference such as <api.items>, a JSON array or a JSON object' },
      { path: 'parallels.p.distribution', message: 'must be a reference such as <api.items>, a JSON array or a JSON object' },
    ]);
  });
});
