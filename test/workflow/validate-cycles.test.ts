import { describe, expect, it } from 'vitest';
import { block, doc, edge, problemsOf } from './fixtures.js';

describe('validateState: cycles', () => {
  it('rejects a two-block cycle, naming the blocks', () => {
    const problems = problemsOf(
      doc({ blocks: [block('a', 'wait', { name: 'A' }), block('b', 'wait', { name: 'B' })], edges: [edge('a', 'b'), edge('b', 'a')] }),
    );
    expect(problems).toEqual([{ path: 'edges.1', message: 'cycle outside a loop: A → B → A (repeat steps with a loop block instead)' }]);
  });

  it('names every block of a longer cycle in order', () => {
    const problems = problemsOf(
      doc({
        blocks: ['s', 'a', 'b', 'c'].map((id) => block(id, 'wait', { name: id.toUpperCase() })),
        edges: [edge('s', 'a'), edge('a', 'b'), edge('b', 'c'), edge('c', 'a')],
      }),
    );
    expect(problems).toEqual([{ path: 'edges.3', message: 'cycle outside a loop: A → B → C → A (repeat steps with a loop block instead)' }]);
  });

  it('accepts diamonds and other shared descendants', () => {
    const problems = problemsOf(
      doc({
        blocks: ['a', 'b', 'c', 'd'].map((id) => block(id, 'wait')),
        edges: [edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd'), edge('a', 'd')],
      }),
    );
    expect(problems).toEqual([]);
  });

  it('rejects a cycle inside a loop body too', () => {
    const problems = problemsOf(
      doc({
        blocks: [
          block('l', 'loop'),
          block('x', 'wait', { name: 'X', parentId: 'l' }),
          block('y', 'wait', { name: 'Y', parentId: 'l' }),
        ],
        loops: [{ id: 'l', nodes: ['x', 'y'], loopType: 'for', iterations: 3 }],
        edges: [edge('l', 'x'), edge('x', 'y'), edge('y', 'x')],
      }),
    );
    expect(problems).toEqual([{ path: 'edges.2', message: 'cycle outside a loop: X → Y → X (repeat steps with a loop block instead)' }]);
  });

  it('reports separate cycles separately', () => {
    const problems = problemsOf(
      doc({
        blocks: ['a', 'b', 'c', 'd'].map((id) => block(id, 'wait', { name: id })),
        edges: [edge('a', 'b'), edge('b', 'a'), edge('c', 'd'), edge('d', 'c')],
      }),
    );
    expect(problems.map((p) => p.message)).toEqual([
      'cycle outside a loop: a → b → a (repeat steps with a loop block instead)',
      'cycle outside a loop: c → d → c (repeat steps with a loop block instead)',
    ]);
  });

  it('handles the longest allowed chain without exhausting the stack', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `b${i}`);
    const edges = ids.slice(1).map((id, i) => edge(ids[i], id));
    expect(problemsOf(doc({ blocks: ids.map((id) => block(id, 'wait')), edges }))).toEqual([]);
    const closed = problemsOf(doc({ blocks: ids.map((id) => block(id, 'wait')), edges: [...edges, edge('b999', 'b0')] }));
    expect(closed).toHaveLength(1);
    expect(closed[0].message).toMatch(/^cycle outside a loop: b0 → b1 → .* → b999 → b0 /);
  });
});
