import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBytes } from '../../src/services/files/json-bytes.js';

// Thresholds of 0/1 byte send every body and every string through the extraction path.
const eager = { minBodyBytes: 0, minStringBytes: 1 };

function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: run() };
  } catch (err) {
    return { error: (err as Error).name };
  }
}

describe('parseJsonBytes', () => {
  it('equals JSON.parse for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonBytes(Buffer.from(text), eager)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and rejects exactly what JSON.parse does, for mangled text too', () => {
    const mangled = fc
      .tuple(fc.jsonValue(), fc.array(fc.tuple(fc.nat(), fc.constantFrom('"', '\\', ':', ',', '{', '}', '\n', '\u0001', 'é', 'x'))))
      .map(([value, edits]) => {
        let text = JSON.stringify(value);
        for (const [at, ch] of edits) {
          const i = text.length === 0 ? 0 : at % (text.length + 1);
          text = text.slice(0, i) + ch + text.slice(i);
        }
        return text;
      });
    fc.assert(
      fc.property(mangled, (text) => {
        const expected = outcome(() => JSON.parse(text));
        expect(outcome(() => parseJsonBytes(Buffer.from(text), eager))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('puts long strings back wherever they were, including under a "__proto__" key', () => {
    const long = 'QUJD'.repeat(100_000);
    const text = `{"a":[1,"${long}",{"__proto__":"${long}"}],"${long}":true,"b":"${long}x","c":"esc\\"aped ${long}"}`;
    const parsed = parseJsonBytes(Buffer.from(text)) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(text));
    const inner = (parsed.a as unknown[])[2] as object;
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toBe(long);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
  });

  it('rejects a raw control character inside a long string, as JSON.parse does', () => {
    const text = `{"a":"${'A'.repeat(300_000)}\u0007"}`;
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseJsonBytes(Buffer.from(text), { minBodyBytes: 0 })).toThrow(SyntaxError);
  });

  it('skips a leading UTF-8 byte-order mark and keeps non-ASCII text intact', () => {
    const text = JSON.stringify({ name: 'résumé 文件 🎉', data: 'x'.repeat(2_000_000) });
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(parseJsonBytes(bytes)).toEqual(JSON.parse(text));
  });
});
