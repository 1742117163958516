import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findReferences, type BlockReference } from '../../src/workflow/index.js';

const blockRefs = (text: string) =>
  findReferences(text).filter((ref): ref is BlockReference => ref.kind === 'block');

describe('findReferences: block references', () => {
  it('parses names and dotted paths', () => {
    expect(findReferences('<api.input>')).toEqual([
      { kind: 'block', raw: '<api.input>', name: 'api', path: ['input'], start: 0, end: 11 },
    ]);
  });

  it('parses nested paths with indexes', () => {
    const [ref] = blockRefs('<api.input.items[0].name>');
    expect(ref.path).toEqual(['input', 'items', 0, 'name']);
    expect(blockRefs('<b.rows[12][3]>')[0].path).toEqual(['rows', 12, 3]);
    expect(blockRefs('<b[2]>')[0]).toMatchObject({ name: 'b', path: [2] });
  });

  it('normalizes names with spaces and capitals', () => {
    const [ref] = blockRefs('Hello <My Block.data>!');
    expect(ref).toMatchObject({ raw: '<My Block.data>', name: 'myblock', path: ['data'], start: 6, end: 21 });
  });

  it('recognizes scope references', () => {
    expect(blockRefs('<loop.index> <parallel.currentItem> <variable.count>').map((r) => r.name)).toEqual([
      'loop',
      'parallel',
      'variable',
    ]);
  });

  it('ignores HTML and comparison operators', () => {
    expect(findReferences('<div>Hello</div> <br/> <p class="x.y">')).toEqual([]);
    expect(findReferences('if (a < b && b > c) return a<b;')).toEqual([]);
    expect(findReferences('x < y.z > w')).toEqual([]);
    expect(findReferences('<a .b> <a. b> <.b> <1a.b> <a.>')).toEqual([]);
    expect(findReferences('mail <john.doe@example.com>')).toEqual([]);
  });

  it('finds references inside HTML', () => {
    expect(blockRefs('<p><api.input.name></p>').map((r) => r.raw)).toEqual(['<api.input.name>']);
  });

  it('reports positions that slice back to the raw text', () => {
    const text = 'a <x.y> b {{ KEY }} c <z.w[1]>';
    for (const ref of findReferences(text)) expect(text.slice(ref.start, ref.end)).toBe(ref.raw);
  });
});

describe('findReferences: env references', () => {
  it('parses {{NAME}} with optional inner spaces', () => {
    expect(findReferences('Bearer {{API_KEY}}')).toEqual([
      { kind: 'env', raw: '{{API_KEY}}', name: 'API_KEY', start: 7, end: 18 },
    ]);
    expect(findReferences('{{ TOKEN }}')).toMatchObject([{ kind: 'env', name: 'TOKEN' }]);
  });

  it('ignores braces that are not env references', () => {
    expect(findReferences('{{1ABC}} {{A-B}} {A} {{}} {{ a b }}')).toEqual([]);
  });

  it('returns both kinds in order of appearance', () => {
    const refs = findReferences('{{HOST}}/users/<api.id>?key={{KEY}}');
    expect(refs.map((r) => [r.kind, r.raw])).toEqual([
      ['env', '{{HOST}}'],
      ['block', '<api.id>'],
      ['env', '{{KEY}}'],
    ]);
  });
});

// Strings built from the characters the grammar cares about, so near-misses are common.
const referenceSoup = fc
  .array(fc.constantFrom('<', '>', '.', '[', ']', '{{', '}}', '{', 'a', 'B', ' ', '\t', '0', '_', '-', 'api', '9'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

describe('findReferences on hostile input', () => {
  it('stays fast on long unterminated candidates', () => {
    const started = performance.now();
    findReferences(`<a${' b'.repeat(200_000)}`);
    findReferences('<a.b'.repeat(50_000));
    findReferences(`{{${' '.repeat(200_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('never throws and returns well-formed references for any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), referenceSoup), (text) => {
        for (const ref of findReferences(text)) {
          expect(text.slice(ref.start, ref.end)).toBe(ref.raw);
          if (ref.kind === 'block') expect(ref.path.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds references embedded in arbitrary surrounding text', () => {
    const noAngle = fc.string().map((s) => s.replace(/[<>{}]/g, ''));
    fc.assert(
      fc.property(noAngle, noAngle, (before, after) => {
        const refs = findReferences(`${before}<blk.out[0]>${after}`);
        expect(refs).toHaveLength(1);
        expect(refs[0]).toMatchObject({ kind: 'block', name: 'blk', path: ['out', 0], start: before.length });
      }),
    );
  });
});
