import { describe, expect, it } from 'vitest';
import { block, doc, edge, problemsOf } from './fixtures.js';

const condition = block('check', 'condition', {
  name: 'Check',
  config: { conditions: [{ id: 'c1', title: 'if', expression: 'true' }, { id: 'c2', title: 'else' }] },
});

describe('validateState: edges', () => {
  it('rejects dangling edges, naming the missing end', () => {
    const problems = problemsOf(
      doc({ blocks: [block('a', 'wait')], edges: [{ id: 'e1', source: 'a', target: 'ghost' }, { id: 'e2', source: 'toString', target: 'a' }] }),
    );
    expect(problems).toEqual([
      { path: 'edges.0.target', message: 'dangling edge: target "ghost" names no block' },
      { path: 'edges.1.source', message: 'dangling edge: source "toString" names no block' },
    ]);
  });

  it('rejects self-edges', () => {
    expect(problemsOf(doc({ blocks: [block('a', 'wait', { name: 'Pause' })], edges: [{ id: 'e', source: 'a', target: 'a' }] }))).toEqual([
      { path: 'edges.0', message: 'edge connects block "Pause" to itself' },
    ]);
  });

  it('rejects duplicate edge ids', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('a', 'wait'), block('b', 'wait'), block('c', 'wait')],
        edges: [
          { id: 'same', source: 'a', target: 'b' },
          { id: 'same', source: 'b', target: 'c' },
          { id: 'other', source: 'a', target: 'c' },
        ],
      }),
    );
    expect(problems).toEqual([{ path: 'edges.1.id', message: 'duplicate edge id "same" (also used by edges.0)' }]);
  });

  it('accepts source, error and existing condition handles', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('a', 'wait'), condition, block('yes', 'wait'), block('no', 'wait'), block('oops', 'wait')],
        edges: [
          edge('a', 'check', { sourceHandle: 'source' }),
          edge('check', 'yes', { sourceHandle: 'condition-c1' }),
          edge('check', 'no', { sourceHandle: 'condition-c2' }),
          edge('a', 'oops', { sourceHandle: 'error' }),
        ],
      }),
    );
    expect(problems).toEqual([]);
  });

  it('rejects unknown handles and conditions that do not exist', () => {
    const problems = problemsOf(
      doc({
        blocks: [block('a', 'wait', { name: 'Pause' }), condition, block('b', 'wait')],
        edges: [
          edge('check', 'b', { sourceHandle: 'condition-c9' }),
          edge('a', 'b', { sourceHandle: 'condition-c1' }),
          edge('a', 'check', { sourceHandle: 'loop-start' }),
        ],
      }),
    );
    expect(problems).toEqual([
      { path: 'edges.0.sourceHandle', message: 'condition "c9" does not exist on block "Check"' },
      {
        path: 'edges.1.sourceHandle',
        message: 'handle "condition-c1" is only valid on a condition block, and "Pause" is a wait block',
      },
      {
        path: 'edges.2.sourceHandle',
        message: 'unknown sourceHandle "loop-start" (expected "source", "error" or "condition-<id>")',
      },
    ]);
  });
});
