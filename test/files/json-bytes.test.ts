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

/** An insertion of one of `pieces` at a position (taken modulo the text's length + 1). */
const edit = (...pieces: string[]) => fc.tuple(fc.nat(), fc.constantFrom(...pieces));

/** Texts from `texts` with the `edits` inserted, one after the other. */
function mangled(texts: fc.Arbitrary<string>, edits: fc.Arbitrary<Array<[number, string]>>): fc.Arbitrary<string> {
  return fc.tuple(texts, edits).map(([text, insertions]) => {
    for (const [at, piece] of insertions) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + piece + text.slice(i);
    }
    return text;
  });
}

/** Every text is parsed to the same value, or refused with the same error, as JSON.parse does (all strings cut). */
function assertParsesLikeJsonParse(texts: fc.Arbitrary<string>) {
  fc.assert(
    fc.property(texts, (text) => {
      expect(outcome(() => parseJsonBytes(Buffer.from(text), eager))).toEqual(outcome(() => JSON.parse(text)));
    }),
    { numRuns: 2000 },
  );
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
    const texts = fc.jsonValue().map((value) => JSON.stringify(value));
    assertParsesLikeJsonParse(mangled(texts, fc.array(edit('"', '\\', ':', ',', '{', '}', '\n', '\u0001', 'é', 'x'))));
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

  // Issue 21, item 1: bodies made of escapes, where the scan for long strings used to restart its search for the
  // closing quote after every backslash (quadratic: a 3 MB body of `\n` took 25 s).
  describe('escape-heavy bodies', () => {
    /** JSON string literal text built from escapes and plain runs, exactly as a client may write it by hand. */
    const literal = fc
      .array(
        fc.constantFrom('\\n', '\\"', '\\\\', '\\/', '\\t', '\\u00e9', '\\ud83d\\ude00', '\\u0000', 'a', 'QUJD', 'é', ' ', ':', '{', ']'),
        { maxLength: 40 },
      )
      .map((parts) => `"${parts.join('')}"`);
    /** Objects and arrays of such literals, in key and value places, with whitespace that isFollowedByColon meets. */
    const body = fc
      .array(fc.tuple(literal, literal, fc.constantFrom('', ' ', '\n\t')), { maxLength: 8 })
      .chain((pairs) =>
        fc.constantFrom(
          `{${pairs.map(([key, value, space]) => `${key}${space}:${space}${value}`).join(',')}}`,
          `[${pairs.map(([a, b, space]) => `${a},${space}${b}`).join(',')}]`,
        ),
      );

    it('parse exactly as JSON.parse does, whichever literals are cut out', () => {
      fc.assert(
        fc.property(body, fc.integer({ min: 1, max: 12 }), (text, minStringBytes) => {
          // Keys with the same text after unescaping: JSON.parse keeps the last, and so must this.
          expect(parseJsonBytes(Buffer.from(text), { minBodyBytes: 0, minStringBytes })).toEqual(JSON.parse(text));
        }),
        { numRuns: 1000 },
      );
    });

    it('accept and reject exactly what JSON.parse does when quotes and backslashes are dropped in anywhere', () => {
      assertParsesLikeJsonParse(mangled(body, fc.array(edit('"', '\\', '\\\\', '\\"', 'u', '\n'), { minLength: 1, maxLength: 4 })));
    });

    it.each([
      ['a body that ends in a backslash', '{"a":"abc\\'],
      ['a body that ends right after an escaped quote', '{"a":"abc\\"'],
      ['an escaped backslash before the closing quote', '{"a":"abc\\\\","b":"xyz"}'],
      ['a run of escaped quotes', `{"a":"${'\\"'.repeat(1000)}"}`],
      ['a run of escaped backslashes, one short of closing', `{"a":"${'\\\\'.repeat(500)}\\"}`],
      ['an escaped key before a long plain value', `{"k\\"ey":"${'A'.repeat(5000)}"}`],
      ['a long plain value after a long escaped one', `["${'\\n'.repeat(5000)}","${'B'.repeat(5000)}"]`],
      ['unicode escapes split nowhere', `{"a":"${'\\u00e9\\ud83d\\ude00'.repeat(500)}"}`],
    ])('%s: same value or same SyntaxError as JSON.parse', (_, text) => {
      const expected = outcome(() => JSON.parse(text));
      expect(outcome(() => parseJsonBytes(Buffer.from(text), { minBodyBytes: 0, minStringBytes: 100 }))).toEqual(expected);
    });

    /**
     * A body whose every byte read, and every byte a native indexOf passes over, is counted: work steps, not time.
     * Method calls are forwarded to the real buffer (natives need it as `this`).
     */
    function counted(bytes: Buffer): { bytes: Buffer; looked: () => number } {
      let looked = 0;
      const proxy = new Proxy(bytes, {
        get(target, property) {
          if (property === 'indexOf') {
            return (byte: number, from = 0) => {
              const found = target.indexOf(byte, from);
              looked += (found < 0 ? target.length : found + 1) - from;
              return found;
            };
          }
          if (typeof property === 'string' && /^\d+$/.test(property)) looked++;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { bytes: proxy, looked: () => looked };
    }

    const shapes: Array<[string, (n: number) => string]> = [
      ['one string of \\n escapes', (n) => `{"q":"${'\\n'.repeat(n / 2)}"}`],
      ['one string of unicode escapes', (n) => `{"q":"${'\\u00e9'.repeat(n / 6)}"}`],
      ['one string of escaped backslashes', (n) => `{"q":"${'\\\\'.repeat(n / 2)}"}`],
      ['one string of escaped quotes', (n) => `{"q":"${'\\"'.repeat(n / 2)}"}`],
      ['an escape, then a long plain string', (n) => `{"q":"\\n${'A'.repeat(n)}"}`],
      ['many small escaped strings', (n) => `[${'"\\n",'.repeat(n / 5)}"x"]`],
      ['many small plain strings', (n) => `[${'"a",'.repeat(n / 4)}"x"]`],
      ['long plain strings among escaped keys', (n) => `{${`"\\n":"${'A'.repeat(2000)}",`.repeat(n / 2008)}"x":1}`],
    ];

    it('are scanned in time linear in their size, whatever their shape', () => {
      for (const [name, shape] of shapes) {
        // 64 KB is enough for a quadratic scan to show: it looked at each byte thousands of times.
        const { bytes, looked } = counted(Buffer.from(shape(64 * 1024)));
        const text = bytes.toString('utf8');
        const parsed = outcome(() => parseJsonBytes(bytes, { minBodyBytes: 0, minStringBytes: 1000 }));
        expect(parsed, name).toEqual(outcome(() => JSON.parse(text)));
        expect(looked() / bytes.length, `bytes looked at per body byte, ${name}`).toBeLessThanOrEqual(4);
      }
    });
  });
});

