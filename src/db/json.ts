// JSON on its way into the database. PostgreSQL's jsonb refuses two things JavaScript strings can hold: U+0000 and
// lone UTF-16 surrogates ("invalid input syntax for type json"). JSON.stringify writes both as `\u` escapes (it is
// well-formed since ES2019), so they are replaced by U+FFFD in the JSON text itself: one pass over a string, no
// walk over the value, and every jsonb write goes through here (the column type below, the job queue, the run
// recorder). The same rule for text columns and request input is in storable.ts.
import { customType } from 'drizzle-orm/pg-core';
import { isStorableText } from './storable.js';

/**
 * A `\u` escape for NUL or any surrogate, preceded by an even number of backslashes (so `\\u0000`, an escaped
 * backslash followed by the letters u0000, is left alone). Paired surrogates never appear as escapes: stringify
 * writes them as the characters themselves, so every escaped surrogate is a lone one.
 */
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/gi;

/** JSON text of `value` that PostgreSQL's jsonb accepts; throws like JSON.stringify (cycles, BigInt). */
export function toJsonText(value: unknown, replacer?: (this: unknown, key: string, value: unknown) => unknown): string {
  const text = JSON.stringify(value, replacer) ?? 'null';
  return text.includes('\\u') ? text.replace(UNSTORABLE_ESCAPE, '$1\\ufffd') : text;
}

/** Shorter keys first, then by UTF-8 bytes: the order jsonb keeps an object's keys in. */
export function compareJsonbKeys(a: string, b: string): number {
  // ASCII keys (nearly all) are as long in UTF-8 as in UTF-16, and their code units compare as their bytes do.
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * A value parsed from JSON with every object in it holding its keys in jsonb's order: a value kept outside a jsonb
 * column (as compressed JSON) answers with its keys in the order it would have had in one. Objects already in that
 * order are not copied (nor anything holding only such objects).
 */
export function inJsonbKeyOrder<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const ordered = inJsonbKeyOrder(value[i]);
      if (ordered !== value[i]) (copy ??= value.slice())[i] = ordered;
    }
    return (copy ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = compareJsonbKeys(keys[i - 1], keys[i]) < 0;
  let copy: Record<string, unknown> | undefined;
  if (!sorted) {
    copy = {};
    for (const key of keys.sort(compareJsonbKeys)) define(copy, key, inJsonbKeyOrder(record[key]));
    return copy as T;
  }
  for (const key of keys) {
    const ordered = inJsonbKeyOrder(record[key]);
    if (ordered !== record[key]) define((copy ??= { ...record }), key, ordered);
  }
  return (copy ?? value) as T;
}

/** An own key, `__proto__` included (assigning that one would set the prototype instead). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * A jsonb column whose writes go through toJsonText, typed with what it holds (so rows read back need no casts).
 * Reads: node-postgres and PGlite both parse jsonb themselves, so a value arrives as is (a top-level JSON string
 * stays a string; Drizzle's own jsonb would try to parse it a second time).
 */
export const jsonb = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'jsonb',
    toDriver: (value) => toJsonText(value),
    fromDriver: (value) => value as unknown as T,
  })(name);

/**
 * `value` itself when every string and key in it is storable as is (the usual case: no copy), else a copy with NUL
 * and lone surrogates replaced by U+FFFD — what the database will show. Walks with an explicit stack, so nesting
 * depth cannot overflow it.
 */
export function storableValue<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (!isStorableText(item)) return JSON.parse(toJsonText(value)) as T;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (!isStorableText(key)) return JSON.parse(toJsonText(value)) as T;
        stack.push(child);
      }
    }
  }
  return value;
}
