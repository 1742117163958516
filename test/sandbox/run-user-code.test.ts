import { describe, expect, test } from 'vitest';
import { runUserCode } from '../../src/sandbox/index.js';

const run = (code: string, inputs: Record<string, unknown> = {}) => runUserCode({ code, inputs });

describe('runUserCode results', () => {
  test.each([
    ['a string', 'return "hello"', 'hello'],
    ['a number', 'return 4.5 * 2', 9],
    ['a boolean', 'return 1 < 2', true],
    ['null', 'return null', null],
    ['an array', 'return [1, "two", [3], { four: 4 }]', [1, 'two', [3], { four: 4 }]],
    ['an object', 'return { a: { b: [true, null] }, "key with space": "" }', { a: { b: [true, null] }, 'key with space': '' }],
  ])('returns %s', async (_, code, expected) => {
    expect(await run(code)).toEqual({ ok: true, result: expected, stdout: '' });
  });

  test('no return gives null, as do undefined, functions and symbols inside the value', async () => {
    expect(await run('const x = 1;')).toMatchObject({ ok: true, result: null });
    const mixed = await run('return { u: undefined, f() {}, s: Symbol("s"), list: [undefined, () => 1, 2] }');
    expect(mixed).toMatchObject({ ok: true, result: { u: null, f: null, s: null, list: [null, null, 2] } });
  });

  test('NaN and Infinity become null, as JSON has no such numbers', async () => {
    expect(await run('return [NaN, Infinity, -0, 1e21]')).toMatchObject({ result: [null, null, 0, 1e21] });
  });

  test('await works on promises created inside the sandbox', async () => {
    const code = `
      const wait = (v) => new Promise((resolve) => resolve(v));
      const a = await wait(2);
      const [b, c] = await Promise.all([wait(3), (async () => 4)()]);
      await null;
      return a * b * c;`;
    expect(await run(code)).toMatchObject({ ok: true, result: 24 });
  });

  test('a rejected await is reported like a thrown error', async () => {
    expect(await run('await Promise.reject(new RangeError("nope"))')).toMatchObject({ ok: false, error: 'RangeError: nope at line 1' });
  });

  test('a non-serializable result gives a clear error', async () => {
    expect(await run('const a = {}; a.self = a; return a')).toEqual({
      ok: false,
      result: null,
      stdout: '',
      error: 'Result is not JSON-serializable: TypeError: circular reference',
    });
    expect((await run('return 10n')).error).toMatch(/^Result is not JSON-serializable: TypeError: .*BigInt/);
  });
});

describe('runUserCode inputs', () => {
  test('each input is a global holding a deep copy', async () => {
    const inputs = { user: { name: 'Ada', tags: ['x'] }, count: 3, flag: false, nothing: null };
    const result = await run('user.tags.push("changed"); return [user.name, count + 1, flag, nothing, user.tags]', inputs);
    expect(result).toMatchObject({ ok: true, result: ['Ada', 4, false, null, ['x', 'changed']] });
    expect(inputs.user.tags).toEqual(['x']);
  });

  test('a string that looks like code stays a harmless string', async () => {
    const evil = '"); process.exit(1); ("';
    const result = await run('return { text, length: text.length, type: typeof text }', { text: evil });
    expect(result).toMatchObject({ ok: true, result: { text: evil, length: evil.length, type: 'string' } });
  });

  test('inputs can be reassigned inside the code', async () => {
    expect(await run('count = count * 2; return count', { count: 21 })).toMatchObject({ result: 42 });
  });

  test('an undefined input is declared and undefined', async () => {
    expect(await run('return typeof maybe', { maybe: undefined })).toMatchObject({ result: 'undefined' });
  });

  test('an input that JSON cannot carry is refused before running', async () => {
    expect(await run('return 1', { big: 1n })).toMatchObject({ ok: false, error: expect.stringMatching(/^Input "big" is not JSON-serializable/) });
    expect(await run('return 1', { fn: () => 1 })).toMatchObject({ ok: false, error: 'Input "fn" is not JSON-serializable (function)' });
  });

  test('inputs larger than the memory limit are refused before running', async () => {
    const result = await runUserCode({ code: 'return 1', inputs: { blob: 'x'.repeat(2 * 1024 * 1024) }, limits: { memoryLimitBytes: 1024 * 1024 } });
    expect(result).toMatchObject({ ok: false, error: 'Inputs are larger than the memory limit (1 MiB)' });
  });
});

describe('runUserCode console', () => {
  test('console methods append lines: strings raw, everything else as JSON', async () => {
    const code = `
      console.log("plain", 42, true, null, undefined);
      console.info({ a: [1, "b"] });
      console.warn("warned");
      console.error(new TypeError("bad"), () => 1);
      return "done";`;
    expect(await run(code)).toEqual({
      ok: true,
      result: 'done',
      stdout: 'plain 42 true null undefined\n{"a":[1,"b"]}\nwarned\nTypeError: bad [Function: anonymous]\n',
    });
  });

  test('output written before a failure is kept', async () => {
    expect(await run('console.log("before"); throw new Error("after")')).toEqual({
      ok: false,
      result: null,
      stdout: 'before\n',
      error: 'Error: after at line 1',
    });
  });

  test('output beyond maxStdoutBytes is cut with a note', async () => {
    const result = await runUserCode({
      code: 'for (let i = 0; i < 1000; i++) console.log("line " + i); return "finished"',
      inputs: {},
      limits: { maxStdoutBytes: 1024 },
    });
    expect(result.ok).toBe(true);
    expect(result.stdout.startsWith('line 0\nline 1\n')).toBe(true);
    expect(result.stdout.endsWith('\n[stdout truncated: output exceeded 1 KiB]\n')).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(1024 + 100);
  });
});

describe('runUserCode errors', () => {
  test('a thrown error gives its name, message and line', async () => {
    expect(await run('const a = 1;\nconst b = 2;\nreturn a + x;')).toMatchObject({ ok: false, result: null, error: 'ReferenceError: x is not defined at line 3' });
    expect(await run('\n\nnull.field')).toMatchObject({ error: expect.stringMatching(/^TypeError: .* at line 3$/) });
  });

  test('a syntax error is reported with its line', async () => {
    expect(await run('const a = 1;\nconst = 2;')).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: .* at line 2$/) });
    expect(await run('if (true) {')).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: /) });
  });

  test('thrown non-errors are shown as values', async () => {
    expect(await run('throw "boom"')).toMatchObject({ ok: false, error: 'boom' });
    expect(await run('throw { code: 7 }')).toMatchObject({ ok: false, error: '{"code":7}' });
  });

  test('an error whose message getter throws still produces a message', async () => {
    const result = await run('throw { get message() { throw new Error("no") }, name: "Weird" }');
    expect(result).toMatchObject({ ok: false, error: expect.any(String) });
  });

  test('a trailing line comment does not break the wrapper', async () => {
    expect(await run('return 5 // five')).toMatchObject({ ok: true, result: 5 });
  });

  test('code mentioning import/export is still run as a script', async () => {
    expect(await run('const exportName = "import"; return exportName')).toMatchObject({ ok: true, result: 'import' });
  });
});
