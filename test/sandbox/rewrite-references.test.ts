import { describe, expect, test } from 'vitest';
import { rewriteReferences, runUserCode } from '../../src/sandbox/index.js';

/** Finds `<a.b>` spans the way the workflow module reports them (sorted, non-overlapping), for these tests only. */
function spansOf(code: string): Array<{ start: number; end: number }> {
  return [...code.matchAll(/<[A-Za-z][\w]*(?:\.[\w]+|\[\d+\])+>/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

describe('rewriteReferences', () => {
  test('replaces each span with a numbered identifier', () => {
    const code = 'const total = <api.data.count> + <start.input.extra>;\nreturn total;';
    expect(rewriteReferences(code, spansOf(code))).toEqual({
      code: 'const total = __ref0 + __ref1;\nreturn total;',
      names: ['__ref0', '__ref1'],
    });
  });

  test('uses the names it is given', () => {
    expect(rewriteReferences('<a.b>', [{ start: 0, end: 5 }], (i) => `input_${i}`)).toEqual({ code: 'input_0', names: ['input_0'] });
  });

  test('leaves code without references alone', () => {
    expect(rewriteReferences('return a < b && c > d', [])).toEqual({ code: 'return a < b && c > d', names: [] });
  });

  test('keeps neighbouring identifiers from fusing with the replacement', () => {
    expect(rewriteReferences('typeof<a.b>', [{ start: 6, end: 11 }]).code).toBe('typeof __ref0');
    expect(rewriteReferences('<a.b><c.d>', [{ start: 0, end: 5 }, { start: 5, end: 10 }]).code).toBe('__ref0 __ref1');
    expect(rewriteReferences('f(<a.b>)', [{ start: 2, end: 7 }]).code).toBe('f(__ref0)');
  });

  test('rejects spans that overlap, go backwards or leave the code', () => {
    expect(() => rewriteReferences('abcdef', [{ start: 0, end: 3 }, { start: 2, end: 4 }])).toThrow(RangeError);
    expect(() => rewriteReferences('abcdef', [{ start: 3, end: 2 }])).toThrow(RangeError);
    expect(() => rewriteReferences('abc', [{ start: 1, end: 9 }])).toThrow(RangeError);
    expect(() => rewriteReferences('abc', [{ start: 0, end: 1 }], () => 'not an identifier')).toThrow(RangeError);
  });

  test('produces runnable code whose referenced values arrive as data', async () => {
    const code = 'const user = <start.input.user>;\nconsole.log(<start.input.note>);\nreturn `${user.name} has ${<api.data.items>.length} items`;';
    const { code: rewritten, names } = rewriteReferences(code, spansOf(code));
    const values = [{ name: 'Ada' }, '"); process.exit(1); ("', [1, 2, 3]];
    const inputs = Object.fromEntries(names.map((name, i) => [name, values[i]]));
    expect(await runUserCode({ code: rewritten, inputs })).toEqual({
      ok: true,
      result: 'Ada has 3 items',
      stdout: '"); process.exit(1); ("\n',
    });
  });
});
