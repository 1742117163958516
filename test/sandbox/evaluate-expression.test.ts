import { describe, expect, test } from 'vitest';
import { evaluateExpression, runUserCode } from '../../src/sandbox/index.js';

describe('evaluateExpression', () => {
  test('returns the value of a condition over its inputs', async () => {
    const inputs = { __ref0: { status: 200, body: { items: [1, 2, 3] } }, __ref1: 'admin' };
    expect(await evaluateExpression({ expression: '__ref0.status === 200 && __ref0.body.items.length > 2', inputs })).toEqual({
      ok: true,
      result: true,
      stdout: '',
    });
    expect(await evaluateExpression({ expression: "__ref1 === 'guest'", inputs })).toMatchObject({ result: false });
    expect(await evaluateExpression({ expression: '__ref0.body.items.map((n) => n * 2)', inputs })).toMatchObject({ result: [2, 4, 6] });
  });

  test('a trailing semicolon and surrounding whitespace are forgiven', async () => {
    expect(await evaluateExpression({ expression: '  1 + 1;  \n', inputs: {} })).toMatchObject({ ok: true, result: 2 });
  });

  test('an expression may span lines and end in a comment', async () => {
    expect(await evaluateExpression({ expression: 'x >\n  5 // big enough', inputs: { x: 9 } })).toMatchObject({ result: true });
  });

  test('errors carry the line within the expression', async () => {
    expect(await evaluateExpression({ expression: 'x > 1 &&\n  y.z', inputs: { x: 2 } })).toMatchObject({
      ok: false,
      error: 'ReferenceError: y is not defined at line 2',
    });
    expect(await evaluateExpression({ expression: 'x >', inputs: { x: 1 } })).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError/) });
  });

  test('an empty expression is a syntax error, not true or false', async () => {
    expect(await evaluateExpression({ expression: '  ', inputs: {} })).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError/) });
  });

  test('the same limits apply', async () => {
    expect(await evaluateExpression({ expression: '(() => { for (;;) {} })()', inputs: {}, limits: { timeoutMs: 200 } })).toMatchObject({
      ok: false,
      error: 'Execution timed out after 200 ms',
    });
  });
});

describe('limits', () => {
  test('nonsense limits are a programming error', async () => {
    await expect(runUserCode({ code: 'return 1', inputs: {}, limits: { timeoutMs: 0 } })).rejects.toThrow(RangeError);
    await expect(runUserCode({ code: 'return 1', inputs: {}, limits: { memoryLimitBytes: Number.NaN } })).rejects.toThrow(RangeError);
  });

  // Building 20 MiB of strings is CPU work that a loaded machine (sandbox threads run at nice 10) can stretch past the
  // default 5 s: a deadline it never comes near, so only memory decides.
  test('a run may use memory up to its limit', { timeout: 90_000 }, async () => {
    const code = 'const keep = []; for (let i = 0; i < 20; i++) keep.push("z".repeat(1e6) + i); return keep.length';
    const limits = { memoryLimitBytes: 48 * 1024 * 1024, timeoutMs: 60_000 };
    expect(await runUserCode({ code, inputs: {}, limits })).toMatchObject({ ok: true, result: 20 });
  });
});
