import { describe, expect, it } from 'vitest';
import { MAX_BLOCKS, MAX_EDGES, MAX_PROBLEMS, validateState } from '../../src/workflow/index.js';
import { block, catalog, doc, edge, problemsOf, validDoc } from './fixtures.js';

describe('validateState: the document as a whole', () => {
  it('rejects anything that is not an object, at the root path', () => {
    for (const input of [null, [], 'state', 42, undefined]) {
      const problems = problemsOf(input);
      expect(problems).toHaveLength(1);
      expect(problems[0].path).toBe('');
      expect(problems[0].message).toMatch(/expected object/);
    }
  });

  it('requires blocks and defaults the other sections', () => {
    expect(problemsOf({})).toEqual([{ path: 'blocks', message: 'Invalid input: expected record, received undefined' }]);
    const result = validateState({ blocks: {} }, catalog);
    expect(result).toEqual({ ok: true, state: { blocks: {}, edges: [], loops: {}, parallels: {} } });
  });

  it('maps schema problems to dotted paths', () => {
    const parts = validDoc();
    parts.edges!.push(edge('fetch', 'reply'), edge('fetch', 'reply'), { id: 'e9', source: 'fetch', target: 7 });
    parts.blocks![1].position = { x: 'left', y: 0 };
    const problems = problemsOf(doc(parts));
    expect(problems).toEqual([
      { path: 'blocks.fetch.position.x', message: 'Invalid input: expected number, received string' },
      { path: 'edges.4.target', message: 'Invalid input: expected string, received number' },
    ]);
  });

  it('explains bad record keys', () => {
    const input = doc(validDoc());
    (input.blocks as Record<string, unknown>)['k'.repeat(200)] = block('k'.repeat(200), 'wait');
    const problems = problemsOf(input);
    expect(problems).toContainEqual({ path: `blocks.${'k'.repeat(200)}`, message: 'Invalid key in record: must be at most 128 characters' });
  });

  it('reports problems from every rule in one answer', () => {
    const parts = validDoc();
    parts.blocks!.push(
      block('t2', 'api_trigger', { name: 'Second Start' }),
      block('dup', 'wait', { name: 'fetch user' }),
      block('odd', 'mystery', { name: 'Odd', config: { x: '<nobody.here>' } }),
    );
    parts.blocks![1].config = { url: '' };
    parts.edges!.push({ id: 'loop-back', source: 'reply', target: 'start' }, { id: 'gone', source: 'reply', target: 'void' });
    const problems = problemsOf(doc(parts));
    expect(problems.map((p) => p.path)).toEqual([
      'blocks.fetch.config.url',
      'blocks.odd.type',
      'blocks.dup.name',
      'blocks.t2.type',
      'edges.3.target',
      'edges.2',
      'blocks.odd.config.x',
    ]);
    expect(problems[5].message).toBe(
      'cycle outside a loop: Start → Fetch User → Reply → Start (repeat steps with a loop block instead)',
    );
  });

  it('still checks the well-formed parts when some entries fail the schema', () => {
    const input = doc({
      blocks: [block('good', 'wait', { name: 'Good', config: { t: '<nobody.x>' } }), block('bad', 'wait', { name: 'Bad' })],
      edges: [edge('good', 'bad'), edge('good', 'ghost'), { id: 'half' }],
    });
    (input.blocks as Record<string, Record<string, unknown>>).bad.enabled = 'yes';
    const problems = problemsOf(input);
    expect(problems).toEqual([
      { path: 'blocks.bad.enabled', message: 'Invalid input: expected boolean, received string' },
      { path: 'edges.2.source', message: 'Invalid input: expected string, received undefined' },
      { path: 'edges.2.target', message: 'Invalid input: expected string, received undefined' },
      { path: 'edges.1.target', message: 'dangling edge: target "ghost" names no block' },
      { path: 'blocks.good.config.t', message: 'reference <nobody.x> names no block' },
    ]);
  });

  it('does not call a reference to a malformed block unknown', () => {
    const input = doc({ blocks: [block('a', 'wait', { name: 'Source', position: 'top' }), block('b', 'wait', { config: { v: '<source.x>' } })] });
    expect(problemsOf(input)).toEqual([{ path: 'blocks.a.position', message: 'Invalid input: expected object, received string' }]);
  });

  it('refuses oversized documents before walking them', () => {
    const blocks = Object.fromEntries(Array.from({ length: MAX_BLOCKS + 1 }, (_, i) => [`b${i}`, block(`b${i}`, 'nope')]));
    const edges = Array.from({ length: MAX_EDGES + 1 }, (_, i) => ({ id: `e${i}`, source: 'x', target: 'y' }));
    expect(problemsOf({ blocks, edges })).toEqual([
      { path: 'blocks', message: `must hold at most ${MAX_BLOCKS} blocks (found ${MAX_BLOCKS + 1})` },
      { path: 'edges', message: `must hold at most ${MAX_EDGES} edges (found ${MAX_EDGES + 1})` },
    ]);
  });

  it('accepts a document at the size limits', () => {
    const ids = Array.from({ length: MAX_BLOCKS }, (_, i) => `b${i}`);
    const edges = Array.from({ length: MAX_EDGES }, (_, i) => {
      const a = i % (MAX_BLOCKS - 1);
      const b = a + 1 + (Math.floor(i / (MAX_BLOCKS - 1)) % (MAX_BLOCKS - 1 - a));
      return { id: `e${i}`, source: ids[a], target: ids[b] };
    });
    expect(problemsOf(doc({ blocks: ids.map((id) => block(id, 'wait')), edges }))).toEqual([]);
  });

  it('caps the number of problems returned and says how many were left out', () => {
    const text = Array.from({ length: MAX_PROBLEMS + 20 }, (_, i) => `<missing${i}.x>`).join(' ');
    const problems = problemsOf(doc({ blocks: [block('a', 'wait', { config: { text } })] }));
    expect(problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(problems.at(-1)).toEqual({ path: '', message: '20 more problems not shown' });
  });

  it('drops a "__proto__" block key without touching prototypes', () => {
    const input: unknown = JSON.parse('{"blocks": {"__proto__": {"id": "__proto__", "type": "wait", "name": "P"}}}');
    const result = validateState(input, catalog);
    expect(result).toEqual({ ok: true, state: { blocks: {}, edges: [], loops: {}, parallels: {} } });
    expect(({} as Record<string, unknown>).id).toBeUndefined();
  });

  it('accepts its own output again unchanged', () => {
    const first = validateState(doc(validDoc()), catalog);
    if (!first.ok) throw new Error('expected a valid document');
    expect(validateState(first.state, catalog)).toEqual(first);
  });
});
