// jsonSize (a value's size as JSON, found without writing the JSON) and the text limit of resolveValue: the two
// halves of checking run outputs as they are produced (docs/guarantees.md "Bounded output").
import { describe, expect, it } from 'vitest';
import { getPath, jsonSize, resolveValue, TextTooLongError, type ReferenceResolver } from '../../src/workflow/index.js';

describe('jsonSize', () => {
  it('is the length of the JSON text, give or take one character per array or object', () => {
    const values: unknown[] = [
      'plain',
      42.5,
      -17,
      1e-7,
      2 ** 60,
      -0,
      null,
      true,
      [],
      {},
      [1, 'two', null, false],
      { a: 1, nested: { list: [1, 2, { deep: 'yes' }], empty: {} }, skipped: undefined },
      { when: new Date(0), big: 12345678901234567890 },
    ];
    for (const value of values) {
      const text = JSON.stringify(value);
      const containers = text.split('').filter((c) => c === '[' || c === '{').length;
      const size = jsonSize(value, Infinity);
      expect(size, text).toBeGreaterThanOrEqual(text.length);
      expect(size, text).toBeLessThanOrEqual(text.length + containers);
    }
  });

  it('counts a shared value every time it appears, and stops soon after the limit', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const amplified = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, big]));
    const limit = 64 * 1024 * 1024;
    const size = jsonSize(amplified, limit);
    expect(size).toBeGreaterThan(limit);
    // It stopped at the seventh copy of 10 MB rather than counting all 60.
    expect(size).toBeLessThan(limit + big.length + 100);
  });

  it('ends on a cyclic value once past the limit', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(jsonSize(cyclic, 1_000)).toBeGreaterThan(1_000);
  });
});

describe('resolveValue with a text limit', () => {
  const q = 'x'.repeat(1_000);
  const resolver: ReferenceResolver = {
    block: (ref) => getPath({ api: { q, obj: { list: Array(100).fill(q) } } }[ref.name], ref.path),
    env: () => '',
  };

  it('fills in texts up to the limit as before', () => {
    expect(resolveValue({ text: 'a <api.q> b' }, resolver, 1_004)).toEqual({ text: `a ${q} b` });
  });

  it('gives up on a text before it passes the limit', () => {
    expect(() => resolveValue({ text: Array(60).fill('<api.q>').join(' ') }, resolver, 10_000)).toThrow(TextTooLongError);
    expect(() => resolveValue('a <api.q> b', resolver, 1_003)).toThrow(new TextTooLongError(1_003));
  });

  it('measures an object before writing it into a text', () => {
    expect(() => resolveValue('all: <api.obj>', resolver, 50_000)).toThrow(TextTooLongError);
    expect(resolveValue('all: <api.obj>', resolver, 200_000)).toBe(`all: ${JSON.stringify({ list: Array(100).fill(q) })}`);
  });

  it('leaves exact references alone: they share the value, the caller measures it', () => {
    expect(resolveValue(['<api.q>', '<api.q>'], resolver, 10)).toEqual([q, q]);
  });
});
