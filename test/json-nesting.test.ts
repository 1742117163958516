// The nesting check of JSON request bodies (src/json-nesting.ts) reads bytes and skips string literals through the
// shared scanner (src/json-literals.ts): it must count exactly what a plain character-by-character reading counts,
// for any text — escapes, brackets and quotes inside strings, unterminated strings, non-ASCII, lone surrogates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth } from '../src/json-nesting.js';

/** The definition: brackets outside strings, a backslash inside one skipping the next character. */
function referenceDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

const piece = fc.oneof(
  fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', '\\\\', '\\n', '\\u00e9', ':', ',', ' ', 'é', '😀', '\ud800'),
  // long literals, so the scanner's native searches (past its first 64 bytes) are taken too
  fc.constantFrom('"' + 'A'.repeat(100) + '"', '"' + 'A'.repeat(70) + '\\"[' + 'B'.repeat(70) + '"', '"' + '[{'.repeat(50) + '"'),
);
const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));

describe('jsonNestingDepth', () => {
  it('counts what a character-by-character reading counts, as text and as bytes', () => {
    fc.assert(
      fc.property(text, (t) => {
        const expected = referenceDepth(t);
        expect(jsonNestingDepth(t)).toBe(expected);
        expect(jsonNestingDepth(Buffer.from(t))).toBe(expected);
        expect(jsonNestingDepth(new Uint8Array(Buffer.from(t)))).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the depth of the parsed value for JSON, whatever its strings hold', () => {
    const valueDepth = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(valueDepth)) : 0;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        expect(jsonNestingDepth(Buffer.from(json))).toBe(valueDepth(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('stops as soon as the limit is passed', () => {
    expect(jsonNestingDepth('[[[[[[', 3)).toBe(4);
  });
});
