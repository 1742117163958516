// The nesting limit of JSON request bodies (README "Limits"): a body nested deeper than MAX_JSON_DEPTH arrays and
// objects is refused with 400 before it is parsed, on every route that takes JSON. Code that walks user data
// recursively can then rely on the bound, and a 10,000-level body cannot overflow the stack of any walk.
import { AppError } from './errors.js';
import { QUOTE, StringLiteralScanner } from './json-literals.js';

export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count). One pass, no parse,
 * linear in the text whatever its strings hold. Text is read as UTF-8 bytes (every byte of a multi-byte character is
 * above 0x7f, so never taken for a bracket or a quote): callers that have the bytes should pass them, not a copy.
 */
export function jsonNestingDepth(text: Uint8Array | string, stopAbove = Infinity): number {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const literals = new StringLiteralScanner(bytes);
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      const close = literals.closingQuote(i + 1);
      if (close < 0) break; // an unterminated string: nothing after it nests
      i = close;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

/** 400 VALIDATION_ERROR when `text` nests deeper than the limit. */
export function assertJsonNesting(text: Uint8Array | string, max = MAX_JSON_DEPTH): void {
  if (jsonNestingDepth(text, max) > max) {
    throw new AppError('VALIDATION_ERROR', 400, `JSON nested deeper than ${max} levels is not accepted`, [
      { path: '', message: `nesting deeper than ${max} arrays/objects` },
    ]);
  }
}
