import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { evaluateExpression, runUserCode } from '../../src/sandbox/index.js';

// fast-check's JSON values include -0, which JSON itself turns into 0; compare through JSON to ignore that.
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('inputs round-trip', () => {
  test('any JSON value comes back unchanged through `return input`', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const result = await runUserCode({ code: 'return input', inputs: { input: value } });
        expect(result).toEqual({ ok: true, result: viaJson(value), stdout: '' });
      }),
      { numRuns: 150 },
    );
  });

  test('any set of JSON inputs arrives under its own names', async () => {
    const names = fc.string({ minLength: 1, maxLength: 8 }).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(names, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), async (inputs) => {
        const code = `return [${Object.keys(inputs).map((name) => `[${JSON.stringify(name)}, ${name}]`).join(', ')}]`;
        const result = await runUserCode({ code, inputs });
        expect(result.ok).toBe(true);
        expect(Object.fromEntries(result.result as Array<[string, unknown]>)).toEqual(viaJson(inputs));
      }),
      { numRuns: 60 },
    );
  });

  test('strings of any characters stay data in expressions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), async (text) => {
        const result = await evaluateExpression({ expression: 'text', inputs: { text } });
        expect(result).toEqual({ ok: true, result: text, stdout: '' });
      }),
      { numRuns: 100 },
    );
  });
});

// Names that cannot be bindings (keywords) or are non-configurable globals.
const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await async undefined NaN Infinity arguments eval of get set')
    .split(' '),
);
