// validateState guards every save and deploy: whatever arrives, it must answer with problems, never throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findReferences, validateState, type Problem } from '../../src/workflow/index.js';
import { catalog } from './fixtures.js';

function expectWellFormed(result: ReturnType<typeof validateState>) {
  if (result.ok) return;
  expect(result.problems.length).toBeGreaterThan(0);
  for (const problem of result.problems as Problem[]) {
    expect(typeof problem.path).toBe('string');
    expect(problem.message.length).toBeGreaterThan(0);
  }
}

// Few ids and names, so edges, parents and references often hit real blocks and the semantic rules run.
const id = fc.constantFrom('a', 'b', 'c', 'l', 'p', 'toString', '__proto__');
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('<a.x>', '<B.y[0]>', '<loop.index>', '<parallel.item>', '<variable.v>', '<api.input>', '{{K}}', '[1,2]', 'x'),
);
const blockArb = fc.record(
  {
    id,
    type: fc.constantFrom('api_trigger', 'api', 'condition', 'loop', 'parallel', 'wait', 'nope'),
    name: fc.constantFrom('A', 'B', 'b ', 'Loop', 'api', ''),
    parentId: id,
    enabled: fc.boolean(),
    config: fc.dictionary(fc.constantFrom('url', 'code', 'conditions', 'x'), fc.oneof(text, fc.jsonValue())),
  },
  { requiredKeys: ['id', 'type', 'name'] },
);
const edgeArb = fc.record(
  {
    id: fc.constantFrom('e1', 'e2', 'e3'),
    source: id,
    target: id,
    sourceHandle: fc.constantFrom('source', 'error', 'condition-c1', 'junk'),
  },
  { requiredKeys: ['id', 'source', 'target'] },
);
const loopArb = fc.record(
  { id, nodes: fc.array(id, { maxLength: 4 }), loopType: fc.constantFrom('for', 'forEach'), iterations: fc.integer({ min: -1, max: 3 }), forEachItems: fc.oneof(text, fc.jsonValue()) },
  { requiredKeys: ['id', 'nodes', 'loopType'] },
);
const parallelArb = fc.record(
  { id, nodes: fc.array(id, { maxLength: 4 }), parallelType: fc.constantFrom('count', 'collection'), count: fc.integer({ min: 0, max: 3 }), distribution: fc.oneof(text, fc.jsonValue()) },
  { requiredKeys: ['id', 'nodes', 'parallelType'] },
);
const keyed = <T extends { id: string }>(arb: fc.Arbitrary<T>) =>
  fc.array(arb, { maxLength: 6 }).map((items) => Object.fromEntries(items.map((item) => [item.id, item])));
const nearlyValidState = fc.record(
  { blocks: keyed(blockArb), edges: fc.array(edgeArb, { maxLength: 8 }), loops: keyed(loopArb), parallels: keyed(parallelArb) },
  { requiredKeys: ['blocks'] },
);

describe('fuzzing', () => {
  it('validateState never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expectWellFormed(validateState(input, catalog));
      }),
      { numRuns: 500 },
    );
  });

  it('validateState never throws on arbitrary JSON placed in each section', () => {
    const section = fc.jsonValue();
    fc.assert(
      fc.property(fc.record({ blocks: section, edges: section, loops: section, parallels: section }, { requiredKeys: [] }), (input) => {
        expectWellFormed(validateState(input, catalog));
      }),
      { numRuns: 300 },
    );
  });

  it('validateState never throws on nearly valid states, and what it accepts it accepts again unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearlyValidState, (input) => {
        const result = validateState(input, catalog);
        expectWellFormed(result);
        if (result.ok) {
          accepted += 1;
          expect(validateState(result.state, catalog)).toEqual(result);
        }
      }),
      { numRuns: 1000 },
    );
    // The generator is only useful if it reaches both outcomes.
    expect(accepted).toBeGreaterThan(0);
  });

  it('findReferences never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (input) => {
        expect(Array.isArray(findReferences(input))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
