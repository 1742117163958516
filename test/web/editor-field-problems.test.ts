// What a code field marks inline (web/src/editor/field-problems.ts): the server's problems in that field at the
// references they name, and where a JSON body stops being JSON.
import { describe, expect, it } from 'vitest';
import { inlineProblems, jsonSyntaxProblem, problemsUnder, referenceRanges } from '../../web/src/editor/field-problems.js';

describe('inline problems of a field', () => {
  it("a reference to no block is marked wherever it is typed in the field's text", () => {
    const code = 'const a = <ghost.result>;\nreturn <ghost.result> + <fetch.data>;';
    const [problem] = inlineProblems(code, [{ path: [], message: 'reference <ghost.result> names no block' }]);
    expect(problem.severity).toBe('error');
    expect(problem.ranges.map((r) => code.slice(r.from, r.to))).toEqual(['<ghost.result>', '<ghost.result>']);
    expect(problem.ranges[0]).toEqual({ from: 10, to: 24 });
  });

  it('a problem that names nothing in the text (fixed meanwhile, or about the whole field) is still shown, unmarked', () => {
    expect(inlineProblems('return 1;', [{ path: [], message: 'reference <ghost.result> names no block' }])).toEqual([
      { message: 'reference <ghost.result> names no block', severity: 'error', ranges: [] },
    ]);
    expect(referenceRanges('{{TOKEN}} and {{TOKEN}}', 'uses {{TOKEN}}')).toEqual([
      { from: 0, to: 9 },
      { from: 14, to: 23 },
    ]);
  });

  it("a form field gets the problems under its key, a condition those under its index", () => {
    const problems = [
      { path: ['conditions', '1', 'expression'], message: 'reference <nope.x> names no block' },
      { path: ['code'], message: 'other' },
    ];
    const conditions = problemsUnder(problems, 'conditions');
    expect(conditions).toEqual([{ path: ['1', 'expression'], message: 'reference <nope.x> names no block' }]);
    expect(problemsUnder(conditions, '1')).toHaveLength(1);
    expect(problemsUnder(conditions, '0')).toEqual([]);
  });

  it('JSON that does not parse is marked where it goes wrong, with its line and column', () => {
    const body = '{\n  "order": 1,\n  "state": }';
    const problem = jsonSyntaxProblem(body)!;
    expect(problem.severity).toBe('warning');
    expect(problem.message).toMatch(/^Not valid JSON: .+ \(line 3, column 12\)\. It will be sent as text\.$/);
    expect(body.slice(problem.ranges[0].from, problem.ranges[0].to)).toBe('}');
    // Cut short: the last character is marked.
    const short = '{"a": 1';
    expect(jsonSyntaxProblem(short)!.ranges).toEqual([{ from: 6, to: 7 }]);
    // An unquoted reference is not JSON either.
    const ref = '{"x": <api.data>}';
    const marked = jsonSyntaxProblem(ref)!.ranges[0];
    expect(ref.slice(marked.from, marked.to)).toBe('<api.data>');
  });

  it('text not meant as JSON (empty, a lone reference, words) and valid JSON get no JSON problem', () => {
    for (const text of ['', '<api.data>', 'hello', '{"a": [1, 2]}', ' [true] ']) expect(jsonSyntaxProblem(text), text).toBeNull();
    expect(inlineProblems('{"a":', [], { json: false })).toEqual([]);
    expect(inlineProblems('{"a":', [], { json: true })).toHaveLength(1);
  });
});
