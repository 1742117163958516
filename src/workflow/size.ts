// How large a value is as JSON text, found without writing the text. References share values instead of copying
// them, so a small config can stand for an answer of hundreds of megabytes (`{"a": "<api.q>", "b": "<api.q>", …}`);
// serialising it to find out would be the very stall and `RangeError: Invalid string length` the check prevents.

/**
 * The length of `JSON.stringify(value)`, give or take a character per array or object, with each string counted by
 * its length: escapes are not counted, so no string is scanned and a 30 MB string costs as much as a short one.
 * Counting stops as soon as the total passes `limit` (the result is then some number above it), so the work is
 * bounded by the limit even for a value that shares one object many times over. Walks with an explicit stack.
 */
export function jsonSize(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number') size += numberLength(item);
    else if (typeof item === 'boolean') size += item ? 4 : 5;
    else if (typeof item === 'bigint') size += String(item).length;
    else if (item === null || item === undefined) size += 4;
    else if (item instanceof Date) size += 26;
    else if (ArrayBuffer.isView(item)) size += item.byteLength * 4 + 2;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      if (size <= limit) for (const child of item) stack.push(child);
    } else if (typeof item === 'object') {
      size += 2;
      const record = item as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        const child = record[key];
        // JSON leaves out keys whose value it cannot write.
        if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
        size += key.length + 4;
        stack.push(child);
      }
    }
  }
  return size;
}

/** Characters of a number as JSON; small integers (the usual case) without building their text. */
function numberLength(value: number): number {
  if (!Number.isFinite(value)) return 4;
  if (!Number.isSafeInteger(value)) return String(value).length;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) length++;
  return length;
}

/**
 * Thrown when filling references into a text would make it longer than the caller allows: it is stopped before the
 * text is built. The caller knows which block and which limit, so it words the message people read.
 */
export class TextTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`The text with its references filled in would be longer than ${limit} characters`);
    this.name = 'TextTooLongError';
  }
}
