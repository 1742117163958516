// Where the string literals of JSON bytes end, for the scans that run over a whole request body before it is parsed
// (the nesting check, json-nesting.ts; the long-string cut, services/files/json-bytes.ts). Bodies come from anyone —
// the public chat needs no key — so the cost must be linear in the body whatever its literals hold: issue 21 was a
// 3 MB body of `\n` escapes that held the event loop for 25 s, because the closing quote was searched for again after
// every backslash. Here no byte is looked at more than about twice.

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Literals are first read byte by byte this far: most (keys, words, numbers as text) end sooner, and one native search
 * costs as much as reading a few dozen bytes in a loop.
 */
const SHORT_LITERAL_BYTES = 64;

/** One pass over `bytes`: literals must be measured in the order they appear. */
export class StringLiteralScanner {
  /** Whether the literal measured last holds an escape (a backslash). */
  escaped = false;
  private readonly bytes: Buffer;
  /** The first backslash at or after the last search, kept until the scan passes it (it may be many literals ahead). */
  private nextBackslash = -1;

  constructor(bytes: Uint8Array) {
    // Buffer's indexOf is memchr; a plain Uint8Array's is several times slower.
    this.bytes = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The index of the quote that closes the literal whose content begins at `start`, or -1 if none does. */
  closingQuote(start: number): number {
    const bytes = this.bytes;
    const shortEnd = Math.min(start + SHORT_LITERAL_BYTES, bytes.length);
    for (let i = start; i < shortEnd; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) return this.closed(i, false);
      if (byte === BACKSLASH) return this.closed(this.closingQuoteAfterEscape(i), true);
    }
    // A long literal (a file's base64 runs to megabytes): native searches.
    const quote = bytes.indexOf(QUOTE, shortEnd);
    if (quote < 0) return -1;
    if (this.nextBackslash < shortEnd) {
      const found = bytes.indexOf(BACKSLASH, shortEnd);
      this.nextBackslash = found < 0 ? Infinity : found;
    }
    if (this.nextBackslash > quote) return this.closed(quote, false);
    return this.closed(this.closingQuoteAfterEscape(this.nextBackslash), true);
  }

  private closed(quote: number, escaped: boolean): number {
    this.escaped = escaped;
    return quote;
  }

  /**
   * From a backslash on, a byte loop: with escapes dense (`\n\n\n…`) one native search per escape would cost more than
   * reading every byte, and searching for the quote again after each one is what made the old scan quadratic.
   */
  private closingQuoteAfterEscape(backslash: number): number {
    const bytes = this.bytes;
    for (let i = backslash; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === BACKSLASH) i++; // the escaped byte may itself be a quote or a backslash
      else if (byte === QUOTE) return i;
    }
    return -1;
  }
}
