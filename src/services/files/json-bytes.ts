// JSON.parse for request bodies that carry inline files (docs/api.md 4.2: a 20 MB file is ~27 MB of base64 text, and
// must cost at most ~3× its size in memory end to end).
//
// The obvious `JSON.parse(bytes.toString())` holds three full copies at its peak: the bytes, the text, and the parsed
// string (V8 copies string values out of the source text). Here every long, escape-free string literal is cut out of
// the bytes straight into its final string, the much smaller rest is parsed natively, and the long strings are put
// back in place. Peak: the bytes plus the strings, two copies instead of three. Results equal JSON.parse's exactly
// (same values, same SyntaxError for the same invalid input), which the fuzz tests in test/files check.
import { randomBytes } from 'node:crypto';
import { QUOTE, StringLiteralScanner } from '../../json-literals.js';

const COLON = 0x3a;
const UTF8_BOM = [0xef, 0xbb, 0xbf];
// JSON forbids raw control characters inside strings; JSON.parse would reject them, so extraction must too.
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

export interface JsonBytesOptions {
  /** Bodies shorter than this take the plain JSON.parse path (the saving only matters for big bodies). */
  minBodyBytes?: number;
  /** String literals at least this long (in bytes, between the quotes) are cut out. */
  minStringBytes?: number;
}

const DEFAULTS: Required<JsonBytesOptions> = { minBodyBytes: 1024 * 1024, minStringBytes: 256 * 1024 };

interface LiteralRange {
  /** First byte after the opening quote. */
  start: number;
  /** Index of the closing quote. */
  end: number;
}

/** Parses UTF-8 JSON bytes. Throws SyntaxError exactly when JSON.parse of the decoded text would. */
export function parseJsonBytes(bytes: Buffer, options: JsonBytesOptions = {}): unknown {
  const { minBodyBytes, minStringBytes } = { ...DEFAULTS, ...options };
  // Decoders (and Hono's c.req.json) skip a leading byte-order mark; do the same rather than fail on it.
  const body = startsWithBom(bytes) ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (body.length < minBodyBytes) return JSON.parse(body.toString('utf8'));
  const ranges = findLongStringValues(body, minStringBytes);
  if (ranges.length === 0) return JSON.parse(body.toString('utf8'));

  const nonce = randomBytes(12).toString('hex');
  const strings = new Map<string, string>();
  const skeleton: string[] = [];
  let cursor = 0;
  for (const [i, range] of ranges.entries()) {
    const value = body.toString('utf8', range.start, range.end);
    if (CONTROL_CHARACTER.test(value)) throw new SyntaxError('Bad control character in string literal in JSON');
    // The nonce makes a collision with a string the client sent infeasible.
    const placeholder = `sluice-long-string:${nonce}:${i}`;
    strings.set(placeholder, value);
    // Cuts fall on ASCII quote bytes, so no multi-byte UTF-8 sequence is ever split.
    skeleton.push(body.toString('utf8', cursor, range.start), placeholder);
    cursor = range.end;
  }
  skeleton.push(body.toString('utf8', cursor));
  return restoreStrings(JSON.parse(skeleton.join('')), strings);
}

function startsWithBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/**
 * Every string literal of at least `minBytes` bytes with no escape that is a value (not an object key). Outside a
 * string, a quote always opens one in JSON, so tracking quotes and backslashes is enough; if the text is not JSON the
 * skeleton is not JSON either and JSON.parse reports it. Linear in the body size whatever its literals hold.
 */
function findLongStringValues(bytes: Buffer, minBytes: number): LiteralRange[] {
  const ranges: LiteralRange[] = [];
  const literals = new StringLiteralScanner(bytes);
  let position = 0;
  while (position < bytes.length) {
    const open = bytes.indexOf(QUOTE, position);
    if (open < 0) break;
    const start = open + 1;
    const close = literals.closingQuote(start);
    if (close < 0) break; // unterminated string: JSON.parse will say so
    const isLongValue = !literals.escaped && close - start >= minBytes && !isFollowedByColon(bytes, close + 1);
    if (isLongValue) ranges.push({ start, end: close });
    position = close + 1;
  }
  return ranges;
}

function isFollowedByColon(bytes: Buffer, from: number): boolean {
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === COLON;
  }
  return false;
}

/** Puts the long strings back. Iterative, because a body may nest deeper than the call stack allows. */
function restoreStrings(root: unknown, strings: Map<string, string>): unknown {
  if (typeof root === 'string') return strings.get(root) ?? root;
  let remaining = strings.size;
  const pending: object[] = isContainer(root) ? [root] : [];
  while (pending.length > 0 && remaining > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value: unknown = node[i];
        const original = typeof value === 'string' ? strings.get(value) : undefined;
        if (original !== undefined) {
          node[i] = original;
          remaining--;
        } else if (isContainer(value)) pending.push(value);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      const original = typeof value === 'string' ? strings.get(value) : undefined;
      if (original !== undefined) {
        // defineProperty, not assignment: a key named "__proto__" is an own property after JSON.parse.
        Object.defineProperty(record, key, { value: original, writable: true, enumerable: true, configurable: true });
        remaining--;
      } else if (isContainer(value)) pending.push(value);
    }
  }
  return root;
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
